/*
 * The README's quick start names what a person clicks and fills in, in bold (issue 28: the quick
 * start tested as written). Every such word must be one the editor shows: a label, option, action
 * or mode of these nodes and credentials, a template the stand-in's account lists, or one of n8n's
 * own words (checked by hand in n8n 2.40.7's editor bundle and Form node). A renamed field or
 * option breaks this test before it misleads a newcomer.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { ChatMessagingApi } from '../../../credentials/ChatMessagingApi.credentials';
import { ChatMessagingWebhookApi } from '../../../credentials/ChatMessagingWebhookApi.credentials';
import { ChatMessaging } from '../../../nodes/ChatMessaging/ChatMessaging.node';
import { ChatMessagingTrigger } from '../../../nodes/ChatMessagingTrigger/ChatMessagingTrigger.node';
import { readTemplate, toListItem } from '../../../nodes/ChatMessaging/methods/templates';
import { readTemplateVariables } from '../../../nodes/shared/templateComponents';
import { seedTemplates } from '../../../sandbox/service/templateCatalogue';
import { PROJECT_ROOT } from '../../../scripts/n8n/install';

/** n8n's own words the quick start uses (editor-ui locale, Form Trigger description, n8n 2.40.7). */
const N8N_WORDS = [
	'Credentials',
	// n8n 2.x ("projects.header.create.credential"); n8n 1.x ("credentials.add").
	'Create credential',
	'Add credential',
	// The app picker's button after the credential type is chosen ("credentialSelectModal.continue").
	'Continue',
	'Save',
	// The credential test's own words ("credentialEdit.credentialConfig.*", with n8n's ’), and the
	// link that opens the node's reason.
	'Connection tested successfully',
	'Couldn’t connect with these settings',
	'More details',
	'Credential',
	'+',
	// n8n labels a resource locator's list mode itself ("resourceLocator.mode.list"), whatever the
	// node's mode is called.
	'From list',
	// The nodes panel: the Form nodes are "n8n Form", its trigger action "On new {event} event".
	'n8n Form',
	'On new n8n Form event',
	'Form Title',
	'Page Type',
	'Form Ending',
	'On Error',
	'Continue (using error output)',
	'Execute workflow',
	'Execute step',
	'Test step',
	'Listen for test event',
	'Production URL',
	'Test URL',
];

/** Every string in a description: labels, option names, actions, modes, placeholders. */
function stringsOf(value: unknown, into: Set<string>): Set<string> {
	if (typeof value === 'string') into.add(value);
	else if (Array.isArray(value)) for (const entry of value) stringsOf(entry, into);
	else if (value && typeof value === 'object')
		for (const entry of Object.values(value)) stringsOf(entry, into);
	return into;
}

const known = new Set<string>(N8N_WORDS);
stringsOf(new ChatMessaging().description, known);
stringsOf(new ChatMessagingTrigger().description, known);
stringsOf(new ChatMessagingApi(), known);
stringsOf(new ChatMessagingWebhookApi(), known);
for (const template of seedTemplates()) {
	const summary = readTemplate(template);
	if (summary === undefined) continue;
	known.add(String(toListItem(summary).name));
	for (const variable of readTemplateVariables(template.components).variables)
		known.add(variable.name);
}

const readme = readFileSync(join(PROJECT_ROOT, 'README.md'), 'utf8');
function boldWordsOf(heading: string): string[] {
	const start = readme.indexOf(`\n## ${heading}`);
	const end = readme.indexOf('\n## ', start + 4);
	expect(start).toBeGreaterThan(-1);
	return [...readme.slice(start, end).matchAll(/\*\*([^*]+)\*\*/g)].flatMap((match) =>
		match[1]
			.replace(/\s+/g, ' ')
			.split(' → ')
			.map((word) => word.trim()),
	);
}

test.each(['Set up the credential', 'Your first workflow', 'Start a workflow from'])(
	'every word the README bolds under "%s" is one the editor shows',
	(heading) => {
		const words = boldWordsOf(heading);
		expect(words.length).toBeGreaterThan(3);
		expect(words.filter((word) => !known.has(word))).toEqual([]);
	},
);

// npm warns on a Node older than package.json's engines, and the lint plugins of `npm test` declare
// that floor too: the README's promise to a newcomer must be the same version.
test("the Node.js version the README says runs npm start and npm test is package.json's engines floor", () => {
	const manifest = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as {
		engines: { node: string };
	};
	const floor = /^>=\s*(\d+(?:\.\d+){0,2})$/.exec(manifest.engines.node)?.[1];
	expect(floor).toBeDefined();
	const promised = [...readme.matchAll(/Node\.js (\d+(?:\.\d+){0,2}) or newer/g)].map((m) => m[1]);
	expect(promised).toEqual([floor]);
});

// Issue 28: the README is the five-minute front door. What the package does (with a picture of the
// node in the editor) comes first, before installing; the detail lives in docs/ and CONTRIBUTING.md.
test('the README is at most 250 lines and opens with what the package does and a picture', () => {
	expect(readme.split('\n').length).toBeLessThanOrEqual(250);
	const opening = readme.slice(0, readme.indexOf('\n## '));
	expect(opening).toMatch(/^# n8n-nodes-chat-messaging\n/);
	expect(opening).toMatch(/\*\*Chat Messaging\*\*\s+sends/);
	expect(opening).toMatch(/!\[[^\]]+\]\(docs\/images\/[\w-]+\.png\)/);
	expect(readme.slice(readme.indexOf('\n## '))).toMatch(/^\n## Install in n8n\n/);
});
