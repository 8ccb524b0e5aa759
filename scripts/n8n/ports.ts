import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { createServer } from 'node:net';

/*
 * Before `npm start` starts anything: is each port it needs free, and if not, who holds it. The
 * answer names the port, what it is for, the program on it when this user may see it, and the
 * variable that moves it, so nobody has to find "EADDRINUSE" in a log.
 */

export interface NeededPort {
	port: number;
	/** What `npm start` runs there, in the user's words. */
	purpose: string;
	/** The environment variable that moves it. */
	variable: string;
}

/** Whether 127.0.0.1:port can be listened on now (what n8n and the stand-in will do). */
export async function portIsFree(port: number): Promise<boolean> {
	return await new Promise((resolve) => {
		const server = createServer();
		server.once('error', () => resolve(false));
		server.listen({ port, host: '127.0.0.1', exclusive: true }, () => {
			server.close(() => resolve(true));
		});
	});
}

/** The command line of a process, or undefined when it is gone or not ours to see. */
export function commandOf(pid: number): string | undefined {
	try {
		const raw = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
		const command = raw.split('\0').filter(Boolean).join(' ');
		if (command) return command;
	} catch {
		// No /proc (macOS): ask ps.
	}
	try {
		const out = execFileSync('ps', ['-o', 'args=', '-p', String(pid)], {
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'ignore'],
		});
		return out.trim() || undefined;
	} catch {
		return undefined;
	}
}

/** Linux: the socket inodes listening on the port, from /proc/net/tcp and tcp6. */
function listeningInodes(port: number): Set<string> {
	const inodes = new Set<string>();
	const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
	for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
		let text = '';
		try {
			text = readFileSync(table, 'utf8');
		} catch {
			continue;
		}
		for (const line of text.split('\n').slice(1)) {
			const fields = line.trim().split(/\s+/);
			// local_address is ADDR:PORT in hex; state 0A is LISTEN; field 9 is the inode.
			if (fields.length > 9 && fields[1].endsWith(`:${hexPort}`) && fields[3] === '0A')
				inodes.add(fields[9]);
		}
	}
	return inodes;
}

/** The pid listening on the port, when the system lets this user see it. */
export function listenerPid(port: number): number | undefined {
	const inodes = listeningInodes(port);
	if (inodes.size > 0) {
		let pids: string[] = [];
		try {
			pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
		} catch {
			pids = [];
		}
		for (const pid of pids) {
			let fds: string[];
			try {
				fds = readdirSync(`/proc/${pid}/fd`);
			} catch {
				continue;
			}
			for (const fd of fds) {
				try {
					const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
					const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
					if (inode && inodes.has(inode)) return Number(pid);
				} catch {
					// Closed meanwhile.
				}
			}
		}
		return undefined;
	}
	try {
		const out = execFileSync('lsof', ['-nP', `-iTCP:${port}`, '-sTCP:LISTEN', '-t'], {
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'ignore'],
		});
		const pid = Number(out.trim().split('\n')[0]);
		return Number.isInteger(pid) && pid > 0 ? pid : undefined;
	} catch {
		return undefined;
	}
}

/** Whether an HTTP server on the port answers n8n's health check the way n8n does. */
async function answersLikeN8n(port: number): Promise<boolean> {
	try {
		const response = await fetch(`http://127.0.0.1:${port}/healthz`, {
			signal: AbortSignal.timeout(2_000),
		});
		const body = (await response.json()) as { status?: unknown };
		return response.ok && body.status === 'ok';
	} catch {
		return false;
	}
}

/** The program on the port, in words: "pid 123 (node …/n8n start), which answers like an n8n". */
export async function whatHolds(port: number): Promise<string> {
	const pid = listenerPid(port);
	const command = pid === undefined ? undefined : commandOf(pid);
	const who =
		pid === undefined
			? 'a program this user cannot see (another user, or a container)'
			: `pid ${pid}${command ? ` (${command.length > 100 ? `${command.slice(0, 100)}…` : command})` : ''}`;
	return (await answersLikeN8n(port)) ? `${who}, which answers like an n8n` : who;
}

/** One message per port in use, each naming the port, its holder and the variable; none when all are free. */
export async function portsInUse(needed: NeededPort[]): Promise<string[]> {
	const problems: string[] = [];
	for (const { port, purpose, variable } of needed) {
		if (await portIsFree(port)) continue;
		problems.push(
			`port ${port} (${purpose}) is in use by ${await whatHolds(port)}. Stop that program, or choose another port: ${variable}=<free port> npm start`,
		);
	}
	return problems;
}
