import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';

/* `npm run sandbox` with SANDBOX_RATE_LIMIT: the limit is announced, applied, and a bad value refused. */

// Starting ts-node in a child takes a few seconds on a busy two-core machine.
jest.setTimeout(60_000);

const root = join(__dirname, '..', '..', '..');
const started: ChildProcessWithoutNullStreams[] = [];
afterAll(() => {
	for (const child of started) if (child.exitCode === null) child.kill('SIGKILL');
});

function startCli(env: Record<string, string>) {
	const child = spawn(
		process.execPath,
		['--require', 'ts-node/register/transpile-only', 'sandbox/cli.ts'],
		{
			cwd: root,
			env: { ...process.env, SANDBOX_PORT: '0', ...env },
		},
	);
	started.push(child);
	let output = '';
	child.stdout.on('data', (chunk: Buffer) => {
		output += chunk.toString('utf8');
		child.emit('output');
	});
	let errors = '';
	child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString('utf8')));
	const lineMatching = (pattern: RegExp) =>
		new Promise<string>((resolve, reject) => {
			const check = () => {
				const line = output.split('\n').find((candidate) => pattern.test(candidate));
				if (line === undefined) return;
				child.off('output', check);
				resolve(line);
			};
			child.on('output', check);
			child.once('exit', (code) =>
				reject(new Error(`the CLI exited (${code}): ${output}${errors}`)),
			);
			check();
		});
	return { child, lineMatching, errors: () => errors };
}

it('SANDBOX_RATE_LIMIT and SANDBOX_RATE_BURST: announced, then 429 with Retry-After beyond the bucket', async () => {
	const { child, lineMatching } = startCli({ SANDBOX_RATE_LIMIT: '0.01', SANDBOX_RATE_BURST: '1' });
	const url = /listening on (\S+)/.exec(await lineMatching(/^Stand-in service listening on/))![1];
	expect(await lineMatching(/^Rate limit:/)).toBe(
		'Rate limit: 0.01 requests/s, bursts of 1; beyond it 429 with Retry-After',
	);
	const send = () =>
		fetch(`${url}/api/v1/events`, {
			method: 'POST',
			headers: { authorization: 'sandbox-api-key', 'content-type': 'application/json' },
			body: JSON.stringify({
				event_type: 'send_template_message',
				contact: { phone_number: '+14155550123' },
				template_message: {
					chat_template_id: 'wat_1b2c3d4e5f607182',
					liquid_values: { first_name: 'Ada' },
				},
			}),
		});
	expect((await send()).status).toBe(201);
	const throttled = await send();
	expect(throttled.status).toBe(429);
	expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(90);
	const counts = (await (await fetch(`${url}/_sandbox/counts`)).json()) as Record<string, number>;
	expect(counts).toMatchObject({ accepted: 1, throttled: 1, duplicates: 0 });
	const exited = once(child, 'exit');
	child.kill('SIGTERM');
	expect((await exited)[0]).toBe(0);
});

it('refuses a rate that is not a positive number, and exits', async () => {
	const { child, errors } = startCli({ SANDBOX_RATE_LIMIT: 'fast' });
	const [code] = await once(child, 'exit');
	expect(code).toBe(1);
	expect(errors()).toMatch(/SANDBOX_RATE_LIMIT must be a positive number of requests per second/);
});
