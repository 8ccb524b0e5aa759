import { randomBytes } from 'node:crypto';
import {
	chmodSync,
	closeSync,
	copyFileSync,
	fchmodSync,
	lstatSync,
	mkdirSync,
	openSync,
	readdirSync,
	renameSync,
	rmSync,
	statSync,
	writeFileSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/*
 * What the local tools write is for the person who runs them only: n8n's encryption key (its
 * `.n8n/config`), the owner's API key (in `database.sqlite` and the state files), the stand-in's
 * key and the webhook secret, and logs that quote them. On a machine other people also log in to,
 * a folder of mode 0755 or a file of 0644 hands all of that to them. So every folder the scripts
 * make is 0700, every file 0600, and what an earlier run left wider is narrowed on the next start
 * (a mode given to mkdir or open only applies to what they create).
 */

export const PRIVATE_FOLDER_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Creates the folder (and any missing parent) 0700; an existing one is narrowed to 0700. Refused
 * (thrown, nothing changed) when it is another user's: see refuseAnotherUsersFolder.
 */
export function makePrivateFolder(path: string): string {
	mkdirSync(path, { recursive: true, mode: PRIVATE_FOLDER_MODE });
	refuseAnotherUsersFolder(path);
	chmodSync(path, PRIVATE_FOLDER_MODE);
	return path;
}

/**
 * A folder's mode keeps nobody out who owns it, or owns a folder above it: they can rename what
 * is in it and put their own in its place. In a shared folder (world-writable and sticky, as /tmp),
 * any user may make a name first, as a folder or a symbolic link to one of theirs; and root may
 * chmod a folder it does not own. So the folder, and every folder or link between it and the
 * nearest shared folder above it, must belong to this user. Elsewhere (a home, a clone) the
 * folder itself must.
 */
function refuseAnotherUsersFolder(path: string): void {
	const me = process.getuid?.();
	if (me === undefined) return; // Windows: no owners to compare.
	const chain = [resolve(path)];
	while (dirname(chain[chain.length - 1]) !== chain[chain.length - 1])
		chain.push(dirname(chain[chain.length - 1]));
	let below = 1;
	for (let index = 1; index < chain.length; index++) {
		const mode = statOrUndefined(chain[index])?.mode ?? 0;
		if ((mode & 0o1002) === 0o1002) {
			below = index;
			break;
		}
	}
	for (const folder of chain.slice(0, below)) {
		const link = lstatSync(folder, { throwIfNoEntry: false });
		if (link === undefined) continue;
		const owner: number =
			link.isSymbolicLink() && link.uid === me ? statSync(folder).uid : link.uid;
		if (owner !== me)
			throw new Error(
				`${folder} belongs to another user (uid ${owner}), not to this one (uid ${me}): the local ` +
					`tools keep secrets there, so they stop. Remove it, or run them where only you can write.`,
			);
	}
}

function statOrUndefined(path: string) {
	try {
		return statSync(path);
	} catch {
		return undefined;
	}
}

/**
 * Takes the group's and others' bits off everything under `root` (root included), whatever an
 * earlier run or an older version of these scripts left. Symbolic links are neither changed nor
 * followed: `npm run dev` links the clone itself into n8n's folder, and the clone is not ours to
 * narrow.
 */
export function narrowPrivateTree(root: string): void {
	let stats;
	try {
		stats = lstatSync(root);
	} catch {
		return; // Not there (yet): nothing to narrow.
	}
	if (stats.isSymbolicLink()) return;
	if ((stats.mode & 0o077) !== 0) {
		if (stats.isFile()) replaceWithPrivateCopy(root, stats.mode & 0o700);
		else chmodSync(root, stats.mode & 0o7700);
	}
	if (!stats.isDirectory()) return;
	for (const name of readdirSync(root)) narrowPrivateTree(join(root, name));
}

/**
 * A file that was readable by others may be held open by one of them since: a chmod leaves that
 * descriptor reading whatever is written into the file next (log lines, n8n's database). So its
 * content goes to a new file, private before its first byte, which takes its name; the old file
 * keeps only what it already held. Its folder is private by now (narrowPrivateTree narrows a folder
 * before what is in it), so nobody else can open the new file while it is written.
 */
function replaceWithPrivateCopy(path: string, ownerMode: number): void {
	const fresh = `${path}.${randomBytes(6).toString('hex')}.new`;
	closeSync(openSync(fresh, 'wx', PRIVATE_FILE_MODE));
	try {
		copyFileSync(path, fresh);
		chmodSync(fresh, ownerMode);
		renameSync(fresh, path);
	} catch (error) {
		rmSync(fresh, { force: true });
		throw error;
	}
}

/**
 * Writes a file only its owner can read; its folder made private too. The content goes to a new
 * file, 0600 before its first byte, which then takes the name: an existing file may have been wider
 * once and held open since by someone else, who would read whatever is written into it.
 */
export function writePrivateFile(path: string, content: string): void {
	makePrivateFolder(dirname(path));
	const fresh = `${path}.${randomBytes(6).toString('hex')}.new`;
	const descriptor = openSync(fresh, 'wx', PRIVATE_FILE_MODE);
	try {
		fchmodSync(descriptor, PRIVATE_FILE_MODE);
		writeFileSync(descriptor, content);
	} catch (error) {
		closeSync(descriptor);
		rmSync(fresh, { force: true });
		throw error;
	}
	closeSync(descriptor);
	renameSync(fresh, path);
}

/** Opens a log only its owner can read ('a' appends, 'w' starts it again); returns the descriptor. */
export function openPrivateLog(path: string, flags: 'a' | 'w'): number {
	const descriptor = openSync(path, flags, PRIVATE_FILE_MODE);
	try {
		fchmodSync(descriptor, PRIVATE_FILE_MODE);
	} catch (error) {
		closeSync(descriptor);
		throw error;
	}
	return descriptor;
}

/**
 * Runs `start` (a spawn) with umask 077, so the process it starts, and whatever that one starts,
 * creates every file 0600 and folder 0700: n8n writes its database, its `-wal` and `-shm` files and
 * its event logs with the modes the umask leaves. A child takes the umask at spawn, so it is set
 * back at once; this process's own files (the build's dist/, say) keep the person's umask.
 */
export function withPrivateUmask<T>(start: () => T): T {
	const before = process.umask(0o077);
	try {
		return start();
	} finally {
		process.umask(before);
	}
}

/** Each folder given (undefined ones skipped) made or kept 0700, with everything in it narrowed. */
export function keepLocalFilesPrivate(folders: Array<string | undefined>): void {
	for (const folder of folders) {
		if (folder === undefined) continue;
		makePrivateFolder(folder);
		narrowPrivateTree(folder);
	}
}
