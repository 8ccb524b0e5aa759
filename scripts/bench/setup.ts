import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

import type { N8nInstallation } from '../n8n/install';
import { installPackageTheUsersWay, packPackage, run, userEnvironment } from '../n8n/install';
import { makePrivateFolder } from '../n8n/privateFiles';
import { RealN8n, freePort } from '../n8n/real-n8n';
import { runBulk } from './bulkRuns';
import { endLeftoverN8n, onCleanUp } from './cleanup';
import type { Bench, BulkWorkflows, LiveBench } from './context';
import { ForeignLoad } from './cpuLoad';
import { BENCH_FOLDER, CONTACTS, PID_FILE, SENDS, WARM_UP_ITEMS, say } from './settings';
import { startStandIn } from './standIn';
import { createContactsCases, floorCase, sendTemplateCases, triggerCases } from './workflows';

/*
 * The stand-in and a real n8n with the package installed the user's way, on loopback ports the
 * kernel picks and in a user folder of its own; the credentials and every workflow imported and
 * active; each bulk workflow run once with a few items, so the figures that follow are warm.
 */

/** The bench n8n's owner: signed in again when n8n is restarted (phases/legacyEngine.ts). */
export const BENCH_OWNER = {
	email: 'bench@example.com',
	password: 'Bench-owner-password-1',
	firstName: 'Bench',
	lastName: 'Owner',
};

export async function startLiveBench(bench: Bench): Promise<LiveBench> {
	const apiKey = `bench-${randomBytes(12).toString('hex')}`;
	const webhookSecret = randomBytes(24).toString('hex');
	const foreignLoad = new ForeignLoad();
	const standIn = await startStandIn(apiKey);
	onCleanUp(() => standIn.stop());
	foreignLoad.ownPids.add(standIn.pid);
	say(`stand-in service on ${standIn.url}`);

	const n8n = await bootN8n(bench);
	foreignLoad.ownGroups.add(n8n.pid as number);

	await n8n.signInOwner(BENCH_OWNER);
	await n8n.useApiKey();
	const credential = async (name: string, type: string, data: Record<string, unknown>) => ({
		id: await n8n.upsertCredential(name, type, data),
		name,
	});
	const api = await credential('Chat Messaging (bench)', 'chatMessagingApi', {
		apiKey,
		baseUrl: standIn.url,
	});
	const headerAuth = await credential('Stand-in header auth (bench)', 'httpHeaderAuth', {
		name: 'Authorization',
		value: apiKey,
	});
	const webhookCredential = await credential(
		'Chat Messaging webhook (bench)',
		'chatMessagingWebhookApi',
		{ secret: webhookSecret },
	);
	const webhookHeaderAuth = await credential('Webhook node header auth (bench)', 'httpHeaderAuth', {
		name: 'X-Webhook-Secret',
		value: webhookSecret,
	});

	const importActive = async <T extends { workflow: Parameters<RealN8n['upsertWorkflow']>[0] }>(
		entry: T,
	) => {
		const id = await n8n.upsertWorkflow(entry.workflow);
		await n8n.activateWorkflow(id);
		return { ...entry, id };
	};
	const contacts = createContactsCases(CONTACTS, api, headerAuth, standIn.url);
	const sends = sendTemplateCases(SENDS, api, headerAuth, standIn.url);
	const bulk: BulkWorkflows = {
		contactsOurs: await importActive(contacts.ours),
		contactsHttp: await importActive(contacts.httpRequest),
		contactsOursAutomatic: await importActive(contacts.oursAutomatic),
		sendOurs: await importActive(sends.ours),
		sendOursSequential: await importActive(sends.oursSequential),
		sendHttp: await importActive(sends.httpRequest),
		sendOursFixed: await importActive(sends.oursFixedValues),
		sendOursAutomatic: await importActive(sends.oursAutomatic),
		sendHttpAsAutomatic: await importActive(sends.httpRequestAsAutomatic),
		sendFloor: await importActive(floorCase(SENDS, api)),
	};
	const triggers: LiveBench['triggers'] = [];
	for (const trigger of triggerCases(webhookCredential, webhookHeaderAuth, webhookSecret))
		triggers.push(await importActive(trigger));
	for (const entry of Object.values(bulk))
		await n8n.waitForProductionWebhook(`${n8n.baseUrl}/webhook/${entry.path}`);
	for (const trigger of triggers)
		await n8n.waitForProductionWebhook(`${n8n.baseUrl}${trigger.urlPath}`);

	const live: LiveBench = { ...bench, n8n, standIn, foreignLoad, bulk, triggers };
	say(`warming up every bulk workflow with ${WARM_UP_ITEMS} items`);
	for (const entry of Object.values(bulk))
		await runBulk(live, entry, `warm-up ${entry.key}`, WARM_UP_ITEMS);
	return live;
}

/** The bench's minimal node (floorNode/, phases/floor.ts), beside the package in n8n's nodes folder. */
async function installFloorNode(installation: N8nInstallation, nodesFolder: string): Promise<void> {
	const destination = join(BENCH_FOLDER, 'tarball');
	const out = await run('npm', ['pack', '--json', '--pack-destination', destination], {
		cwd: join(__dirname, 'floorNode'),
	});
	const [packed] = JSON.parse(out) as Array<{ filename: string }>;
	await run(
		'npm',
		['install', join(destination, packed.filename), '--no-audit', '--no-fund', '--loglevel=error'],
		{ cwd: nodesFolder, env: userEnvironment(installation) },
	);
}

/** A fresh n8n with the package packed and installed as users do; its boot time is a figure too. */
async function bootN8n({ installation, report }: Bench): Promise<RealN8n> {
	const userFolder = join(BENCH_FOLDER, 'n8n');
	endLeftoverN8n(userFolder);
	rmSync(BENCH_FOLDER, { recursive: true, force: true });
	// n8n's settings and database, for this user only (a fixed name under the shared temp folder).
	makePrivateFolder(userFolder);
	say('packing the package and installing it into the bench n8n the way users do');
	const tarball = await packPackage(join(BENCH_FOLDER, 'tarball'));
	const installed = await installPackageTheUsersWay(installation, userFolder, tarball);
	await installFloorNode(installation, join(installed, '..', '..'));
	const port = await freePort();
	say(`starting n8n on 127.0.0.1:${port} (user folder ${userFolder})`);
	const bootStarted = performance.now();
	const n8n = await RealN8n.start({
		installation,
		userFolder,
		port,
		brokerPort: await freePort(),
		logFile: join(BENCH_FOLDER, 'n8n.log'),
		readyTimeoutMs: 180_000,
		// With its start time and command: a later bench run ends it only if it is still this n8n.
		pidFile: PID_FILE,
	});
	const bootMs = performance.now() - bootStarted;
	onCleanUp(async () => {
		await n8n.stop();
		rmSync(PID_FILE, { force: true });
	});
	report.add(
		'footprint: n8n start-to-ready with the package (fresh database)',
		'ms',
		bootMs,
		'context only: most of it is n8n itself',
	);
	return n8n;
}
