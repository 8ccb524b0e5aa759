/*
 * The needs table the code reads (nodes/shared/schemas/answerNeeds.ts) and the one docs/
 * service-contract.md shows a contributor ("What the node needs of each answer") are the same
 * rows: operation, field, what it is needed for, and the source it rests on.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { ANSWER_NEEDS, FAILURE_SIGNS } from '../../../nodes/shared/schemas/answerNeeds';

const DOC = readFileSync(join(__dirname, '..', '..', '..', 'docs', 'service-contract.md'), 'utf8');

function documentedRows(): string[] {
	const section = DOC.slice(DOC.indexOf('## What the node needs of each answer'));
	const body = section.slice(0, section.indexOf('\n## ', 4));
	return body
		.split('\n')
		.filter((line) => line.startsWith('|') && !/^\|\s*(operation|-)/.test(line))
		.map((line) =>
			line
				.split('|')
				.slice(1, -1)
				.map((cell) => cell.trim().replace(/`/g, '')),
		)
		.filter(([, , field]) => field !== '(the failure signs only)')
		.map(([operation, endpoint, field, purpose, source]) =>
			[operation, endpoint, field, purpose, source].join(' | '),
		);
}

function codeRows(): string[] {
	return Object.entries(ANSWER_NEEDS).flatMap(([operation, { endpoint, needs }]) =>
		needs
			.filter((need) => !FAILURE_SIGNS.includes(need))
			.map((need) => [operation, endpoint, need.path, need.for, need.source].join(' | ')),
	);
}

test('docs/service-contract.md lists every needed field of the code, and no other', () => {
	expect(documentedRows().sort()).toEqual(codeRows().sort());
});

test('every operation with only the failure signs needed is named in the docs all the same', () => {
	const named = new Set(
		DOC.split('\n')
			.filter((line) => line.startsWith('|'))
			.map((line) => line.split('|')[1]?.trim()),
	);
	expect(Object.keys(ANSWER_NEEDS).filter((operation) => !named.has(operation))).toEqual([]);
});
