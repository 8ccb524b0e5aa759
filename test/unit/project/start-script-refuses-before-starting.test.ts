/*
 * `npm start` when it cannot go ahead (issue 39, points 2, 3 and 5), driven as a process the way a
 * person runs it: before `npm install`, with a port taken by another program, with another n8n on
 * n8n's port, and with an `npm start` of the same project already running. Each must say so, name
 * what to change, start nothing and send nothing. These need no n8n: they stop before the build.
 * The signal cases, with a real n8n, are in test/start/ (npm run test:start).
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { PROJECT_ROOT } from '../../../scripts/n8n/install';
import {
	freeStartPorts,
	privateLocalFolder,
	startEnvironment,
	StartRun,
	type StartPorts,
} from '../../helpers/startProcess';

jest.setTimeout(120_000);

const runs: StartRun[] = [];
const folders: string[] = [];
afterEach(() => {
	for (const run of runs.splice(0)) run.killEverything();
	for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function start(
	ports: StartPorts,
	localFolder = privateLocalFolder(),
	extra: NodeJS.ProcessEnv = {},
): StartRun {
	if (!folders.includes(localFolder)) folders.push(localFolder);
	const run = new StartRun(startEnvironment(ports, localFolder, extra));
	runs.push(run);
	return run;
}

async function listenOn(server: Server | HttpServer, port: number) {
	await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
}

/** Sockets the servers accepted: a server closes only once they are gone. */
const accepted = new Set<Socket>();

async function listenAndTrack(server: Server | HttpServer, port: number) {
	server.on('connection', (socket: Socket) => {
		accepted.add(socket);
		socket.once('close', () => accepted.delete(socket));
	});
	await listenOn(server, port);
}

async function close(server: Server | HttpServer) {
	for (const socket of accepted) socket.destroy();
	await new Promise<void>((resolve) => server.close(() => resolve()));
}

describe('before npm install', () => {
	// A copy of the project's scripts and package.json, without node_modules.
	let clone: string;
	beforeAll(() => {
		clone = mkdtempSync(join(tmpdir(), 'fresh-clone-'));
		mkdirSync(join(clone, 'scripts'));
		for (const file of ['package.json', 'scripts/start.sh', 'scripts/test.sh'])
			copyFileSync(join(PROJECT_ROOT, file), join(clone, file));
	});
	afterAll(() => rmSync(clone, { recursive: true, force: true }));

	for (const command of ['start', 'test']) {
		it(`npm ${command} says to run npm install first, not "tsc: not found"`, async () => {
			const result = await new Promise<{ code: number | null; output: string }>((resolve) => {
				execFile('npm', [command], { cwd: clone }, (error, stdout, stderr) =>
					resolve({ code: error ? ((error.code as number) ?? 1) : 0, output: stdout + stderr }),
				);
			});
			expect(result.output).toContain(`run npm install first, then npm ${command}`);
			expect(result.output).not.toMatch(/not found/);
			expect(result.code).not.toBe(0);
		});
	}
});

describe('a port npm start needs is taken', () => {
	const cases: Array<[keyof StartPorts, string, string]> = [
		['n8n', 'N8N_PORT', "n8n's editor and API"],
		['broker', 'N8N_RUNNERS_BROKER_PORT', "n8n's task runner broker"],
		['standIn', 'SANDBOX_PORT', 'the stand-in service'],
	];
	for (const [which, variable, purpose] of cases) {
		it(`names port, program and ${variable} when ${purpose}'s port is taken, and starts nothing`, async () => {
			const ports = await freeStartPorts();
			const other = createServer();
			await listenAndTrack(other, ports[which]);
			try {
				const run = start(ports);
				const { code } = await run.end(60_000);
				expect(run.output).toContain(
					`port ${ports[which]} (${purpose}) is in use by pid ${process.pid} (`,
				);
				expect(run.output).toContain(`${variable}=<free port> npm start`);
				// Nothing was started: no build, no stand-in, no n8n.
				expect(run.output).not.toMatch(/building the package|stand-in service on|starting n8n/);
				expect(code).toBe(1);
				expect(await run.leftBehindAfter(10_000)).toEqual([]);
			} finally {
				await close(other);
			}
		});
	}
});

it('another n8n on the port: stops before sending it anything, naming the port and N8N_PORT', async () => {
	const ports = await freeStartPorts();
	const requests: string[] = [];
	// Answers as an n8n does: health, readiness, settings, and would take an owner account.
	const otherN8n = createHttpServer((request, response) => {
		requests.push(`${request.method} ${request.url}`);
		response.writeHead(200, { 'content-type': 'application/json' });
		response.end(
			request.url === '/rest/settings'
				? JSON.stringify({ data: { instanceId: 'someone-elses-n8n' } })
				: JSON.stringify({ status: 'ok' }),
		);
	});
	await listenAndTrack(otherN8n, ports.n8n);
	try {
		const run = start(ports);
		const { code } = await run.end(60_000);
		expect(run.output).toContain(`port ${ports.n8n} (n8n's editor and API) is in use by pid`);
		expect(run.output).toContain('which answers like an n8n');
		expect(run.output).toContain('N8N_PORT=<free port> npm start');
		expect(code).toBe(1);
		// Only the look at its health: no owner set up, no sign-in, no credential, nothing changed.
		expect(requests.filter((r) => !r.startsWith('GET '))).toEqual([]);
		expect(requests.every((r) => r === 'GET /healthz')).toBe(true);
	} finally {
		await close(otherN8n);
	}
});

it('a second npm start of the same project says one is already running, and leaves it alone', async () => {
	const ports = await freeStartPorts();
	const localFolder = privateLocalFolder();
	// The first one, past its checks (dist/ as npm test built it: a build killed part-way would
	// leave dist/ half written for the other test projects).
	const first = start(ports, localFolder, { CHAT_MESSAGING_SKIP_BUILD: '1' });
	await first.waitFor(/stand-in service on/, 60_000);

	const second = start(ports, localFolder);
	const { code } = await second.end(60_000);
	const named = new RegExp(
		`npm start is already running for this project \\(pid (\\d+), editor http://127\\.0\\.0\\.1:${ports.n8n}\\)`,
	).exec(second.output);
	expect(named).not.toBeNull();
	// The pid it names is the first one's start script.
	expect(first.started).toContainEqual(
		expect.stringMatching(new RegExp(`^${named?.[1]} .*start\\.ts`)),
	);
	expect(second.output).toContain(`Ctrl-C in its terminal, or kill ${named?.[1]}`);
	expect(second.output).not.toMatch(/building the package|stand-in service on/);
	expect(code).toBe(1);

	// The first was left alone; Ctrl-C ends it and everything it started.
	expect(first.output).not.toMatch(/stopping/);
	expect(first.child.exitCode).toBeNull();
	first.ctrlC();
	await first.end(60_000);
	expect(await first.leftBehindAfter(20_000)).toEqual([]);
	expect(first.output).toMatch(/SIGINT: stopping/);
});
