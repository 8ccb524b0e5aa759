import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';

/* `npm run sandbox` as a user starts it: environment in, one line out, a clean stop on a signal. */

// Starting ts-node in a child takes a few seconds on a busy two-core machine.
jest.setTimeout(60_000);

const root = join(__dirname, '..', '..', '..');
const started: ChildProcessWithoutNullStreams[] = [];

// Runs even when a test timed out mid-await, so no child outlives the suite.
afterAll(() => {
	for (const child of started) if (child.exitCode === null) child.kill('SIGKILL');
});

/** Starts the CLI and collects its output lines as they come, whatever the chunking. */
function startCli(env: Record<string, string>) {
	const child = spawn(
		process.execPath,
		['--require', 'ts-node/register/transpile-only', 'sandbox/cli.ts'],
		{ cwd: root, env: { ...process.env, ...env } },
	);
	started.push(child);
	let output = '';
	child.stdout.on('data', (chunk: Buffer) => {
		output += chunk.toString('utf8');
		child.emit('output');
	});
	const lines = () => output.split('\n').slice(0, -1);
	/** Resolves with all complete lines once `count` have been printed. */
	const firstLines = (count: number) =>
		new Promise<string[]>((resolve, reject) => {
			const check = () => {
				if (lines().length < count) return;
				child.off('output', check);
				resolve(lines());
			};
			child.on('output', check);
			child.once('exit', (code) => reject(new Error(`the CLI exited (${code}): ${output}`)));
			check();
		});
	return { child, firstLines };
}

it('listens where the environment says, with its key, and stops cleanly on SIGTERM', async () => {
	const { child, firstLines } = startCli({ SANDBOX_PORT: '0', SANDBOX_API_KEY: 'cli-test-key' });
	const [listening, log] = await firstLines(2);
	const match =
		/^Stand-in service listening on (http:\/\/127\.0\.0\.1:\d+) \(API key: (.*)\)$/.exec(listening);
	expect(match).not.toBeNull();
	const [, url, key] = match!;
	expect(key).toBe('cli-test-key');
	expect(log).toBe(`Request log: ${url}/_sandbox/requests`);

	const health = await fetch(`${url}/_sandbox/health`);
	expect(await health.json()).toEqual({ ok: true });
	const withDefaultKey = await fetch(`${url}/api/v1/events`, {
		method: 'POST',
		headers: { authorization: 'sandbox-api-key', 'content-type': 'application/json' },
		body: '{}',
	});
	expect(withDefaultKey.status).toBe(401);

	const exited = once(child, 'exit');
	child.kill('SIGTERM');
	const [code] = await exited;
	expect(code).toBe(0);
});

it('lets pages of the origins and hosts named in the environment call it, and no others', async () => {
	const { child, firstLines } = startCli({
		SANDBOX_PORT: '0',
		SANDBOX_ALLOWED_ORIGINS: 'http://localhost:5678, http://127.0.0.1:5678',
		SANDBOX_ALLOWED_HOSTS: 'host.docker.internal',
	});
	const [listening] = await firstLines(1);
	const url = /listening on (\S+)/.exec(listening)![1];
	const port = new URL(url).port;
	const fromPage = (origin: string, host = `127.0.0.1:${port}`) =>
		new Promise<number>((resolve, reject) => {
			const outgoing = httpRequest(
				`${url}/_sandbox/faults`,
				{
					method: 'DELETE',
					headers: { origin, host, 'content-type': 'application/json' },
				},
				(response) => {
					response.resume();
					resolve(response.statusCode ?? 0);
				},
			);
			outgoing.on('error', reject);
			outgoing.end();
		});
	expect(await fromPage('http://localhost:5678')).toBe(200);
	expect(await fromPage('http://127.0.0.1:5678')).toBe(200);
	expect(await fromPage('http://localhost:5679')).toBe(403);
	expect(await fromPage(`http://127.0.0.1:${port}`, `host.docker.internal:${port}`)).toBe(200);
	expect(await fromPage(`http://127.0.0.1:${port}`, `evil.example:${port}`)).toBe(403);

	const exited = once(child, 'exit');
	child.kill('SIGTERM');
	await exited;
});
