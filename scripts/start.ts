import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { startStandInService, type StandInService } from '../sandbox/server';
import { bootN8nWithPackage } from './n8n/boot';
import { pointStandInAtTrigger, provisionExamples } from './n8n/examples';
import { PROJECT_ROOT } from './n8n/install';
import { newLocalSecrets, reportToOrExit, stopOnSignals } from './n8n/localRun';
import type { RealN8n } from './n8n/real-n8n';
import { startSummary } from './n8n/startSummary';

/*
 * `npm start` (after start.sh built the package): the stand-in service and a real n8n with this
 * package installed the user's way, an owner account, credentials pointing at the stand-in and the
 * examples imported, the trigger example active. Everything lives in .n8n-local/ (git-ignored), so a
 * second run signs in to the same owner and updates the same credentials and workflows.
 * REPORT_TO=test sends the stand-in's delivery reports to the trigger's test URL, so they show in
 * the editor while it listens; the default, production, lists them under Executions.
 */

const N8N_PORT = Number(process.env.N8N_PORT ?? 5678);
const STAND_IN_PORT = Number(process.env.SANDBOX_PORT ?? 5680);
const LOCAL_FOLDER = join(PROJECT_ROOT, '.n8n-local');
const STATE_FILE = join(LOCAL_FOLDER, 'start-state.json');
const OWNER_EMAIL = 'owner@example.com';

interface LocalState {
	password: string;
	apiKey?: string;
	standInApiKey: string;
	webhookSecret: string;
}

const say = (line: string) => console.log(`[start] ${line}`);

/** Secrets made once and kept, so a second run reuses the owner, credential and trigger secret. */
function loadState(): LocalState {
	mkdirSync(LOCAL_FOLDER, { recursive: true });
	if (existsSync(STATE_FILE)) return JSON.parse(readFileSync(STATE_FILE, 'utf8')) as LocalState;
	const state: LocalState = newLocalSecrets();
	writeFileSync(STATE_FILE, JSON.stringify(state, null, 2), { mode: 0o600 });
	return state;
}

async function main(): Promise<void> {
	const reportTo = reportToOrExit();
	const state = loadState();
	let standIn: StandInService | undefined;
	let n8n: RealN8n | undefined;
	const { stop } = stopOnSignals(async () => {
		say('stopping n8n and the stand-in service');
		await n8n?.stop();
		await standIn?.close();
	});

	try {
		standIn = await startStandInService({
			apiKey: state.standInApiKey,
			port: STAND_IN_PORT,
			refuseUnknownTemplates: true,
		});
		say(`stand-in service on ${standIn.url}`);
		n8n = await bootN8nWithPackage({
			userFolder: join(LOCAL_FOLDER, 'n8n'),
			port: N8N_PORT,
			brokerPort: N8N_PORT + 1001,
			owner: {
				email: OWNER_EMAIL,
				password: state.password,
				firstName: 'Local',
				lastName: 'Owner',
			},
			previousApiKey: state.apiKey,
			say,
			installLog: join(LOCAL_FOLDER, 'install.log'),
		});
		state.apiKey = n8n.session.apiKey;
		writeFileSync(STATE_FILE, JSON.stringify(state, null, 2), { mode: 0o600 });

		say('creating credentials and importing the example workflows');
		const examples = await provisionExamples(n8n, {
			standInUrl: standIn.url,
			standInApiKey: state.standInApiKey,
			webhookSecret: state.webhookSecret,
		});
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
				standInEndpoints: standIn.endpoints,
				n8nLogFile: n8n.options.logFile,
				triggerWorkflowName: examples.workflows.deliveryStatusBranch.workflow.name,
				productionUrl: examples.triggerUrl,
				testUrl: examples.triggerTestUrl,
				webhookSecret: state.webhookSecret,
				reportTo,
			}),
		);
	} catch (error) {
		console.error(error instanceof Error ? error.message : error);
		await stop(1);
	}
}

void main();
