'use strict';
/*
 * The queue layer's watchdog (scripts/queue/processGroups.ts starts it). It outlives the process
 * that started it (jest, start.ts, bench.ts) on purpose: when that process dies without stopping
 * what it started (Ctrl-C or a closed terminal kill jest outright, without afterAll; SIGTERM;
 * SIGKILL), its end of the pipe on this program's stdin closes, and this program ends what is still
 * recorded: every process group (n8n, Redis, nginx) with SIGTERM, then SIGKILL after a bounded wait;
 * then the commands recorded for the end (`pg_ctl stop` of the private Postgres); then the temp
 * folders. Plain JavaScript, so it starts in a fraction of a second without ts-node.
 *
 * Its own process group (spawned detached), so Ctrl-C in the terminal does not reach it; it ignores
 * SIGINT and SIGHUP besides. SIGTERM makes it clean up at once.
 *
 * stdin: one JSON object a line:
 *   {"id":1,"kind":"group","name":"n8n main","pid":123}
 *   {"id":2,"kind":"command","name":"the private Postgres","command":"pg_ctl","args":[...]}
 *   {"id":3,"kind":"folder","name":"the temp folder","path":"/tmp/..."}
 *   {"release":1}   (stopped by its owner: nothing left to do for it)
 */
const { spawnSync } = require('node:child_process');
const { rmSync } = require('node:fs');

/** How long the groups get after SIGTERM before SIGKILL: n8n's own graceful shutdown is 30 s. */
const GRACE_SECONDS = Number(process.env.CHAT_MESSAGING_QUEUE_STOP_GRACE_SECONDS || 40);
/** How long a command recorded for the end (pg_ctl stop) may take before it is killed. */
const COMMAND_SECONDS = 60;

const recorded = new Map();
let buffered = '';
let cleaning = false;

const say = (line) => {
	try {
		process.stderr.write(`[queue] ${line}\n`);
	} catch {
		// The terminal is gone: nothing to tell.
	}
};
process.stderr.on('error', () => undefined);

function groupAlive(pid) {
	try {
		process.kill(-pid, 0);
		return true;
	} catch (error) {
		// EPERM: it exists, owned by another user.
		return error.code === 'EPERM';
	}
}

function signalGroup(pid, signal) {
	try {
		process.kill(-pid, signal);
	} catch {
		// Gone.
	}
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitGone(groups, seconds) {
	const end = Date.now() + seconds * 1000;
	while (Date.now() < end && groups.some((g) => groupAlive(g.pid))) await sleep(200);
	return groups.filter((g) => groupAlive(g.pid));
}

async function cleanUp(why) {
	if (cleaning) return;
	cleaning = true;
	const all = [...recorded.values()];
	const groups = all.filter((e) => e.kind === 'group' && groupAlive(e.pid));
	const named = (list) => list.map((g) => `${g.name} (pid ${g.pid})`).join(', ');
	if (groups.length > 0) {
		say(`${why}: stopping ${named(groups)} (SIGTERM, up to ${GRACE_SECONDS} s, then SIGKILL)`);
		for (const group of groups) signalGroup(group.pid, 'SIGTERM');
		let left = await waitGone(groups, GRACE_SECONDS);
		if (left.length > 0) {
			say(`${named(left)} did not stop within ${GRACE_SECONDS} s: killing (SIGKILL)`);
			for (const group of left) signalGroup(group.pid, 'SIGKILL');
			left = await waitGone(left, 5);
			for (const group of left)
				say(`${group.name} is still there 5 s after SIGKILL; end it with kill -9 -${group.pid}`);
		}
	}
	for (const entry of all.filter((e) => e.kind === 'command')) {
		say(`${why}: stopping ${entry.name} (up to ${COMMAND_SECONDS} s)`);
		const result = spawnSync(entry.command, entry.args, {
			stdio: 'ignore',
			cwd: '/',
			timeout: COMMAND_SECONDS * 1000,
			killSignal: 'SIGKILL',
		});
		if (result.status !== 0)
			say(`stopping ${entry.name} failed (${entry.command} ${entry.args.join(' ')})`);
	}
	for (const entry of all.filter((e) => e.kind === 'folder')) {
		rmSync(entry.path, { recursive: true, force: true });
		say(`removed ${entry.name} ${entry.path}`);
	}
	process.exit(0);
}

process.on('SIGINT', () => undefined);
process.on('SIGHUP', () => undefined);
process.on('SIGTERM', () => void cleanUp('the watchdog got SIGTERM'));
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
	buffered += chunk;
	let newline;
	while ((newline = buffered.indexOf('\n')) >= 0) {
		const line = buffered.slice(0, newline);
		buffered = buffered.slice(newline + 1);
		if (!line.trim()) continue;
		const message = JSON.parse(line);
		if (message.release !== undefined) recorded.delete(message.release);
		else recorded.set(message.id, message);
	}
});
process.stdin.on('end', () => void cleanUp('the run ended without stopping what it started'));
process.stdin.on('error', () => void cleanUp('the run ended without stopping what it started'));
