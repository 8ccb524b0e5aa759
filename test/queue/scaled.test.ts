import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { startStandInService } from '../../sandbox/server';
import { PROJECT_ROOT } from '../../scripts/n8n/install';
import { startTestCluster } from './harness';
import { SCALED_LAYOUT, type Scaled } from './scaledHarness';
import { sendAndWaitThroughTheBalancer } from './scaledSendAndWait';
import { throttledConcurrentSends, workerLostMidSend } from './scaledSends';
import { signedEventsThroughTheBalancer } from './scaledTrigger';

/*
 * Issue 29, the scaled layout (`npm run start:queue -- --scaled`): main, two workers, two webhook
 * processors and nginx in front, from scripts/queue/nginx-scaled.conf. The figures (goodput as a share
 * of the limit, how calls spread, the crash window) are printed and saved to
 * test-output/queue-scaled-figures.json; only correctness is asserted, never a time.
 */

/** The whole account's limit in the throttled scenario: low enough that two workers exceed it. */
const RATE_LIMIT = 100;

const log = (line: string) => {
	process.stderr.write(`[queue scaled] ${line}\n`);
};
/** The cluster, stand-in and credential are set in beforeAll, before any test reads them. */
const scaled = { figures: {}, log } as unknown as Scaled;

beforeAll(async () => {
	const started = Date.now();
	scaled.cluster = await startTestCluster(log, SCALED_LAYOUT);
	scaled.figures.clusterBootSeconds = Math.round((Date.now() - started) / 100) / 10;
	const apiKey = `scaled-${randomBytes(8).toString('hex')}`;
	scaled.standIn = await startStandInService({ apiKey, port: 0 });
	scaled.credential = {
		id: await scaled.cluster.main.upsertCredential('Scaled account', 'chatMessagingApi', {
			apiKey,
			baseUrl: scaled.standIn.url,
		}),
		name: 'Scaled account',
	};
}, 600_000);

afterAll(async () => {
	await scaled.cluster?.stop();
	await scaled.standIn?.close();
	mkdirSync(join(PROJECT_ROOT, 'test-output'), { recursive: true });
	writeFileSync(
		join(PROJECT_ROOT, 'test-output', 'queue-scaled-figures.json'),
		JSON.stringify(scaled.figures, null, 2),
	);
	log(`figures: ${JSON.stringify(scaled.figures, null, 2)}`);
}, 180_000);

afterEach(() => {
	scaled.standIn.setRateLimit(null);
	scaled.standIn.clearFaults();
	scaled.standIn.clearRequests();
});

test('trigger through nginx: 1,000 signed delivery events over both webhook processors start one run each; 10,000 repeats, with one processor restarted in the middle, start none', async () => {
	await signedEventsThroughTheBalancer(scaled, 1000, 20, 10);
}, 1_800_000);

test(`throttled, concurrent: two workflows send 2,000 messages each at once on both workers against ${RATE_LIMIT} requests/s for the account: none failed, none twice, each accepted once`, async () => {
	await throttledConcurrentSends(scaled, 2000, RATE_LIMIT);
}, 1_200_000);

test('one worker lost (SIGKILL) mid-send: the other keeps working, and the re-run on the other worker with Skip Items Already Sent sends only what the service never accepted, plus at most the in-flight window', async () => {
	await workerLostMidSend(scaled, {
		killed: 800,
		other: 800,
		killAfter: 150,
		requestsPerSecond: 40,
	});
}, 1_200_000);

test('one worker lost (SIGKILL) mid-send with Items That May Have Been Sent: Hold Back: the re-run sends no message twice, and lists every item held back as "may have been sent"', async () => {
	await workerLostMidSend(
		scaled,
		{ killed: 800, other: 800, killAfter: 150, requestsPerSecond: 40 },
		'holdBack',
	);
}, 1_200_000);

test('Send Template and Wait for Response through nginx: previews on either webhook processor record nothing, each press resumes its execution on a worker, one message per request', async () => {
	await sendAndWaitThroughTheBalancer(scaled, 6);
}, 600_000);
