import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import {
	exampleFileChanges,
	exampleFileHashes,
	examplesChangedSinceCommit,
	importedFileHashes,
} from '../../../scripts/n8n/exampleFileChanges';
import { EXAMPLES_FOLDER } from '../../../scripts/n8n/examples';
import { startSummary, type StartInfo } from '../../../scripts/n8n/startSummary';

/*
 * `npm start` imports examples/ as the files are on disk: an edited file must not reach n8n without
 * a word. Here a clone's examples/ is a git repository of its own in a temporary folder, edited as
 * a person would, and the summary printed at the end says which file differs from what.
 */

let clone: string;
let examples: string;
const FORM = 'form-to-send-template.json';

const git = (...args: string[]) =>
	execFileSync(
		'git',
		['-C', clone, '-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args],
		{ stdio: 'ignore' },
	);

beforeEach(() => {
	clone = mkdtempSync(join(tmpdir(), 'example-changes-'));
	examples = join(clone, 'examples');
	cpSync(EXAMPLES_FOLDER, examples, { recursive: true });
	git('init', '-q');
	git('add', '.');
	git('commit', '-q', '-m', 'examples');
});

afterEach(() => rmSync(clone, { recursive: true, force: true }));

function summary(changedExamples: StartInfo['changedExamples']): string {
	return startSummary({
		editorUrl: 'http://127.0.0.1:5678',
		ownerEmail: 'owner@example.com',
		password: 'pw',
		formUrl: 'http://127.0.0.1:5678/form/chat-messaging-signup',
		firstExampleUrl: 'http://127.0.0.1:5678/workflow/1',
		standInUrl: 'http://127.0.0.1:5680',
		standInApiKey: 'key',
		n8nLogFile: '/tmp/n8n.log',
		triggerWorkflowName: 'trigger',
		productionUrl: 'http://127.0.0.1:5678/webhook/a/webhook',
		testUrl: 'http://127.0.0.1:5678/webhook-test/a/webhook',
		webhookSecret: 'secret',
		reportTo: 'production',
		changedExamples,
	}).replace(/\s+/g, ' ');
}

function edit(file: string) {
	const path = join(examples, file);
	writeFileSync(path, readFileSync(path, 'utf8').replace('Get updates on WhatsApp', 'Hello'));
}

test('files as committed and as imported last time: the summary says nothing about them', () => {
	const now = exampleFileHashes(examples);
	const changes = exampleFileChanges({
		now,
		lastImported: now,
		changedSinceCommit: examplesChangedSinceCommit(examples),
		kept: [],
	});
	expect(changes).toEqual([]);
	expect(summary(changes)).not.toMatch(/Changed example/);
});

test('a file edited since the commit and since the last import is named, with both, and imported', () => {
	const lastImported = exampleFileHashes(examples);
	edit(FORM);
	const changedSinceCommit = examplesChangedSinceCommit(examples);
	expect(changedSinceCommit).toEqual(new Set([FORM]));
	const changes = exampleFileChanges({
		now: exampleFileHashes(examples),
		lastImported,
		changedSinceCommit,
		kept: [],
	});
	expect(summary(changes)).toContain(
		`Changed example: examples/${FORM} differs from the committed file (git diff shows how) and from the file npm start imported last time: imported as it is now.`,
	);
	expect(summary(changes).match(/Changed example/g)).toHaveLength(1);
});

test('a file committed after an edit still differs from the one imported last time', () => {
	const lastImported = exampleFileHashes(examples);
	edit(FORM);
	git('commit', '-q', '-am', 'edited');
	const changes = exampleFileChanges({
		now: exampleFileHashes(examples),
		lastImported,
		changedSinceCommit: examplesChangedSinceCommit(examples),
		kept: [],
	});
	expect(
		changes.map((change) => [change.path, change.sinceCommit, change.sinceLastImport]),
	).toEqual([[`examples/${FORM}`, false, true]]);
});

test('a first start (nothing imported before) names a file that differs from the commit', () => {
	edit(FORM);
	const changes = exampleFileChanges({
		now: exampleFileHashes(examples),
		changedSinceCommit: examplesChangedSinceCommit(examples),
		kept: [],
	});
	expect(summary(changes)).toContain(
		`examples/${FORM} differs from the committed file (git diff shows how): imported as it is now.`,
	);
});

test('an example kept for the edits made in n8n is said not to be imported, and stays changed next time', () => {
	const lastImported = exampleFileHashes(examples);
	edit(FORM);
	const now = exampleFileHashes(examples);
	const kept = ['formToSendTemplate'] as const;
	const changes = exampleFileChanges({ now, lastImported, kept });
	expect(summary(changes)).toContain(
		'not imported, as your edits to the workflow in n8n are kept.',
	);
	const recorded = importedFileHashes(now, lastImported, kept);
	expect(recorded.formToSendTemplate).toBe(lastImported.formToSendTemplate);
	expect(exampleFileChanges({ now, lastImported: recorded, kept: [] })).toHaveLength(1);
	// Once imported, the record is the file as imported: nothing to say next time.
	const imported = importedFileHashes(now, recorded, []);
	expect(exampleFileChanges({ now, lastImported: imported, kept: [] })).toEqual([]);
});

test('outside a git clone git cannot say, and the start goes on', () => {
	rmSync(join(clone, '.git'), { recursive: true, force: true });
	const outside = mkdtempSync(join(tmpdir(), 'not-a-clone-'));
	try {
		cpSync(examples, join(outside, 'examples'), { recursive: true });
		expect(examplesChangedSinceCommit(join(outside, 'examples'))).toBeUndefined();
	} finally {
		rmSync(outside, { recursive: true, force: true });
	}
});
