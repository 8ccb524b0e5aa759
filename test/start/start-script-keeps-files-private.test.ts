/*
 * With a real n8n: what `npm start` and n8n write in .n8n-local is for the person running it only.
 * n8n's settings file (the encryption key of every stored credential), its database with `-wal` and
 * `-shm` (the owner's API key), the logs, the state and pid files are 0600 and every folder 0700
 * while n8n runs; an earlier run's wide settings file and folder are narrowed. The same without n8n
 * is in test/unit/project/local-files-private.test.ts. `npm run test:start`, not part of `npm test`.
 */
import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

import {
	freeStartPorts,
	privateLocalFolder,
	startEnvironment,
	StartRun,
} from '../helpers/startProcess';

jest.setTimeout(15 * 60_000);

/** Every path under root that others than the owner may reach in any way (links aside). */
function openToOthers(root: string): string[] {
	const stats = lstatSync(root);
	if (stats.isSymbolicLink()) return [];
	const own = (stats.mode & 0o077) === 0 ? [] : [`${root} ${(stats.mode & 0o777).toString(8)}`];
	if (!stats.isDirectory()) return own;
	return [...own, ...readdirSync(root).flatMap((name) => openToOthers(join(root, name)))];
}

it('while n8n runs, nothing in .n8n-local is open to other users; an earlier wide folder is narrowed', async () => {
	const local = privateLocalFolder();
	chmodSync(local, 0o755);
	mkdirSync(join(local, 'n8n'), { mode: 0o755 });
	chmodSync(join(local, 'n8n'), 0o755);
	const ports = await freeStartPorts();
	const run = new StartRun(startEnvironment(ports, local, { CHAT_MESSAGING_SKIP_BUILD: '1' }));
	try {
		await run.waitFor(/n8n with Chat Messaging is running/, 10 * 60_000);
		const n8nFolder = join(local, 'n8n', '.n8n');
		for (const file of ['config', 'database.sqlite']) {
			expect([file, lstatSync(join(n8nFolder, file)).mode & 0o777]).toEqual([file, 0o600]);
		}
		for (const file of ['start-state.json', 'start.pid', 'n8n.pid', 'n8n/n8n.log'])
			expect([file, lstatSync(join(local, file)).mode & 0o777]).toEqual([file, 0o600]);
		expect(existsSync(join(n8nFolder, 'database.sqlite-wal'))).toBe(true);
		expect(lstatSync(local).mode & 0o777).toBe(0o700);
		expect(openToOthers(local)).toEqual([]);
		expect(run.output).not.toMatch(/settings file .* too wide/i);
	} finally {
		run.ctrlC();
		await run.end(60_000).catch(() => undefined);
		run.killEverything();
		rmSync(local, { recursive: true, force: true });
	}
});
