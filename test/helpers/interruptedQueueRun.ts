import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { N8nInstallation } from '../../scripts/n8n/install';
import { freePort } from '../../scripts/n8n/real-n8n';
import { N8nProcess } from '../../scripts/queue/n8nProcess';
import { recordTempFolder, watchdogPid } from '../../scripts/queue/processGroups';
import { RedisServer } from '../../scripts/queue/services';

/*
 * A queue run cut short, as a process of its own (run with ts-node; argv[2] is a temp folder):
 * through the queue layer's own code it starts a real redis-server and an "n8n" process
 * (N8nProcess) whose program is a stand-in that ignores SIGTERM, answers /healthz/readiness and
 * has a child of its own (as n8n's task runner), records the temp folder, prints what it started
 * as one JSON line, and then waits, with no handler for any signal, as jest does: whatever signal
 * the test sends ends it outright, without any cleanup of its own.
 */

/** A stubborn n8n: SIGTERM does nothing to it or to its child, as seen with n8n after its starter died. */
const STUBBORN_N8N = `#!/usr/bin/env node
const { spawn } = require('node:child_process');
const http = require('node:http');
process.on('SIGTERM', () => undefined);
const runner = spawn(process.execPath, ['-e', "process.on('SIGTERM', () => undefined); setInterval(() => undefined, 1000)"], { stdio: 'ignore' });
http.createServer((request, response) => response.end('ok')).listen(Number(process.env.N8N_PORT), '127.0.0.1');
console.log('stand-in n8n up, runner pid ' + runner.pid);
`;

async function main(): Promise<void> {
	const folder = process.argv[2];
	recordTempFolder('the test temp folder', folder);
	const n8nBin = join(folder, 'stubborn-n8n.js');
	writeFileSync(n8nBin, STUBBORN_N8N);
	chmodSync(n8nBin, 0o755);
	const redis = await RedisServer.start({
		port: await freePort(),
		logFile: join(folder, 'redis.log'),
	});
	const installation: N8nInstallation = {
		n8nHome: folder,
		nodeBinDir: '',
		n8nBin,
		path: process.env.PATH ?? '',
	};
	const port = await freePort();
	const n8n = new N8nProcess(
		'worker',
		'worker',
		join(folder, 'worker'),
		join(folder, 'worker.log'),
		port,
		installation,
		[],
		{ ...process.env, N8N_PORT: String(port) },
	);
	await n8n.start(30_000);
	console.log(JSON.stringify({ redis: redis.pid, n8n: n8n.pid, watchdog: watchdogPid() }));
	setInterval(() => undefined, 60_000);
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
