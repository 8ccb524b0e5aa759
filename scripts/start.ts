import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

import type { StandInService } from '../sandbox/server';
import { bootN8nWithPackage } from './n8n/boot';
import { buildPackage } from './n8n/build';
import { endAllStarted, ownProcessGroups, runningProcesses } from './n8n/childProcesses';
import { claimThisProject } from './n8n/claimProject';
import {
	EXAMPLE_FILES,
	pointStandInAtTrigger,
	provisionExamples,
	type ExampleName,
} from './n8n/examples';
import { noteExampleFileChanges, type ExampleFileHashes } from './n8n/exampleFileChanges';
import { CommandFailed, PROJECT_ROOT } from './n8n/install';
import { newLocalSecrets, reportToOrExit, stopOnSignals } from './n8n/localRun';
import { portsInUse } from './n8n/ports';
import { keepLocalFilesPrivate, writePrivateFile } from './n8n/privateFiles';
import type { RealN8n } from './n8n/real-n8n';
import { startSummary } from './n8n/startSummary';

/*
 * `npm start` (start.sh checked that `npm install` ran): the checks that need nothing started (one
 * `npm start` per project, the ports free), the build, the stand-in service and a real n8n with this
 * package installed the user's way, an owner account, credentials pointing at the stand-in and the
 * examples imported, the trigger example active. Everything lives in .n8n-local/ (git-ignored, and
 * readable by its owner only: privateFiles.ts), so a second run signs in to the same owner and
 * updates the same credentials and workflows.
 * REPORT_TO=test sends the stand-in's delivery reports to the trigger's test URL, so they show in
 * the editor while it listens; the default, production, lists them under Executions.
 *
 * Every process started on the way is ended on every way out (Ctrl-C, a closed terminal, SIGTERM,
 * a failure), at whatever step (scripts/n8n/childProcesses.ts).
 */

const N8N_PORT = Number(process.env.N8N_PORT ?? 5678);
const BROKER_PORT = Number(process.env.N8N_RUNNERS_BROKER_PORT ?? N8N_PORT + 1001);
const STAND_IN_PORT = Number(process.env.SANDBOX_PORT ?? 5680);
// Another folder than .n8n-local/: the start script's own tests, which must not touch a person's.
const LOCAL_FOLDER = process.env.CHAT_MESSAGING_LOCAL_FOLDER ?? join(PROJECT_ROOT, '.n8n-local');
const STATE_FILE = join(LOCAL_FOLDER, 'start-state.json');
/** This `npm start`'s pid while it runs: a second one of the same project says so and stops. */
const RUNNING_FILE = join(LOCAL_FOLDER, 'start.pid');
/** n8n's pid while it runs: found alive by a later start, it was left by one that was killed. */
const N8N_PID_FILE = join(LOCAL_FOLDER, 'n8n.pid');
const OWNER_EMAIL = 'owner@example.com';

interface LocalState {
	password: string;
	apiKey?: string;
	standInApiKey: string;
	webhookSecret: string;
	/** Each example as last imported, to tell a person's edits from the example as shipped. */
	examples?: Partial<Record<ExampleName, string>>;
	/** Each example file as last imported, to say when a file under examples/ was edited. */
	exampleFiles?: ExampleFileHashes;
}

const say = (line: string) => console.log(`[start] ${line}`);

/** A failure whose message is the whole story: printed without a stack. */
class StartRefused extends Error {}

/** Secrets made once and kept, so a second run reuses the owner, credential and trigger secret. */
function loadState(): LocalState {
	if (existsSync(STATE_FILE)) return JSON.parse(readFileSync(STATE_FILE, 'utf8')) as LocalState;
	const state: LocalState = newLocalSecrets();
	writePrivateFile(STATE_FILE, JSON.stringify(state, null, 2));
	return state;
}

function saveState(state: LocalState) {
	writePrivateFile(STATE_FILE, JSON.stringify(state, null, 2));
}

/** Every port is checked before anything starts, so none fails later as a bare EADDRINUSE. */
async function checkPorts(): Promise<void> {
	const problems = await portsInUse([
		{ port: N8N_PORT, purpose: "n8n's editor and API", variable: 'N8N_PORT' },
		{ port: BROKER_PORT, purpose: "n8n's task runner broker", variable: 'N8N_RUNNERS_BROKER_PORT' },
		{ port: STAND_IN_PORT, purpose: 'the stand-in service', variable: 'SANDBOX_PORT' },
	]);
	if (problems.length > 0) throw new StartRefused(problems.join('\n'));
}

/** `npm run build` (scripts/n8n/build.ts), unless told to use dist/ as it is. */
async function build(): Promise<void> {
	if (process.env.CHAT_MESSAGING_SKIP_BUILD === '1') {
		say('not building (CHAT_MESSAGING_SKIP_BUILD=1): using dist/ as it is');
		return;
	}
	await buildPackage(LOCAL_FOLDER, say);
}

/** What went wrong, in one [start] message: a command that already showed its words names itself. */
function failureMessage(error: unknown): string {
	if (error instanceof CommandFailed && error.shown)
		return `${error.summary} (its words are above)`;
	return error instanceof Error ? error.message : String(error);
}

async function main(): Promise<void> {
	const reportTo = reportToOrExit();
	keepLocalFilesPrivate([LOCAL_FOLDER, process.env.CHAT_MESSAGING_DEV_N8N_FOLDER]);
	ownProcessGroups();
	let standIn: StandInService | undefined;
	let n8n: RealN8n | undefined;
	let claimed = false;
	const { stop, stopping } = stopOnSignals(async (cause) => {
		const what = runningProcesses().map((p) => `${p.name} (pid ${p.child.pid})`);
		if (standIn) what.push('the stand-in service');
		const why =
			cause === 'parent-ended' ? 'npm, which ran this, has ended: ' : cause ? `${cause}: ` : '';
		say(`${why}stopping ${what.length > 0 ? what.join(', ') : 'nothing (nothing had started)'}`);
		// n8n first, from its own handle, then whatever else is still running (a build, an install).
		await n8n?.stop();
		await endAllStarted(say);
		await standIn?.close();
		if (claimed) rmSync(RUNNING_FILE, { force: true });
		say('stopped');
	});

	try {
		const refused = await claimThisProject({
			runningFile: RUNNING_FILE,
			n8nPidFile: N8N_PID_FILE,
			port: N8N_PORT,
			say,
		});
		if (refused) throw new StartRefused(refused);
		claimed = true;
		await checkPorts();
		await build();
		const state = loadState();
		// Loaded only now: the stand-in reads the whole contract, seconds that the checks above,
		// which refuse before anything starts, need not wait for.
		const { startStandInService } = await import('../sandbox/server');
		standIn = await startStandInService({
			apiKey: state.standInApiKey,
			port: STAND_IN_PORT,
			refuseUnknownTemplates: true,
			// The local n8n's pages may call it; a page of any other origin is refused (sandbox/localCallers.ts).
			allowedOrigins: [`http://127.0.0.1:${N8N_PORT}`, `http://localhost:${N8N_PORT}`],
		}).catch((error: NodeJS.ErrnoException) => {
			if (error.code !== 'EADDRINUSE') throw error;
			throw new StartRefused(
				`port ${STAND_IN_PORT} (the stand-in service) was taken while the package was built. Stop that program, or choose another port: SANDBOX_PORT=<free port> npm start`,
			);
		});
		say(`stand-in service on ${standIn.url}`);
		n8n = await bootN8nWithPackage({
			userFolder: join(LOCAL_FOLDER, 'n8n'),
			port: N8N_PORT,
			brokerPort: BROKER_PORT,
			owner: {
				email: OWNER_EMAIL,
				password: state.password,
				firstName: 'Local',
				lastName: 'Owner',
			},
			previousApiKey: state.apiKey,
			say,
			installLog: join(LOCAL_FOLDER, 'install.log'),
			pidFile: N8N_PID_FILE,
		});
		state.apiKey = n8n.session.apiKey;
		saveState(state);

		say('creating credentials and importing the example workflows');
		const examples = await provisionExamples(n8n, {
			standInUrl: standIn.url,
			standInApiKey: state.standInApiKey,
			webhookSecret: state.webhookSecret,
			keepEditsSince: state.examples ?? {},
		});
		state.examples = examples.fingerprints;
		const exampleFiles = noteExampleFileChanges(state.exampleFiles, examples.kept);
		state.exampleFiles = exampleFiles.imported;
		saveState(state);
		for (const name of examples.kept) {
			say(
				`kept your edits to "${examples.workflows[name].workflow.name}" (it differs from what npm start last imported); ` +
					`to get examples/${EXAMPLE_FILES[name]} as shipped, rename or delete that workflow in n8n and run npm start again`,
			);
		}
		// Every template the stand-in accepts is followed by delivery reports to the trigger example,
		// with its secret; so is a webhook asked of the stand-in's control API without url or auth.
		pointStandInAtTrigger(standIn, examples, state.webhookSecret, reportTo);

		console.log(
			startSummary({
				editorUrl: n8n.baseUrl,
				ownerEmail: OWNER_EMAIL,
				password: state.password,
				formUrl: examples.formUrl,
				firstExampleUrl: `${n8n.baseUrl}/workflow/${examples.workflows.formToSendTemplate.id}`,
				refundRequestUrl: examples.refundRequestUrl,
				standInUrl: standIn.url,
				standInApiKey: state.standInApiKey,
				n8nLogFile: n8n.options.logFile,
				triggerWorkflowName: examples.workflows.deliveryStatusBranch.workflow.name,
				productionUrl: examples.triggerUrl,
				testUrl: examples.triggerTestUrl,
				webhookSecret: state.webhookSecret,
				reportTo,
				changedExamples: exampleFiles.changes,
				notActive: Object.entries(examples.notActive).map(([name, reason]) => ({
					workflowName: examples.workflows[name as ExampleName].workflow.name,
					reason,
				})),
			}),
		);
	} catch (error) {
		// Stopped by the person (Ctrl-C, a closed terminal, kill): the step under way (the build, the
		// n8n install) ends with it, and the stop says so ("[start] stopped"); that end is no failure.
		if (stopping()) return;
		say(failureMessage(error));
		await stop(1);
	}
}

void main();
