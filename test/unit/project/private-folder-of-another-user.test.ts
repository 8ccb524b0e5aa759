/*
 * A folder the local tools keep secrets in must be this user's own. Some have fixed names in the
 * shared temp folder (the bench's /tmp/n8n-nodes-chat-messaging-bench), where another user can make
 * the name first, as a folder or a symbolic link to one of theirs. Whoever owns a folder can rename
 * what is in it and put their own in its place (a tarball about to be installed, say) whatever its
 * mode says, and root may chmod a folder without owning it. So a folder, or a symbolic link on the
 * way to it, that belongs to another user is refused, saying whose it is, and left as it was
 * (scripts/n8n/privateFiles.ts). The other user here is `nobody`, made so with runuser (root) or
 * `sudo -n` as the queue scripts do.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { makePrivateFolder, writePrivateFile } from '../../../scripts/n8n/privateFiles';

let shared: string;
beforeEach(() => {
	// A shared temp folder of its own: world-writable and sticky, as /tmp is.
	shared = mkdtempSync(join(tmpdir(), 'shared-tmp-'));
	spawnSync('chmod', ['1777', shared]);
});
afterEach(() => rmSync(shared, { recursive: true, force: true }));

/** Runs a command as `nobody`, another user of this machine. */
function asAnotherUser(command: string[]): void {
	const root = process.getuid?.() === 0;
	const [program, ...args] = root
		? ['runuser', '-u', 'nobody', '--', ...command]
		: ['sudo', '-n', '-u', 'nobody', ...command];
	const result = spawnSync(program, args, { encoding: 'utf8' });
	if (result.status !== 0)
		throw new Error(`could not act as another user (${program}): ${result.stderr}`);
}

const modeOf = (path: string) => lstatSync(path).mode & 0o7777;

it('refuses a folder another user made first, leaving its mode, and writes no secret there', () => {
	const folder = join(shared, 'n8n-nodes-chat-messaging-bench');
	asAnotherUser(['mkdir', '-m', '0777', folder]);
	expect(() => makePrivateFolder(folder)).toThrow(/belongs to another user/);
	expect(modeOf(folder)).toBe(0o777);
	expect(() => writePrivateFile(join(folder, 'n8n.pid'), '{"pid":1}')).toThrow(
		/belongs to another user/,
	);
	expect(existsSync(join(folder, 'n8n.pid'))).toBe(false);
});

it('refuses a folder inside one another user made first (they can swap it for theirs)', () => {
	const parent = join(shared, 'n8n-nodes-chat-messaging-bench');
	asAnotherUser(['mkdir', '-m', '0777', parent]);
	expect(() => makePrivateFolder(join(parent, 'n8n'))).toThrow(/belongs to another user/);
});

it("refuses another user's symbolic link to a folder of theirs", () => {
	const theirs = join(shared, 'theirs');
	const link = join(shared, 'n8n-nodes-chat-messaging-queue-bench-x');
	asAnotherUser(['mkdir', '-m', '0777', theirs]);
	asAnotherUser(['ln', '-s', theirs, link]);
	expect(() => makePrivateFolder(link)).toThrow(/belongs to another user/);
	expect(modeOf(theirs)).toBe(0o777);
});

it('keeps working for this user: a new folder, an existing one, and its own link to its own folder', () => {
	const mine = join(shared, 'mine', 'n8n');
	makePrivateFolder(mine);
	makePrivateFolder(mine);
	expect(modeOf(mine)).toBe(0o700);
	const link = join(shared, 'link-to-mine');
	symlinkSync(mine, link);
	makePrivateFolder(link);
	writePrivateFile(join(link, 'state.json'), '{}');
	expect(modeOf(join(mine, 'state.json'))).toBe(0o600);
});
