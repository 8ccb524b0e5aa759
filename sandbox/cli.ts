import { rateLimitConfig, type RateLimitConfig } from './rateLimit';
import { DEFAULT_API_KEY, startStandInService } from './server';

/*
 * `npm run sandbox`: the stand-in service in the foreground, for a real n8n or curl to talk to.
 * Configured by environment so scripts can start it the same way the README shows.
 */

async function main(): Promise<void> {
	const port = Number(process.env.SANDBOX_PORT ?? 5680);
	if (!Number.isInteger(port) || port < 0 || port > 65535) {
		throw new Error(`SANDBOX_PORT must be a port number, got "${process.env.SANDBOX_PORT}"`);
	}
	const rateLimit = readRateLimit(process.env.SANDBOX_RATE_LIMIT, process.env.SANDBOX_RATE_BURST);
	const service = await startStandInService({
		port,
		apiKey: process.env.SANDBOX_API_KEY || DEFAULT_API_KEY,
		refuseUnknownTemplates: true,
		host: process.env.SANDBOX_HOST || '127.0.0.1',
		rateLimit,
		allowedOrigins: listOf(process.env.SANDBOX_ALLOWED_ORIGINS),
		allowedHosts: listOf(process.env.SANDBOX_ALLOWED_HOSTS),
	});
	console.log(`Stand-in service listening on ${service.url} (API key: ${service.apiKey})`);
	console.log(`Request log: ${service.url}/_sandbox/requests`);
	console.log(
		`Inbox (the messages each number received, links clickable): ${service.url}/_sandbox/inbox`,
	);
	console.log('Endpoints (API key in Authorization):');
	for (const endpoint of service.endpoints) console.log(`  ${endpoint}`);
	const limit = service.rateLimitState();
	if (limit)
		console.log(
			`Rate limit: ${limit.requestsPerSecond} requests/s, bursts of ${limit.burst}; beyond it 429 with Retry-After`,
		);

	let stopping = false;
	const stop = (signal: NodeJS.Signals) => {
		if (stopping) return;
		stopping = true;
		console.log(`${signal} received, stopping the stand-in service`);
		service.close().then(
			() => process.exit(0),
			(error: unknown) => {
				console.error(error);
				process.exit(1);
			},
		);
	};
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);
}

/** A comma-separated list, as SANDBOX_ALLOWED_ORIGINS and SANDBOX_ALLOWED_HOSTS are written. */
function listOf(text: string | undefined): string[] {
	return (text ?? '')
		.split(',')
		.map((item) => item.trim())
		.filter((item) => item !== '');
}

/** SANDBOX_RATE_LIMIT (requests/s) and SANDBOX_RATE_BURST: the token bucket, off when unset. */
function readRateLimit(
	perSecond: string | undefined,
	burst: string | undefined,
): RateLimitConfig | undefined {
	if (perSecond === undefined || perSecond === '') {
		if (burst) throw new Error('SANDBOX_RATE_BURST needs SANDBOX_RATE_LIMIT (requests per second)');
		return undefined;
	}
	const config = {
		requestsPerSecond: Number(perSecond),
		...(burst ? { burst: Number(burst) } : {}),
	};
	const checked = rateLimitConfig.safeParse(config);
	if (!checked.success) {
		throw new Error(
			`SANDBOX_RATE_LIMIT must be a positive number of requests per second and SANDBOX_RATE_BURST a positive whole number, got "${perSecond}" and "${burst ?? ''}"`,
		);
	}
	return checked.data;
}

main().catch((error: unknown) => {
	console.error(error instanceof Error ? error.message : error);
	process.exit(1);
});
