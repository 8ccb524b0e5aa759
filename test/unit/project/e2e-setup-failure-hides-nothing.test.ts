/*
 * `npm test` runs every jest project at once. When the real n8n for the end-to-end project cannot
 * start (offline on a first run, a broken install), jest's global setup failing ended the whole run
 * with no result at all, unit tests included, and no JSON report for CI's count. The unit and
 * engine results must still be reported, and every end-to-end file must show as failed, saying why.
 * Here jest runs one unit file and one end-to-end file, and n8n's install cannot reach a registry
 * (a closed port), with an empty cache: the setup fails within seconds, as offline.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { PROJECT_ROOT } from '../../../scripts/n8n/install';

jest.setTimeout(240_000);

let folder: string;
beforeAll(() => {
	folder = mkdtempSync(join(tmpdir(), 'e2e-setup-fails-'));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

interface Report {
	success: boolean;
	numPassedTests: number;
	numFailedTests: number;
	testResults: Array<{
		name: string;
		status: string;
		assertionResults: Array<{ status: string; failureMessages: string[] }>;
	}>;
}

test('the unit results are reported and the end-to-end file fails, naming the cause', async () => {
	const reportFile = join(folder, 'report.json');
	const env: NodeJS.ProcessEnv = {
		...process.env,
		CHAT_MESSAGING_CACHE: join(folder, 'empty-cache'),
		CHAT_MESSAGING_E2E_FOLDER: join(folder, 'e2e'),
		CHAT_MESSAGING_E2E_USER_FOLDERS: join(folder, 'users'),
		npm_config_registry: 'http://127.0.0.1:1/',
	};
	// This file's own run may itself be under jest: the child is a run of its own.
	delete env.JEST_WORKER_ID;
	const code = await new Promise<number>((resolve) =>
		execFile(
			'npx',
			[
				'jest',
				'--selectProjects',
				'unit',
				'e2e',
				'--json',
				`--outputFile=${reportFile}`,
				'test/unit/project/package-contract.test.ts',
				'test/e2e/secrets.test.ts',
			],
			{ cwd: PROJECT_ROOT, env, maxBuffer: 64 * 1024 * 1024 },
			(error) => resolve(error ? Number(error.code ?? 1) : 0),
		),
	);
	expect(code).not.toBe(0);
	const report = JSON.parse(readFileSync(reportFile, 'utf8')) as Report;
	const suite = (name: string) => report.testResults.find((result) => result.name.endsWith(name));

	const unit = suite('test/unit/project/package-contract.test.ts');
	expect(unit?.status).toBe('passed');
	expect(report.numPassedTests).toBeGreaterThan(0);

	const e2e = suite('test/e2e/secrets.test.ts');
	expect(e2e?.status).toBe('failed');
	// Each of its tests counts as failed, with the reason n8n did not start.
	expect(e2e?.assertionResults.length).toBeGreaterThan(0);
	for (const result of e2e?.assertionResults ?? []) {
		expect(result.status).toBe('failed');
		expect(result.failureMessages.join('\n')).toMatch(/n8n .*did not start/);
		expect(result.failureMessages.join('\n')).toContain('does not answer');
	}
	expect(report.numFailedTests).toBe(e2e?.assertionResults.length);
});
