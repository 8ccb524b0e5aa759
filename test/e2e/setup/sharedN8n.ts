import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { bootN8nWithPackage } from '../../../scripts/n8n/boot';
import { PROJECT_ROOT } from '../../../scripts/n8n/install';
import { RealN8n, freePort, type Owner, type StartOptions } from '../../../scripts/n8n/real-n8n';

/*
 * One real n8n per `npm test` run: jest's global setup for the e2e project starts it and writes
 * where it is to a file; every test file attaches to it. A file run on its own (no global setup)
 * starts a private n8n instead and stops it when done, so every file also works alone.
 */

// npm run test:compat gives each n8n version its own folders, so a run of `npm test` beside it
// neither reads nor ends its instance.
export const E2E_FOLDER =
	process.env.CHAT_MESSAGING_E2E_FOLDER ?? join(PROJECT_ROOT, 'test-output', 'e2e');
const STATE_FILE = join(E2E_FOLDER, 'n8n-instance.json');
/** Why the shared n8n did not start, while a run goes on without it. */
const FAILURE_FILE = join(E2E_FOLDER, 'n8n-did-not-start.txt');
/*
 * n8n's user folders live outside the clone: Node resolves a package's imports by walking up its
 * folders, and inside the clone that walk reaches this project's node_modules (zod, n8n-workflow),
 * which would hide a dependency that a user's install lacks.
 */
/*
 * One folder per clone: two clones' e2e runs at once (a developer's worktrees) must not share an
 * n8n database, or each wipes the other's owner and API key mid-run.
 */
const USER_FOLDERS =
	process.env.CHAT_MESSAGING_E2E_USER_FOLDERS ??
	join(
		tmpdir(),
		`n8n-nodes-chat-messaging-e2e-${createHash('sha256').update(PROJECT_ROOT).digest('hex').slice(0, 8)}`,
	);

export const E2E_OWNER: Owner = {
	email: 'owner@example.com',
	password: 'E2e-owner-password-1',
	firstName: 'Test',
	lastName: 'Owner',
};

interface SharedState {
	pid: number;
	options: StartOptions;
	session: { cookie: string; apiKey: string };
}

function isRunning(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
}

async function bootFresh(userFolder: string): Promise<RealN8n> {
	// A fresh database each run: no state leaks from one run's executions into the next.
	rmSync(userFolder, { recursive: true, force: true });
	mkdirSync(userFolder, { recursive: true });
	mkdirSync(E2E_FOLDER, { recursive: true });
	return await bootN8nWithPackage({
		userFolder,
		port: await freePort(),
		brokerPort: await freePort(),
		owner: E2E_OWNER,
		say: (line) => process.stderr.write(`[e2e n8n] ${line}\n`),
	});
}

/** For jest's global setup: ends a leftover instance of a crashed run, then starts the shared one. */
export async function startSharedN8n(): Promise<RealN8n> {
	rmSync(FAILURE_FILE, { force: true });
	if (existsSync(STATE_FILE)) {
		const stale = JSON.parse(readFileSync(STATE_FILE, 'utf8')) as SharedState;
		if (isRunning(stale.pid)) {
			try {
				process.kill(-stale.pid, 'SIGKILL');
			} catch {
				// Gone meanwhile.
			}
		}
		rmSync(STATE_FILE, { force: true });
	}
	const n8n = await bootFresh(join(USER_FOLDERS, 'shared'));
	const state: SharedState = { pid: n8n.pid as number, options: n8n.options, session: n8n.session };
	writeFileSync(STATE_FILE, JSON.stringify(state, null, 2));
	return n8n;
}

/**
 * For jest's global setup, when the shared n8n did not start: a setup that throws ends the whole
 * run (every project's, unit tests included) with no result and no JSON report. Kept instead, the
 * reason fails each end-to-end file (useN8n), and every other result is reported.
 */
export function recordSharedN8nFailure(error: unknown): void {
	mkdirSync(E2E_FOLDER, { recursive: true });
	writeFileSync(FAILURE_FILE, error instanceof Error ? error.message : String(error));
}

export async function stopSharedN8n(n8n: RealN8n | undefined): Promise<void> {
	rmSync(STATE_FILE, { force: true });
	rmSync(FAILURE_FILE, { force: true });
	await n8n?.stop();
}

/** In a test file's beforeAll: the shared n8n when there is one, a private one otherwise. */
export async function useN8n(): Promise<{ n8n: RealN8n; release: () => Promise<void> }> {
	if (existsSync(FAILURE_FILE)) {
		throw new Error(
			`the real n8n for the end-to-end tests did not start, so this file could not run:\n${readFileSync(FAILURE_FILE, 'utf8')}`,
		);
	}
	if (existsSync(STATE_FILE)) {
		const state = JSON.parse(readFileSync(STATE_FILE, 'utf8')) as SharedState;
		if (isRunning(state.pid)) {
			return { n8n: RealN8n.attach(state.options, state.session), release: async () => undefined };
		}
	}
	const folder = join(USER_FOLDERS, `private-${process.pid}`);
	const n8n = await bootFresh(folder);
	return { n8n, release: () => n8n.stop() };
}

/** Long enough for a cold machine to boot n8n in a file run on its own. */
export const BOOT_TIMEOUT_MS = 240_000;
