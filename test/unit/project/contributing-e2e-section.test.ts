/*
 * CONTRIBUTING.md's "The end-to-end tests" is where a contributor learns what each real-n8n test
 * proves (and that the quick start is tested as the README writes it). A test file it does not name
 * is one nobody finds there: each file of test/e2e/ must be listed in that section.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { PROJECT_ROOT } from '../../../scripts/n8n/install';

const contributing = readFileSync(join(PROJECT_ROOT, 'CONTRIBUTING.md'), 'utf8');
const start = contributing.indexOf('\n## The end-to-end tests');
const end = contributing.indexOf('\n## ', start + 4);
const section = contributing.slice(start, end === -1 ? undefined : end);

const e2eFiles = readdirSync(join(PROJECT_ROOT, 'test', 'e2e')).filter((file) =>
	file.endsWith('.test.ts'),
);

test('CONTRIBUTING.md has its end-to-end section, and test/e2e has test files', () => {
	expect(start).toBeGreaterThan(-1);
	expect(e2eFiles.length).toBeGreaterThan(0);
});

test.each(e2eFiles)('CONTRIBUTING.md says what test/e2e/%s proves', (file) => {
	expect(section).toContain(`\`${file}\``);
});
