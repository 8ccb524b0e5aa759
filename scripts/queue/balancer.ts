import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { PROJECT_ROOT } from '../n8n/install';
import { makePrivateFolder, withPrivateUmask } from '../n8n/privateFiles';
import { recordProcessGroup, type Recorded } from './processGroups';
import { waitForPort } from './services';

/*
 * nginx in front of the scaled layout, run from the very server block a user copies
 * (scripts/queue/nginx-scaled.conf): only its addresses are replaced by the ports of this run, so
 * what the tests prove is what the file says. nginx runs in the foreground as a child of ours, with
 * its own prefix folder, pid file, logs and temp folders, so a system-wide nginx is neither needed
 * nor touched.
 */

export const NGINX_SCALED_CONF = join(PROJECT_ROOT, 'scripts', 'queue', 'nginx-scaled.conf');

export interface BalancerPorts {
	listen: number;
	main: number;
	webhookProcessors: number[];
}

function replaceOnce(text: string, pattern: RegExp, replacement: (match: string) => string) {
	if (text.search(pattern) === -1)
		throw new Error(`nginx-scaled.conf no longer has ${String(pattern)}`);
	return text.replace(pattern, replacement);
}

/**
 * The copyable server block with this run's ports: one `server` line per webhook processor in each of
 * their upstreams, with the parameters the file gives its first one, main's address and the listening
 * port of every server block. Throws when the file no longer has the shape this reads, so the file and
 * the script cannot drift apart silently.
 */
export function nginxServerBlock(template: string, ports: BalancerPorts): string {
	// Both upstreams of the webhook processors: round-robin, and hashed for signed webhook calls.
	let text = replaceOnce(
		template,
		/upstream n8n_webhook_(processors|calls) \{[^}]*\}/g,
		(block) => {
			const first = /\n(\s*)server \S+(?<parameters>[^;\n]*);/.exec(block);
			if (!first?.groups)
				throw new Error('nginx-scaled.conf: no server line among the webhook processors');
			const indent = first[1];
			const servers = ports.webhookProcessors
				.map((port) => `\n${indent}server 127.0.0.1:${port}${first.groups!.parameters};`)
				.join('');
			return block.replace(/(\n\s*server [^;\n]*;)+/, servers);
		},
	);
	text = replaceOnce(text, /(upstream n8n_main \{\s*server )127\.0\.0\.1:\d+;/, (match) =>
		match.replace(/127\.0\.0\.1:\d+/, `127.0.0.1:${ports.main}`),
	);
	// Every server on the port (the one refusing other hosts too), on loopback only.
	return replaceOnce(text, /\n(\s*)listen \d+( default_server)?;/g, (match) =>
		match.replace(/listen \d+/, `listen 127.0.0.1:${ports.listen}`),
	);
}

/**
 * The access log names the webhook processor (or main) that served each call, and the caller's
 * X-Request-Id, so a test can tell where each call went.
 */
export const ACCESS_LOG_FORMAT =
	'$msec $request_method $uri $status upstream=$upstream_addr request_id=$http_x_request_id';

function mainConfig(folder: string, serverBlockFile: string): string {
	const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
	return [
		'daemon off;',
		// Run as root, nginx would hand its workers to `nobody`, who cannot write the temp folders here.
		...(isRoot ? ['user root;'] : []),
		'worker_processes 1;',
		`pid ${join(folder, 'nginx.pid')};`,
		`error_log ${join(folder, 'nginx-error.log')} warn;`,
		'events { worker_connections 1024; }',
		'http {',
		`\tlog_format balancer '${ACCESS_LOG_FORMAT}';`,
		`\taccess_log ${join(folder, 'nginx-access.log')} balancer;`,
		...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(
			(kind) => `\t${kind}_temp_path ${join(folder, 'temp', kind)};`,
		),
		`\tinclude ${serverBlockFile};`,
		'}',
		'',
	].join('\n');
}

export function nginxBinary(): string {
	return existsSync('/usr/sbin/nginx') ? '/usr/sbin/nginx' : 'nginx';
}

/** One nginx, in the foreground, in its own process group. */
export class Balancer {
	private exited = false;

	/** Its group, recorded with the watchdog until stop(). */
	private recorded?: Recorded;

	private constructor(
		readonly url: string,
		readonly accessLog: string,
		private readonly child: ChildProcess,
	) {
		child.once('exit', () => (this.exited = true));
	}

	static async start(folder: string, ports: BalancerPorts): Promise<Balancer> {
		const prefix = join(folder, 'nginx');
		// Its buffers hold webhook calls, signatures included: for this user only (privateFiles.ts).
		makePrivateFolder(join(prefix, 'temp'));
		const serverBlockFile = join(prefix, 'n8n.conf');
		writeFileSync(
			serverBlockFile,
			nginxServerBlock(readFileSync(NGINX_SCALED_CONF, 'utf8'), ports),
		);
		const configFile = join(prefix, 'nginx.conf');
		writeFileSync(configFile, mainConfig(prefix, serverBlockFile));
		const child = withPrivateUmask(() =>
			spawn(
				nginxBinary(),
				['-p', prefix, '-e', join(prefix, 'nginx-error.log'), '-c', configFile],
				{
					stdio: 'ignore',
					detached: true,
				},
			),
		);
		const balancer = new Balancer(
			`http://127.0.0.1:${ports.listen}`,
			join(prefix, 'nginx-access.log'),
			child,
		);
		balancer.recorded = recordProcessGroup('nginx', child.pid);
		try {
			await waitForPort(ports.listen, 15_000, 'nginx', () => !balancer.exited);
		} catch (error) {
			await balancer.stop();
			throw new Error(`${(error as Error).message}; see ${join(prefix, 'nginx-error.log')}`);
		}
		return balancer;
	}

	/** Every access log line so far. */
	accessLines(): string[] {
		try {
			return readFileSync(this.accessLog, 'utf8').split('\n').filter(Boolean);
		} catch {
			return [];
		}
	}

	async stop(): Promise<void> {
		const pid = this.child.pid;
		if (this.exited || pid === undefined) return;
		const gone = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
		// SIGTERM is nginx's fast shutdown; the group takes its worker along.
		const group = (signal: NodeJS.Signals) => {
			try {
				process.kill(-pid, signal);
			} catch {
				// Gone.
			}
		};
		group('SIGTERM');
		const timer = setTimeout(() => group('SIGKILL'), 10_000);
		await gone.finally(() => clearTimeout(timer));
		this.recorded?.release();
	}
}

/** One access log line, read back. */
export interface BalancedCall {
	method: string;
	path: string;
	status: number;
	/** host:port of the process nginx passed it to ('-' when none). */
	upstream: string;
	requestId: string;
}

export function parseAccessLine(line: string): BalancedCall | undefined {
	const match = /^\S+ (\S+) (\S+) (\d+) upstream=(.+) request_id=(\S*)$/.exec(line);
	if (!match) return undefined;
	const [, method, path, status, upstream, requestId] = match;
	return { method, path, status: Number(status), upstream, requestId };
}
