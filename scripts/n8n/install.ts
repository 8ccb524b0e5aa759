import { existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

import { endStarted, runningProcesses, spawnStarted } from './childProcesses';

/** The project root: scripts/n8n/ is two levels down. */
export const PROJECT_ROOT = resolve(__dirname, '..', '..');

/** Where `install-n8n.sh` put a pinned n8n and the Node.js that runs it. */
export interface N8nInstallation {
	n8nHome: string;
	nodeBinDir: string;
	/** The `n8n` command; run it with `nodeBinDir` first on PATH. */
	n8nBin: string;
	/** PATH with Node 24 first, so `npm`, `n8n` and every child they start use it. */
	path: string;
}

interface RunOptions {
	cwd?: string;
	env?: NodeJS.ProcessEnv;
	/** Stream the command's stderr to ours: the first n8n install takes minutes and must show progress. */
	showProgress?: boolean;
	/** What a person would call it, in messages about waiting for it: "npm pack". */
	name?: string;
	/** How long it may take before it is ended and the run fails, saying so (default 10 minutes). */
	timeoutMs?: number;
	/** Written to its stdin, which then ends: what must not be in its argv, which `ps` shows all users. */
	input?: string;
}

/**
 * A command that failed: what it was and how it ended (`summary`), then the tail of what it said.
 * `shown`: that tail was on the console already, as it ran (`showProgress`).
 */
export class CommandFailed extends Error {
	constructor(
		readonly summary: string,
		readonly tail: string,
		readonly shown: boolean,
	) {
		super(`${summary}\n${tail}`);
	}
}

/** Runs a command to completion and returns its stdout; fails with its stderr's tail. */
export function run(command: string, args: string[], options: RunOptions = {}): Promise<string> {
	const name = options.name ?? `${command} ${args.join(' ')}`;
	const timeoutMs = options.timeoutMs ?? 10 * 60_000;
	return new Promise((resolvePromise, reject) => {
		const child = spawnStarted(name, command, args, {
			cwd: options.cwd ?? PROJECT_ROOT,
			env: options.env ?? process.env,
			stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
		});
		// A command that ends without reading all of it must not fail this process with EPIPE.
		child.stdin?.on('error', () => undefined);
		child.stdin?.end(options.input);
		let stdout = '';
		let stderr = '';
		let timedOut = false;
		// Bounded: a hung npm must not hold the whole start without a word.
		const timer = setTimeout(() => {
			timedOut = true;
			const started = runningProcesses().find((p) => p.child === child);
			if (started) void endStarted(started, 5_000, () => undefined);
		}, timeoutMs);
		timer.unref();
		child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
		// Shown as it comes, and kept too: the failure carries its own reason (the e2e setup records it).
		child.stderr?.on('data', (chunk: Buffer) => {
			// Only the tail is ever reported: a long install's output is not kept whole.
			stderr = (stderr + chunk.toString()).slice(-200_000);
			if (options.showProgress) process.stderr.write(chunk);
		});
		child.on('error', (error) => {
			clearTimeout(timer);
			reject(error);
		});
		child.on('close', (code, signal) => {
			clearTimeout(timer);
			if (code === 0) return resolvePromise(stdout);
			const tail = (stderr || stdout).split('\n').slice(-30).join('\n');
			const how = timedOut
				? `did not finish within ${Math.round(timeoutMs / 60_000)} minutes and was ended`
				: signal
					? `was ended by ${signal}`
					: `exited with ${code}`;
			reject(new CommandFailed(`${name} ${how}`, tail, options.showProgress === true && !!stderr));
		});
	});
}

/**
 * Installs n8n and Node 24 the first time (minutes, progress on stderr) and finds them every time
 * after (instant). All the knowledge of how lives in install-n8n.sh, so CI and people share it.
 * With `logFile`, npm's own output goes there and stderr gets one progress line per step.
 */
export async function ensureN8nInstalled(
	options: { logFile?: string } = {},
): Promise<N8nInstallation> {
	const env = options.logFile
		? { ...process.env, CHAT_MESSAGING_INSTALL_LOG: options.logFile }
		: process.env;
	const out = await run('bash', [join(PROJECT_ROOT, 'scripts', 'install-n8n.sh')], {
		showProgress: true,
		env,
		name: 'the n8n install',
		// A cold install takes about 6 minutes; a loaded machine or a slow registry, several times that.
		timeoutMs: 45 * 60_000,
	});
	const value = (key: string) => {
		const line = out.split('\n').find((l) => l.startsWith(`${key}=`));
		if (!line) throw new Error(`install-n8n.sh printed no ${key}:\n${out}`);
		return line.slice(key.length + 1).trim();
	};
	const n8nHome = value('N8N_HOME');
	const nodeBinDir = value('NODE_BIN_DIR');
	return {
		n8nHome,
		nodeBinDir,
		n8nBin: join(n8nHome, 'node_modules', '.bin', 'n8n'),
		path: `${nodeBinDir}:${process.env.PATH ?? ''}`,
	};
}

/**
 * The environment for programs run under Node 24 as a user would run them: Node 24 first on PATH
 * and none of the `npm_*` settings that `npm start` / `npm test` pass down (this project's
 * ignore-scripts, its package name) or jest's, which belong to this project, not to the user's n8n.
 */
export function userEnvironment(
	installation: N8nInstallation,
	extra: NodeJS.ProcessEnv = {},
): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {};
	for (const [key, value] of Object.entries(process.env)) {
		// jest sets NODE_ENV=test, under which n8n refuses to load nodes.
		if (/^(npm_|jest_)/i.test(key) || key === 'NODE_ENV') continue;
		env[key] = value;
	}
	return { ...env, PATH: installation.path, ...extra };
}

/**
 * `npm run dev`, as n8n's own `n8n-node dev` does: this clone itself, linked where n8n looks for
 * installed community packages (`<user folder>/.n8n/nodes/node_modules`), so n8n loads dist/ as
 * the compiler leaves it and, with N8N_DEV_RELOAD, reloads it on change. It replaces an installed
 * copy, and installPackageTheUsersWay replaces the link again (`npm start`). The package's
 * `require`s resolve in this clone's node_modules, not n8n's, unlike a user's install.
 */
export function linkPackageIntoN8n(userFolder: string): string {
	const installed = join(userFolder, '.n8n', 'nodes', 'node_modules', 'n8n-nodes-chat-messaging');
	mkdirSync(dirname(installed), { recursive: true });
	rmSync(installed, { recursive: true, force: true });
	symlinkSync(PROJECT_ROOT, installed, 'dir');
	return installed;
}

/** Packs the built package exactly as `npm publish` would; dist/ must be built already. */
export async function packPackage(destination: string): Promise<string> {
	if (!existsSync(join(PROJECT_ROOT, 'dist'))) {
		throw new Error('dist/ is missing: run `npm run build` first');
	}
	mkdirSync(destination, { recursive: true });
	const out = await run('npm', ['pack', '--json', '--pack-destination', destination], {
		name: 'npm pack',
		timeoutMs: 3 * 60_000,
	});
	const [packed] = JSON.parse(out) as Array<{ filename: string }>;
	return join(destination, packed.filename);
}

/**
 * npm's arguments for installing the tarball as the README's `--omit=peer --omit=dev` does, with
 * nothing asked of the registry: the tarball holds the whole package (it has no dependencies of
 * its own), and its one peer dependency, n8n-workflow, is n8n's. `--omit=peer` alone still looks
 * n8n-workflow and its dependencies up to build the tree it then leaves out; offline each lookup is
 * retried for about 70 s. `--legacy-peer-deps` leaves peer dependencies out of the tree, so the
 * install is the same, online or not.
 */
function usersInstallArguments(tarball: string): string[] {
	return [
		'install',
		tarball,
		'--omit=peer',
		'--omit=dev',
		'--legacy-peer-deps',
		'--no-audit',
		'--no-fund',
		'--update-notifier=false',
		'--loglevel=error',
	];
}

/**
 * Installs the tarball the way the README tells users to: into `<user folder>/.n8n/nodes`, with
 * n8n's own packages (peer dependencies) left to n8n. Run under Node 24, like n8n itself.
 */
export async function installPackageTheUsersWay(
	installation: N8nInstallation,
	userFolder: string,
	tarball: string,
): Promise<string> {
	const nodesFolder = join(userFolder, '.n8n', 'nodes');
	mkdirSync(nodesFolder, { recursive: true });
	const manifest = join(nodesFolder, 'package.json');
	if (!existsSync(manifest)) {
		writeFileSync(manifest, JSON.stringify({ name: 'installed-nodes', private: true }, null, 2));
	}
	// Same name and version as last time, other content: npm would keep the old copy.
	rmSync(join(nodesFolder, 'node_modules', 'n8n-nodes-chat-messaging'), {
		recursive: true,
		force: true,
	});
	await run('npm', usersInstallArguments(tarball), {
		cwd: nodesFolder,
		env: userEnvironment(installation),
		name: "npm install of the package into n8n's nodes folder",
		timeoutMs: 5 * 60_000,
	});
	return join(nodesFolder, 'node_modules', 'n8n-nodes-chat-messaging');
}
