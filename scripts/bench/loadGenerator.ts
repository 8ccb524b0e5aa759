/*
 * autocannon (from the npm registry) as the load generator for the ceiling and trigger phases. It
 * ships no type declarations, so the few fields read here are typed by hand.
 */

interface AutocannonResult {
	duration: number;
	'2xx': number;
	non2xx: number;
	errors: number;
	timeouts: number;
	latency: { p50: number; p99: number; average: number };
	requests: { average: number; total: number };
}

type Autocannon = (options: {
	url: string;
	method: 'POST';
	headers: Record<string, string>;
	body: string;
	connections: number;
	duration: number;
}) => Promise<AutocannonResult>;

// A plain require: the package has no type declarations to import with.
const autocannon = require('autocannon') as Autocannon;

export interface LoadResult {
	/** Answers with a 2xx status per second of the run. */
	acceptedPerSecond: number;
	accepted: number;
	rejected: number;
	errors: number;
	durationSeconds: number;
	latencyP50Ms: number;
	latencyP99Ms: number;
	connections: number;
}

export async function postLoad(options: {
	url: string;
	headers: Record<string, string>;
	body: string;
	connections: number;
	durationSeconds: number;
}): Promise<LoadResult> {
	const result = await autocannon({
		url: options.url,
		method: 'POST',
		headers: { 'content-type': 'application/json', ...options.headers },
		body: options.body,
		connections: options.connections,
		duration: options.durationSeconds,
	});
	return {
		acceptedPerSecond: result['2xx'] / result.duration,
		accepted: result['2xx'],
		rejected: result.non2xx,
		errors: result.errors + result.timeouts,
		durationSeconds: result.duration,
		latencyP50Ms: result.latency.p50,
		latencyP99Ms: result.latency.p99,
		connections: options.connections,
	};
}
