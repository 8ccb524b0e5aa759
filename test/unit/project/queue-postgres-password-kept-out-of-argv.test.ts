/*
 * The queue scripts give n8n's Postgres role its password with `psql`. A command's argv is shown by
 * `ps` (and /proc/<pid>/cmdline) to every user of the machine, and a failed command is reported by
 * its argv: so the SQL that carries the password goes to psql on its stdin, never as `-c`, and a
 * failure names psql without it. Postgres's programs are stand-ins here (scripts in a folder given
 * as Postgres's bin folder) that note their argv and stdin; they run as the postgres user, as the
 * real ones do. The real cluster is `npm run test:queue`'s.
 */
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import fc from 'fast-check';

jest.setTimeout(60_000);

let root: string;
beforeAll(() => {
	root = mkdtempSync(join(tmpdir(), 'queue-postgres-argv-'));
	// The postgres user runs the stand-in programs and writes their notes here.
	chmodSync(root, 0o777);
	mkdirSync(join(root, 'cache', 'queue'), { recursive: true });
	chmodSync(join(root, 'cache', 'queue'), 0o777);
	for (const tool of ['initdb', 'pg_ctl']) writeTool(tool, 'exit 0');
	writeTool('initdb', 'mkdir -p "$2" && touch "$2/PG_VERSION"');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

function writeTool(name: string, body: string): void {
	const file = join(root, name);
	writeFileSync(file, `#!/bin/sh\n${body}\n`);
	chmodSync(file, 0o755);
}

/** A psql that notes every argv and stdin it gets, and fails when told to. */
function fakePsql(fails: boolean): void {
	writeTool(
		'psql',
		[
			`printf '%s\\n' "$*" >> ${root}/argv`,
			`cat >> ${root}/stdin 2>/dev/null`,
			fails ? 'echo "psql: error: could not change the role" >&2; exit 1' : 'exit 0',
		].join('\n'),
	);
	rmSync(join(root, 'argv'), { force: true });
	rmSync(join(root, 'stdin'), { force: true });
}

async function cluster() {
	process.env.CHAT_MESSAGING_CACHE = join(root, 'cache');
	type Services = typeof import('../../../scripts/queue/services');
	// Loaded afresh, so it takes the cache folder above (read once, when the module loads).
	let services: Services | undefined;
	jest.isolateModules(() => {
		services = jest.requireActual<Services>('../../../scripts/queue/services');
	});
	return services!.PostgresCluster.start({ name: 'argv', port: 1, postgresBin: root });
}

const passwords = fc.stringMatching(/^[A-Za-z0-9_-]{12,40}$/);

it("the role's password is in no argv psql is given, only in what it reads on stdin", async () => {
	const postgres = await cluster();
	try {
		await fc.assert(
			fc.asyncProperty(passwords, async (password) => {
				fakePsql(false);
				await postgres.ensureDatabase({ database: 'n8n', user: 'n8n', password });
				expect(readFileSync(join(root, 'argv'), 'utf8')).not.toContain(password);
				expect(readFileSync(join(root, 'stdin'), 'utf8')).toContain(`PASSWORD '${password}'`);
			}),
			{ numRuns: 3 },
		);
	} finally {
		await postgres.stop();
	}
});

it("a psql that fails is reported without the role's password", async () => {
	const postgres = await cluster();
	try {
		fakePsql(true);
		const password = 'not-to-be-shown-Secret9';
		const failure = await postgres.ensureDatabase({ database: 'n8n', user: 'n8n', password }).then(
			() => undefined,
			(error: Error) => error,
		);
		expect(failure?.message).toContain('could not change the role');
		expect(failure?.message).not.toContain(password);
	} finally {
		await postgres.stop();
	}
});
