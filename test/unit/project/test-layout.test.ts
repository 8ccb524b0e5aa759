/*
 * The tests are laid out as the product is (issue 38): a contributor who changes an operation finds
 * its tests under its resource's folder, and a shared mechanism's under its own. Every unit and
 * engine test file sits in one area folder (test/unit/<area>/, test/engine/<area>/; jest's projects
 * select by the layer above it), is named for what it guards and not for the review that found a
 * defect, and every file that is not a test is a helper in test/helpers/. CONTRIBUTING.md's
 * "Test layout" section says what each area holds, so it names every one.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

import { PROJECT_ROOT } from '../../../scripts/n8n/install';

/** The area folders, each a resource of the node or a mechanism several of them share. */
const AREAS = [
	'message',
	'contact',
	'conversation',
	'broadcast',
	'template',
	'media',
	'order',
	'ai-agent',
	'agent-tool',
	'run',
	'inputs',
	'transport',
	'credential',
	'trigger',
	'editor',
	'contract',
	'invariants',
	'stand-in',
	'project',
];
const LAYERS = ['unit', 'engine'];
const HELPERS = 'test/helpers';

/** A name that tells of a review round (adv-, adv3-, adversarial-, round-2) rather than a behaviour. */
const REVIEW_ROUND = /(^|[-_.])(adv\d*|adversarial|round\d*)([-_.]|$)/i;

function filesUnder(folder: string): string[] {
	const absolute = join(PROJECT_ROOT, folder);
	return readdirSync(absolute).flatMap((name) => {
		const path = join(absolute, name);
		const fromRoot = relative(PROJECT_ROOT, path).split(sep).join('/');
		return statSync(path).isDirectory() ? filesUnder(fromRoot) : [fromRoot];
	});
}

const layerFiles = LAYERS.flatMap((layer) => filesUnder(`test/${layer}`));
const helperFiles = filesUnder(HELPERS);

test('the layers have test files to hold to the layout', () => {
	expect(layerFiles.filter((path) => path.endsWith('.test.ts')).length).toBeGreaterThan(0);
	expect(helperFiles.length).toBeGreaterThan(0);
});

test('every unit and engine file is a test in one of the area folders', () => {
	const outside = layerFiles.filter((path) => {
		const [, layer, area, name, ...deeper] = path.split('/');
		return (
			!LAYERS.includes(layer) ||
			!AREAS.includes(area) ||
			name === undefined ||
			deeper.length > 0 ||
			!name.endsWith('.test.ts')
		);
	});
	// A helper goes to test/helpers/, a test to its resource's or mechanism's folder.
	expect(outside).toEqual([]);
});

test('no test or helper is named for a review round', () => {
	const named = [...layerFiles, ...helperFiles].filter((path) =>
		REVIEW_ROUND.test(path.split('/').pop()!),
	);
	expect(named).toEqual([]);
});

test('the helpers are in test/helpers/, and no test is among them', () => {
	const atTestRoot = readdirSync(join(PROJECT_ROOT, 'test')).filter((name) => name.endsWith('.ts'));
	expect(atTestRoot).toEqual([]);
	expect(helperFiles.filter((path) => path.endsWith('.test.ts'))).toEqual([]);
});

test('CONTRIBUTING.md says what each area folder holds', () => {
	const contributing = readFileSync(join(PROJECT_ROOT, 'CONTRIBUTING.md'), 'utf8');
	const start = contributing.indexOf('\n## Test layout');
	expect(start).toBeGreaterThan(-1);
	const end = contributing.indexOf('\n## ', start + 4);
	const section = contributing.slice(start, end === -1 ? undefined : end);
	expect(AREAS.filter((area) => !section.includes(`\`${area}/\``))).toEqual([]);
	expect(section).toContain(`\`${HELPERS}/\``);
});
