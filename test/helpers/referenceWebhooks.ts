import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/*
 * The service's public reference, as captured under test/fixtures/reference/webhooks (one file per
 * webhook example, README there), and what docs/trigger.md says the trigger outputs for each kind.
 * Tests read both from here, so the fixtures, the document and the trigger cannot part.
 */

export interface ReferenceWebhook {
	file: string;
	source: string;
	page: string;
	generation: 'newer' | 'older';
	kind: 'webhook';
	/** The type the page lists the example under (the payload's own `type` may differ). */
	event: string;
	cut: boolean;
	note: string;
	example: { type: string; data: Record<string, any> };
}

const WEBHOOK_FIXTURES = join(__dirname, '..', 'fixtures', 'reference', 'webhooks');

export function readReferenceWebhooks(): ReferenceWebhook[] {
	return readdirSync(WEBHOOK_FIXTURES)
		.filter((name) => name.endsWith('.json'))
		.sort()
		.map((file) => ({
			file,
			...(JSON.parse(readFileSync(join(WEBHOOK_FIXTURES, file), 'utf8')) as Omit<
				ReferenceWebhook,
				'file'
			>),
		}));
}

export interface KindRow {
	/** The output field that says what happened. */
	happened: string;
	/** The output fields that name the object it happened to. */
	about: string[];
	/** The output fields whose values together make a workflow idempotent; empty for "none". */
	key: string[];
	/** What the service does not send, in the table's words; empty for "nothing". */
	notSent: string[];
}

const TRIGGER_DOC = join(__dirname, '..', '..', 'docs', 'trigger.md');

function tableRows(text: string, header: string): string[][] {
	const lines = text.split('\n');
	const start = lines.findIndex((line) => line.startsWith(header));
	if (start === -1) throw new Error(`docs/trigger.md has no table starting "${header}"`);
	const rows: string[][] = [];
	for (const line of lines.slice(start + 2)) {
		if (!line.startsWith('|')) break;
		rows.push(
			line
				.slice(1, -1)
				.split('|')
				.map((cell) => cell.trim()),
		);
	}
	return rows;
}

const codeNames = (cell: string) => [...cell.matchAll(/`([A-Za-z]+)`/g)].map((match) => match[1]);

/** docs/trigger.md: the output fields its Output table describes, and its _Fields by kind_ table. */
export function readTriggerDoc(): { fields: string[]; kinds: Record<string, KindRow> } {
	const text = readFileSync(TRIGGER_DOC, 'utf8');
	const fields = tableRows(text, '| Field ').map((row) => codeNames(row[0])[0]);
	const kinds: Record<string, KindRow> = {};
	for (const [kind, happened, about, key, notSent] of tableRows(text, '| Kind ')) {
		kinds[codeNames(kind)[0]] = {
			happened: codeNames(happened)[0],
			about: codeNames(about),
			key: key === 'none' ? [] : codeNames(key),
			notSent: notSent === 'nothing' ? [] : notSent.split(',').map((part) => part.trim()),
		};
	}
	return { fields, kinds };
}
