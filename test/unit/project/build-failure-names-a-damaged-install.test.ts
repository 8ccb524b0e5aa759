/*
 * `npm start`'s build, told in the person's terms. After an interrupted `npm install`, a file in
 * node_modules is cut short and the build said only "the build failed … error TS1010: '*\/'
 * expected" inside node_modules/@types/node: it must say the install is damaged and that `npm ci`
 * repairs it. And the time it announces must be what builds take here, not a fixed 40-50 s.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import fc from 'fast-check';

import {
	buildEstimate,
	buildFailureMessage,
	errorsInsideNodeModules,
} from '../../../scripts/n8n/build';
import { PROJECT_ROOT } from '../../../scripts/n8n/install';

jest.setTimeout(60_000);

/** What tsc itself prints for a declaration file in node_modules cut short mid-comment. */
async function tscOutputForATruncatedTypesFile(): Promise<string> {
	const folder = mkdtempSync(join(tmpdir(), 'truncated-types-'));
	try {
		mkdirSync(join(folder, 'node_modules', '@types', 'node'), { recursive: true });
		writeFileSync(
			join(folder, 'node_modules', '@types', 'node', 'index.d.ts'),
			'/**\n * Cut short by an interrupted install\n declare const',
		);
		writeFileSync(join(folder, 'index.ts'), 'export const built = true;\n');
		writeFileSync(
			join(folder, 'tsconfig.json'),
			JSON.stringify({ compilerOptions: { types: ['node'], noEmit: true }, files: ['index.ts'] }),
		);
		return await new Promise((resolve) =>
			execFile(
				join(PROJECT_ROOT, 'node_modules', '.bin', 'tsc'),
				['-p', 'tsconfig.json'],
				{ cwd: folder },
				(_error, stdout, stderr) => resolve(stdout + stderr),
			),
		);
	} finally {
		rmSync(folder, { recursive: true, force: true });
	}
}

test('a declaration file in node_modules cut short: the install is damaged, npm ci repairs it', async () => {
	const log = await tscOutputForATruncatedTypesFile();
	expect(log).toMatch(/error TS1010/);
	const message = buildFailureMessage('/project/.n8n-local/build.log', log);
	expect(message).toContain('node_modules/@types/node/index.d.ts');
	expect(message).toMatch(/installed dependencies are damaged/);
	expect(message).toContain('npm ci');
	// tsc's own words still follow.
	expect(message).toContain('TS1010');
});

const segment = fc.stringMatching(/^[a-z][a-z0-9-]{0,10}$/);

test('an error in any file under node_modules is read as a damaged install; one in our sources is not', () => {
	fc.assert(
		fc.property(
			fc.array(segment, { minLength: 1, maxLength: 4 }),
			fc.boolean(),
			fc.nat({ max: 9999 }),
			(parts, inNodeModules, code) => {
				const file = `${inNodeModules ? 'node_modules/' : ''}${parts.join('/')}.ts`;
				const log = `${file}(3,7): error TS${code}: something is wrong.\n`;
				expect(errorsInsideNodeModules(log)).toEqual(inNodeModules ? [file] : []);
				const message = buildFailureMessage('build.log', log);
				expect(message.includes('npm ci')).toBe(inNodeModules);
				expect(message).toContain(log.trim());
			},
		),
		{ numRuns: 200 },
	);
});

test('a build that printed nothing says so, not an empty line after a colon', () => {
	expect(buildFailureMessage('build.log', '')).toBe(
		'the build failed (build.log):\n(it printed nothing)',
	);
});

test('the announced time is the last build on this machine, and a plain range the first time', () => {
	expect(buildEstimate(undefined)).toBe('usually 5-15 s');
	expect(buildEstimate(Number.NaN)).toBe('usually 5-15 s');
	fc.assert(
		fc.property(fc.double({ min: 0, max: 3600, noNaN: true }), (seconds) => {
			expect(buildEstimate(seconds)).toBe(
				`about ${Math.max(1, Math.round(seconds))} s, as the last build here took`,
			);
		}),
		{ numRuns: 100 },
	);
});

test("npm run dev announces its first compile as npm start's build: the same compile, the same time", () => {
	// dev.sh said "about 40-50 s the first time" for the compile npm start's build does in 5-15 s.
	const devScript = readFileSync(join(PROJECT_ROOT, 'scripts', 'dev.sh'), 'utf8');
	const announced = /say "(compiling the package with tsc --watch[^"]*)"/.exec(devScript);
	expect(announced).not.toBeNull();
	const times = announced![1].match(/\d+(-\d+)? s\b/g) ?? [];
	expect(times).toEqual([buildEstimate(undefined).replace(/^usually /, '')]);
});
