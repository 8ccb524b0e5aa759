import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { EXAMPLE_FILES, EXAMPLES_FOLDER, type ExampleName } from './examples';

/*
 * `npm start` imports examples/ as the files are on disk. A file edited there (on purpose, or by
 * a stray save) would otherwise reach n8n without a word, and the person would debug a workflow
 * they think is the shipped one. So the summary names each example file that differs from the
 * committed one (git), or from the file `npm start` imported last time, and says what was done.
 */

export type ExampleFileHashes = Partial<Record<ExampleName, string>>;

export interface ExampleFileChange {
	name: ExampleName;
	/** The path a person types: examples/<file>. */
	path: string;
	/** Differs from the committed file, as git sees it. */
	sinceCommit: boolean;
	/** Differs from the file imported by the previous `npm start`. */
	sinceLastImport: boolean;
	/** Not imported: the person's edits to it in n8n are kept (examples.ts, keepEditsSince). */
	kept: boolean;
}

/** The hash of each example file's bytes as they are now. */
export function exampleFileHashes(folder: string = EXAMPLES_FOLDER): ExampleFileHashes {
	const hashes: ExampleFileHashes = {};
	for (const [name, file] of Object.entries(EXAMPLE_FILES) as Array<[ExampleName, string]>) {
		hashes[name] = createHash('sha256')
			.update(readFileSync(join(folder, file)))
			.digest('hex');
	}
	return hashes;
}

/**
 * The example files (names within the folder) that differ from the last commit, staged or not;
 * undefined when git cannot say (a copy that is not a clone, no git installed).
 */
export function examplesChangedSinceCommit(
	folder: string = EXAMPLES_FOLDER,
): Set<string> | undefined {
	try {
		const out = execFileSync(
			'git',
			['-C', folder, 'diff', '--name-only', '--relative', '-z', 'HEAD', '--', '.'],
			{ encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
		);
		return new Set(out.split('\0').filter((file) => file !== ''));
	} catch {
		return undefined;
	}
}

export function exampleFileChanges(options: {
	now: ExampleFileHashes;
	/** The hashes recorded when the files were imported last time; absent on a first start. */
	lastImported?: ExampleFileHashes;
	changedSinceCommit?: Set<string>;
	kept: readonly ExampleName[];
}): ExampleFileChange[] {
	const changes: ExampleFileChange[] = [];
	for (const [name, file] of Object.entries(EXAMPLE_FILES) as Array<[ExampleName, string]>) {
		const before = options.lastImported?.[name];
		const sinceLastImport = before !== undefined && before !== options.now[name];
		const sinceCommit = options.changedSinceCommit?.has(file) ?? false;
		if (!sinceLastImport && !sinceCommit) continue;
		changes.push({
			name,
			path: `examples/${file}`,
			sinceCommit,
			sinceLastImport,
			kept: options.kept.includes(name),
		});
	}
	return changes;
}

/**
 * What to record as imported: the files imported now, and for an example not imported (kept) the
 * record it had, so its file still reads as changed until it is imported.
 */
export function importedFileHashes(
	now: ExampleFileHashes,
	lastImported: ExampleFileHashes | undefined,
	kept: readonly ExampleName[],
): ExampleFileHashes {
	const recorded: ExampleFileHashes = {};
	for (const name of Object.keys(EXAMPLE_FILES) as ExampleName[]) {
		const hash = kept.includes(name) ? lastImported?.[name] : now[name];
		if (hash !== undefined) recorded[name] = hash;
	}
	return recorded;
}

/** The summary's lines for changed example files; none when every file is as committed and imported. */
export function exampleFileChangeLines(changes: readonly ExampleFileChange[]): string[] {
	return changes.flatMap((change) => {
		const from = [
			...(change.sinceCommit ? ['the committed file (git diff shows how)'] : []),
			...(change.sinceLastImport ? ['the file npm start imported last time'] : []),
		].join(' and from ');
		const done = change.kept
			? 'not imported, as your edits to the workflow in n8n are kept'
			: 'imported as it is now';
		return [
			`  Changed example:   ${change.path} differs from`,
			`                     ${from}: ${done}.`,
		];
	});
}

/**
 * For `npm start`, after it imported the examples: the files that changed, for the summary, and
 * what to record as imported for next time.
 */
export function noteExampleFileChanges(
	lastImported: ExampleFileHashes | undefined,
	kept: readonly ExampleName[],
): { changes: ExampleFileChange[]; imported: ExampleFileHashes } {
	const now = exampleFileHashes();
	return {
		changes: exampleFileChanges({
			now,
			lastImported,
			changedSinceCommit: examplesChangedSinceCommit(),
			kept,
		}),
		imported: importedFileHashes(now, lastImported, kept),
	};
}
