import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/*
 * A shell script that opens a fixed name in a shared temp folder (`exec 9>/tmp/x.lock`, `> /tmp/x`)
 * follows a link another local user planted there first; run as root, as the install scripts are,
 * it then empties or writes a file of theirs choosing. Locks and state belong in the user's own
 * cache folder; a temp file, where one is needed, comes from mktemp.
 */

const ROOT = join(__dirname, '..', '..', '..');

function shellScripts(folder: string): string[] {
	return readdirSync(folder).flatMap((name) => {
		const path = join(folder, name);
		if (statSync(path).isDirectory()) return shellScripts(path);
		return name.endsWith('.sh') ? [path] : [];
	});
}

/** A redirection to a path under /tmp or $TMPDIR with no mktemp-made part in it. */
const FIXED_TEMP_REDIRECT = /[0-9]?>>?\s*"?(?:\$\{TMPDIR[^}]*\}|\$TMPDIR|\/tmp)\/[\w.-]+/;

test('no shell script of the project writes to a fixed name in a shared temp folder', () => {
	const scripts = [...shellScripts(join(ROOT, 'scripts')), ...shellScripts(join(ROOT, '.ci'))];
	expect(scripts.length).toBeGreaterThan(3);
	const offending = scripts.flatMap((path) =>
		readFileSync(path, 'utf8')
			.split('\n')
			.map((line, index) => ({ line: line.trim(), at: `${relative(ROOT, path)}:${index + 1}` }))
			.filter(({ line }) => !line.startsWith('#') && FIXED_TEMP_REDIRECT.test(line))
			.map(({ at, line }) => `${at}: ${line}`),
	);
	expect(offending).toEqual([]);
});
