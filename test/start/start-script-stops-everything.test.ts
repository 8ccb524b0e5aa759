/*
 * Nothing `npm start` started may outlive it (issue 39, point 1), whatever the step and the signal:
 * Ctrl-C (SIGINT to the terminal's whole foreground group), a closed terminal (SIGHUP to the
 * group) and `kill` of npm (SIGTERM to npm alone, which npm does not pass on). Each case drives
 * `npm start` as a process against the real n8n (installed by scripts/install-n8n.sh), on ports
 * of its own, in a private .n8n-local, and asks afterwards which of the processes seen under it
 * still run: none may. Also point 4: a person's edit to an example survives the next start.
 * Several real n8n boots: `npm run test:start`, not part of `npm test`.
 */
import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';

import { PROJECT_ROOT } from '../../scripts/n8n/install';
import { portIsFree } from '../../scripts/n8n/ports';
import {
	freeStartPorts,
	n8nPublicApi,
	privateLocalFolder,
	startEnvironment,
	StartRun,
	type StartPorts,
} from '../helpers/startProcess';

jest.setTimeout(15 * 60_000);

const runs: StartRun[] = [];
const folders: string[] = [];
afterAll(() => {
	for (const run of runs) run.killEverything();
	for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

type Stop = 'Ctrl-C' | 'closed terminal' | 'kill npm';

function start(ports: StartPorts, localFolder: string, skipBuild = true): StartRun {
	if (!folders.includes(localFolder)) folders.push(localFolder);
	const run = new StartRun(
		startEnvironment(ports, localFolder, skipBuild ? { CHAT_MESSAGING_SKIP_BUILD: '1' } : {}),
	);
	runs.push(run);
	return run;
}

function stop(run: StartRun, how: Stop): void {
	if (how === 'Ctrl-C') run.ctrlC();
	else if (how === 'closed terminal') run.hangUp();
	else run.kill('SIGTERM');
}

/** Stopped as given: within a bounded time nothing it started runs, and every port is free again. */
async function expectNothingLeft(run: StartRun, ports: StartPorts): Promise<void> {
	await run.end(60_000);
	// n8n's graceful stop takes up to 15 s, then it is killed: 30 s covers both.
	expect(await run.leftBehindAfter(30_000)).toEqual([]);
	for (const port of Object.values(ports)) expect(await portIsFree(port)).toBe(true);
	expect(run.output).toMatch(
		/\[start\] (SIG(INT|HUP|TERM)|npm, which ran this, has ended): stopping/,
	);
	expect(run.output).toContain('[start] stopped');
}

describe('stopped during the build', () => {
	for (const how of ['Ctrl-C', 'kill npm'] as Stop[]) {
		it(`${how}: the build ends with it`, async () => {
			const ports = await freeStartPorts();
			const run = start(ports, privateLocalFolder(), false);
			await run.waitFor(/building the package/, 120_000);
			// tsc is under way.
			await new Promise((resolve) => setTimeout(resolve, 3_000));
			stop(run, how);
			await expectNothingLeft(run, ports);
			expect(run.output).toMatch(/stopping the build \(pid \d+\)/);
		});
	}
});

describe('stopped after the build', () => {
	beforeAll(async () => {
		// The cases above stopped builds part-way: dist/ is built whole again for the rest.
		await new Promise<void>((resolve, reject) =>
			execFile('npm', ['run', '--silent', 'build'], { cwd: PROJECT_ROOT }, (error) =>
				error ? reject(new Error(`npm run build failed: ${error.message}`)) : resolve(),
			),
		);
	}, 10 * 60_000);

	const steps: Array<[Stop, string, RegExp, number]> = [
		['kill npm', 'the stand-in running', /stand-in service on/, 0],
		['closed terminal', 'the package being packed', /packing the package/, 500],
		// The reported case: Ctrl-C three seconds after "starting n8n" left n8n listening.
		['Ctrl-C', 'n8n starting', /starting n8n on port/, 3_000],
		['closed terminal', 'n8n starting', /starting n8n on port/, 3_000],
		['kill npm', 'n8n starting', /starting n8n on port/, 3_000],
	];
	for (const [how, step, printed, after] of steps) {
		it(`${how} with ${step}: nothing is left running`, async () => {
			const ports = await freeStartPorts();
			const run = start(ports, privateLocalFolder());
			await run.waitFor(printed, 10 * 60_000);
			await new Promise((resolve) => setTimeout(resolve, after));
			stop(run, how);
			await expectNothingLeft(run, ports);
		});
	}

	it('after a good start, a closed terminal ends n8n; edits to an example survive the next start (point 4)', async () => {
		const ports = await freeStartPorts();
		const localFolder = privateLocalFolder();
		const first = start(ports, localFolder);
		await first.waitFor(/n8n with Chat Messaging is running/, 10 * 60_000);
		expect(first.started.some((p) => / n8n start$|\/n8n start/.test(p))).toBe(true);

		// The person changes the form's title in the editor (here through n8n's public API).
		const api = n8nPublicApi(ports.n8n, localFolder);
		const name = 'Chat Messaging: form sign-up sends a welcome template';
		const formWorkflow = async () =>
			((await api('GET', `/workflows?name=${encodeURIComponent(name)}`)).data as any[]).find(
				(w) => w.name === name,
			);
		const before = await formWorkflow();
		const edited = {
			name: before.name,
			connections: before.connections,
			settings: { executionOrder: 'v1' },
			nodes: before.nodes.map((node: any) =>
				node.type === 'n8n-nodes-base.formTrigger'
					? { ...node, parameters: { ...node.parameters, formTitle: 'My own title' } }
					: node,
			),
		};
		await api('PUT', `/workflows/${before.id}`, edited);

		stop(first, 'closed terminal');
		await expectNothingLeft(first, ports);

		const second = start(ports, localFolder);
		await second.waitFor(/n8n with Chat Messaging is running/, 10 * 60_000);
		expect(second.output).toContain(`kept your edits to "${name}"`);
		expect(second.output).toContain('examples/form-to-send-template.json');
		// Only the edited one is kept: the others are as shipped.
		expect(second.output.match(/kept your edits/g)).toHaveLength(1);
		const after = await formWorkflow();
		const form = after.nodes.find((node: any) => node.type === 'n8n-nodes-base.formTrigger');
		expect(form.parameters.formTitle).toBe('My own title');

		stop(second, 'kill npm');
		await expectNothingLeft(second, ports);
	});
});
