import { spawn } from 'node:child_process';
import {
	createWriteStream,
	existsSync,
	mkdirSync,
	readFileSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { PROJECT_ROOT, packPackage } from '../n8n/install';

/*
 * npm run test:compat [-- VERSION…]: the end-to-end suite (jest project `e2e`) against every n8n
 * version in scripts/compat/versions.json, one after the other, each installed by install-n8n.sh
 * like the pinned one (cached outside the clone, on its own Node major, with its documented
 * overrides). The package is packed once, so every version tests the same tarball. Ends with a
 * per-version table, also written to test-output/compat/results.{json,md}; exits 1 if any failed.
 */

interface VersionSpec {
	n8n: string;
	node: number;
	role: string;
	why?: string;
	overrides: Record<string, string>;
	/**
	 * Tests not run on this version, each with the reason (shown in the table's notes): a test file,
	 * or with `cases` only its tests whose full name (describe and test) starts with that text.
	 */
	skip?: Array<{ tests: string; cases?: string; why: string }>;
}

interface VersionResult {
	n8n: string;
	node: number;
	role: string;
	installSeconds: number;
	testSeconds: number;
	passed: number;
	failed: number;
	skipped: number;
	ok: boolean;
	failures: string[];
	note?: string;
	log: string;
}

const OUT = join(PROJECT_ROOT, 'test-output', 'compat');

function runLogged(
	command: string,
	args: string[],
	env: NodeJS.ProcessEnv,
	logFile: string,
): Promise<{ code: number; stdout: string }> {
	return new Promise((resolveRun, reject) => {
		const log = createWriteStream(logFile, { flags: 'a' });
		const child = spawn(command, args, {
			cwd: PROJECT_ROOT,
			env,
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		let stdout = '';
		child.stdout.on('data', (chunk: Buffer) => {
			stdout += chunk.toString();
			log.write(chunk);
		});
		child.stderr.on('data', (chunk: Buffer) => log.write(chunk));
		child.on('error', reject);
		child.on('close', (code) => log.end(() => resolveRun({ code: code ?? 1, stdout })));
	});
}

const seconds = (since: number) => Math.round((Date.now() - since) / 1000);

function versionEnvironment(spec: VersionSpec, tarball: string): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = { ...process.env };
	// This project's npm settings (ignore-scripts and the like) belong to neither n8n nor jest here.
	for (const key of Object.keys(env)) if (/^npm_/i.test(key)) delete env[key];
	return {
		...env,
		N8N_VERSION: spec.n8n,
		N8N_NODE_MAJOR: String(spec.node),
		N8N_EXTRA_OVERRIDES: JSON.stringify(spec.overrides),
		CHAT_MESSAGING_TARBALL: tarball,
		CHAT_MESSAGING_E2E_FOLDER: join(OUT, `e2e-${spec.n8n}`),
		CHAT_MESSAGING_E2E_USER_FOLDERS: join(tmpdir(), `n8n-nodes-chat-messaging-compat-${spec.n8n}`),
	};
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Jest's arguments for the skips: whole files are ignored; cases are left out by a test name
 * pattern that matches every other name, so jest counts them as skipped, never as passed.
 */
function skipArguments(skip: NonNullable<VersionSpec['skip']>): string[] {
	const files = skip.filter((s) => s.cases === undefined);
	const cases = skip.flatMap((s) => (s.cases === undefined ? [] : [escapeRegExp(s.cases)]));
	return [
		...files.flatMap((s) => ['--testPathIgnorePatterns', s.tests]),
		...(cases.length ? ['--testNamePattern', `^(?!(?:${cases.join('|')}))`] : []),
	];
}

async function testVersion(
	spec: VersionSpec,
	tarball: string,
	jestArgs: string[],
): Promise<VersionResult> {
	const log = join(OUT, `n8n-${spec.n8n}.log`);
	rmSync(log, { force: true });
	const env = versionEnvironment(spec, tarball);
	const result: VersionResult = {
		n8n: spec.n8n,
		node: spec.node,
		role: spec.role,
		installSeconds: 0,
		testSeconds: 0,
		passed: 0,
		failed: 0,
		skipped: 0,
		ok: false,
		failures: [],
		log,
	};
	process.stdout.write(
		`[compat] n8n ${spec.n8n} on Node ${spec.node}: installing (cached after the first time)\n`,
	);
	const installStart = Date.now();
	const install = await runLogged(
		'bash',
		[join(PROJECT_ROOT, 'scripts', 'install-n8n.sh')],
		env,
		log,
	);
	result.installSeconds = seconds(installStart);
	if (install.code !== 0) {
		result.note = `install failed (exit ${install.code}); see ${log}`;
		return result;
	}
	process.stdout.write(`[compat] n8n ${spec.n8n}: running the e2e suite (log: ${log})\n`);
	const report = join(OUT, `jest-${spec.n8n}.json`);
	rmSync(report, { force: true });
	const testStart = Date.now();
	const skipped = skipArguments(spec.skip ?? []);
	if (spec.skip?.length) {
		result.note = spec.skip
			.map((s) => `not run: ${s.tests}${s.cases ? ` "${s.cases}…"` : ''} (${s.why})`)
			.join('; ');
	}
	const jest = await runLogged(
		'npx',
		[
			'jest',
			'--selectProjects',
			'e2e',
			'--json',
			`--outputFile=${report}`,
			// The caller's arguments first: a test path after --testPathIgnorePatterns would be taken
			// as one more pattern to ignore.
			...jestArgs,
			...skipped,
		],
		env,
		log,
	);
	result.testSeconds = seconds(testStart);
	if (!existsSync(report)) {
		result.failed = 1;
		result.note = `jest wrote no report (exit ${jest.code}); see ${log}`;
		return result;
	}
	const json = JSON.parse(readFileSync(report, 'utf8')) as {
		numPassedTests: number;
		numFailedTests: number;
		numPendingTests: number;
		numTodoTests: number;
		numRuntimeErrorTestSuites: number;
		testResults: Array<{
			name: string;
			message: string;
			assertionResults: Array<{ fullName: string; status: string }>;
		}>;
	};
	result.passed = json.numPassedTests;
	result.failed = json.numFailedTests + json.numRuntimeErrorTestSuites;
	result.skipped = json.numPendingTests + json.numTodoTests;
	for (const file of json.testResults) {
		const failing = file.assertionResults.filter((a) => a.status === 'failed');
		for (const a of failing)
			result.failures.push(`${file.name.slice(PROJECT_ROOT.length + 1)}: ${a.fullName}`);
		if (failing.length === 0 && file.message) {
			result.failures.push(
				`${file.name.slice(PROJECT_ROOT.length + 1)}: ${file.message.split('\n')[0]}`,
			);
		}
	}
	result.ok = jest.code === 0 && result.failed === 0 && result.passed > 0;
	if (!result.ok && result.failed === 0) {
		result.note = [result.note, `jest exited ${jest.code}; see ${log}`].filter(Boolean).join('; ');
	}
	return result;
}

function table(results: VersionResult[]): string {
	const rows = [
		'| n8n | Node.js | role | result | tests passed / failed / skipped | install | e2e run |',
		'| --- | --- | --- | --- | --- | --- | --- |',
		...results.map(
			(r) =>
				`| ${r.n8n} | ${r.node} | ${r.role.split(':')[0]} | ${r.ok ? 'pass' : 'FAIL'} | ${r.passed} / ${r.failed} / ${r.skipped} | ${r.installSeconds} s | ${r.testSeconds} s |`,
		),
	];
	const notes = results.flatMap((r) => [
		...(r.note ? [`- ${r.n8n}: ${r.note}`] : []),
		...r.failures.map((f) => `- ${r.n8n}: ${f}`),
	]);
	return [...rows, ...(notes.length ? ['', ...notes] : [])].join('\n');
}

async function main() {
	const args = process.argv.slice(2);
	const dash = args.indexOf('--');
	const wanted = dash < 0 ? args : args.slice(0, dash);
	const jestArgs = dash < 0 ? [] : args.slice(dash + 1);
	const all = (
		JSON.parse(readFileSync(join(__dirname, 'versions.json'), 'utf8')) as {
			versions: VersionSpec[];
		}
	).versions;
	const specs = wanted.length ? all.filter((v) => wanted.includes(v.n8n)) : all;
	if (specs.length === 0) throw new Error(`no such version in versions.json: ${wanted.join(', ')}`);
	mkdirSync(OUT, { recursive: true });

	const tarball =
		process.env.CHAT_MESSAGING_TARBALL ?? (await packPackage(join(OUT, 'package-tarball')));
	process.stdout.write(
		`[compat] testing ${tarball} on n8n ${specs.map((s) => s.n8n).join(', ')}\n`,
	);

	const started = Date.now();
	const results: VersionResult[] = [];
	for (const spec of specs) {
		const result = await testVersion(spec, tarball, jestArgs);
		results.push(result);
		process.stdout.write(
			`[compat] n8n ${spec.n8n}: ${result.ok ? 'pass' : 'FAIL'} (${result.passed} passed, ${result.failed} failed; install ${result.installSeconds} s, e2e ${result.testSeconds} s)\n`,
		);
	}
	const summary = table(results);
	writeFileSync(
		join(OUT, 'results.json'),
		JSON.stringify(
			{ date: new Date().toISOString(), tarball, totalSeconds: seconds(started), results },
			null,
			2,
		),
	);
	writeFileSync(join(OUT, 'results.md'), `${summary}\n`);
	process.stdout.write(`\nn8n compatibility (${seconds(started)} s in all)\n\n${summary}\n\n`);
	const passed = results.filter((r) => r.ok).length;
	// The plain closing line CI tools read.
	process.stdout.write(`${passed} passed, ${results.length - passed} failed\n`);
	process.exitCode = passed === results.length ? 0 : 1;
}

main().catch((error: unknown) => {
	process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
	process.exitCode = 1;
});
