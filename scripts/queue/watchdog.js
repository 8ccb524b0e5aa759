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
 * A group is only signalled while it is proven the one recorded (as scripts/n8n/ownProcess.ts rules
 * for pid files): its leader, while alive, has the recorded start time (field 22 of /proc/<pid>/stat)
 * and, when one was recorded, argv ending with the recorded command; a group seen empty is
 * forgotten (checked every second), since only then may the kernel give its number to a new one.
 *
 * Its own process group (spawned detached), so Ctrl-C in the terminal does not reach it; it ignores
 * SIGINT and SIGHUP besides. SIGTERM makes it clean up at once.
 *
 * stdin: one JSON object a line:
 *   {"id":1,"kind":"group","name":"n8n main","pid":123,"startTime":"4567","command":["n8n","start"]}
 *   {"id":2,"kind":"command","name":"the private Postgres","command":"pg_ctl","args":[...]}
 *   {"id":3,"kind":"folder","name":"the temp folder","path":"/tmp/..."}
 *   {"release":1}   (stopped by its owner: nothing left to do for it)
 */
const { spawnSync } = require('node:child_process');
const { readdirSync, readFileSync, rmSync } = require('node:fs');

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

/** Fields 3 on of /proc/<pid>/stat (after the command name, which may hold spaces), or undefined. */
function statFields(pid) {
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
		return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
	} catch {
		return undefined;
	}
}

function argvOf(pid) {
	try {
		return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
	} catch {
		return [];
	}
}

/** Whether any process is in the group (field 5 of stat), the ended but unreaped ones aside. */
function groupHasMembers(group) {
	let names = [];
	try {
		names = readdirSync('/proc');
	} catch {
		// No /proc: nothing can be proven, so nothing is signalled.
	}
	for (const name of names) {
		if (!/^\d+$/.test(name)) continue;
		const fields = statFields(Number(name));
		if (fields && fields[0] !== 'Z' && Number(fields[2]) === group) return true;
	}
	return false;
}

/**
 * The recorded group still exists and is the one recorded: its leader, if alive, is the recorded
 * process (same start time, same command), and somebody is in the group.
 */
function groupIsOurs(entry) {
	const leader = statFields(entry.pid);
	if (leader && leader[0] !== 'Z') {
		if (leader[22 - 3] !== entry.startTime) return false;
		if (Array.isArray(entry.command) && entry.command.length > 0) {
			const argv = argvOf(entry.pid);
			const tail = argv.slice(argv.length - entry.command.length);
			if (tail.length !== entry.command.length || tail.some((part, i) => part !== entry.command[i]))
				return false;
		}
		return Number(leader[2]) === entry.pid;
	}
	return groupHasMembers(entry.pid);
}

/*
 * After the signal, the question is only whether anyone is left in the group. A leader that is
 * exiting has no command line any more, so its identity no longer reads as ours; judged by identity,
 * the group would count as ended while its processes are still going down. The SIGKILL that may
 * follow is checked against the identity again.
 */
function groupStillHasMembers(entry) {
	return groupHasMembers(entry.pid);
}

function signalGroup(entry, signal) {
	if (!groupIsOurs(entry)) return;
	try {
		process.kill(-entry.pid, signal);
	} catch {
		// Gone.
	}
}

/** A group seen ended is forgotten: its number may be given to somebody else's group. */
function forgetEndedGroups() {
	for (const [id, entry] of recorded) {
		if (entry.kind === 'group' && !groupIsOurs(entry)) recorded.delete(id);
	}
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitGone(groups, seconds) {
	const end = Date.now() + seconds * 1000;
	while (Date.now() < end && groups.some((g) => groupStillHasMembers(g))) await sleep(200);
	return groups.filter((g) => groupStillHasMembers(g));
}

async function cleanUp(why) {
	if (cleaning) return;
	cleaning = true;
	const all = [...recorded.values()];
	const groups = all.filter((e) => e.kind === 'group' && groupIsOurs(e));
	const named = (list) => list.map((g) => `${g.name} (pid ${g.pid})`).join(', ');
	if (groups.length > 0) {
		say(`${why}: stopping ${named(groups)} (SIGTERM, up to ${GRACE_SECONDS} s, then SIGKILL)`);
		for (const group of groups) signalGroup(group, 'SIGTERM');
		let left = await waitGone(groups, GRACE_SECONDS);
		if (left.length > 0) {
			say(`${named(left)} did not stop within ${GRACE_SECONDS} s: killing (SIGKILL)`);
			for (const group of left) signalGroup(group, 'SIGKILL');
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

setInterval(() => {
	if (!cleaning) forgetEndedGroups();
}, 1000).unref();
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
