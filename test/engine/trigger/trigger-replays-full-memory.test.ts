import { createHash } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

import { MAX_REMEMBERED_CALLS } from '../../../nodes/ChatMessagingTrigger/replays';
import { buildWebhookBody, webhookAuthHeaders } from '../../../sandbox/webhooks';
import {
	TRIGGER_NODE_NAME,
	startTriggerHarness,
	type TriggerHarness,
} from '../../helpers/triggerHarness';

/*
 * The replay memory keeps the newest MAX_REMEMBERED_CALLS calls of the window. A busy service (a
 * broadcast's delivery events) fills it; a call that then arrives late, with a timestamp older
 * than every remembered one, must still start the workflow at most once: a copy of it sent again
 * inside the window must not start a second run.
 */

jest.setTimeout(60_000);

const SECRET = 'replay-full-memory-secret-51c0e9';
const nowSeconds = () => Math.floor(Date.now() / 1000);

const harnesses: TriggerHarness[] = [];
afterAll(async () => {
	await Promise.all(harnesses.map((h) => h.close()));
});

/** The database as n8n holds it after MAX_REMEMBERED_CALLS calls signed in the last minute. */
function databaseOfABusyTrigger(now: number): { staticData: IDataObject } {
	const remembered = Object.fromEntries(
		Array.from({ length: MAX_REMEMBERED_CALLS }, (_, n) => [
			createHash('sha256').update(`earlier-${n}`).digest().subarray(0, 16).toString('base64url'),
			now - (n % 60),
		]),
	);
	return { staticData: { [`node:${TRIGGER_NODE_NAME}`]: { acceptedSignedCalls: remembered } } };
}

it('a late call older than every remembered one starts the workflow at most once, however often it is sent', async () => {
	const now = nowSeconds();
	const database = databaseOfABusyTrigger(now);
	const h = await startTriggerHarness({
		parameters: { authentication: 'hmac', requireTimestamp: true },
		secret: SECRET,
		database,
	});
	harnesses.push(h);

	const raw = JSON.stringify(buildWebhookBody('order', 'completed'));
	const headers = webhookAuthHeaders(raw, { mode: 'hmac', secret: SECRET, timestamp: now - 120 });
	const results = [];
	for (let copy = 0; copy < 3; copy++) results.push(await h.post(raw, headers));

	const started = results.filter((result) => result.call.workflowData !== undefined);
	expect(started.length).toBeLessThanOrEqual(1);
	for (const result of results) {
		if (result.call.workflowData !== undefined) continue;
		// Not started, and not told it was started: either a repeat of a started call, or refused.
		expect(result.body).toMatchObject({ started: false });
		if (started.length === 0) expect(result.body).toMatchObject({ received: false });
	}
});

it('a signed call refused for what the signature does not cover (its charset) is not remembered: sent again correctly, it starts', async () => {
	const h = await startTriggerHarness({
		parameters: { authentication: 'hmac', requireTimestamp: true },
		secret: SECRET,
		database: { staticData: {} },
	});
	harnesses.push(h);
	const raw = JSON.stringify(buildWebhookBody('order', 'completed'));
	const signed = webhookAuthHeaders(raw, { mode: 'hmac', secret: SECRET, timestamp: nowSeconds() });

	const refused = await h.post(raw, {
		...signed,
		'Content-Type': 'text/plain; charset=latin1',
	});
	expect(refused.status).toBe(415);
	expect(refused.call.workflowData).toBeUndefined();

	const corrected = await h.post(raw, { ...signed, 'Content-Type': 'application/json' });
	expect(corrected.body).toEqual({ received: true, started: true });
	expect(corrected.call.workflowData).toHaveLength(1);
});
