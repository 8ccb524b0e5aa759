import type { IDataObject, INodeType } from 'n8n-workflow';

import { ChatMessagingTrigger } from '../../../nodes/ChatMessagingTrigger/ChatMessagingTrigger.node';
import { REPEATED_CALL } from '../../../nodes/ChatMessagingTrigger/webhookCall';
import { buildWebhookBody, webhookAuthHeaders, type WebhookAuth } from '../../../sandbox/webhooks';
import {
	startTriggerHarness,
	type PostResult,
	type TriggerHarness,
} from '../../helpers/triggerHarness';

/*
 * Issue 24.4: a correctly signed, timestamped call sent again within the tolerance window must not
 * start the workflow a second time. Calls cross a real socket into n8n-core's WebhookContext. A
 * "process" is a copy of the trigger's module loaded in its own registry; the database is the
 * workflow's static data, read for each call and written back whole after the trigger answered,
 * as n8n's LiveWebhooks does on main and on every webhook processor.
 */

jest.setTimeout(60_000);

const SECRET = 'replay-test-secret-7f3a91c2d4';
const TIMESTAMPED = { authentication: 'hmac', requireTimestamp: true };
const nowSeconds = () => Math.floor(Date.now() / 1000);

const harnesses: TriggerHarness[] = [];
afterAll(async () => {
	await Promise.all(harnesses.map((h) => h.close()));
});

async function harness(options: Parameters<typeof startTriggerHarness>[0] = {}) {
	const started = await startTriggerHarness({
		parameters: TIMESTAMPED,
		secret: SECRET,
		...options,
	});
	harnesses.push(started);
	return started;
}

/** The trigger as another n8n process has it: its own copy of every module. */
async function triggerOfAnotherProcess(): Promise<INodeType> {
	let nodeType: INodeType | undefined;
	await jest.isolateModulesAsync(async () => {
		const loaded = await import('../../../nodes/ChatMessagingTrigger/ChatMessagingTrigger.node');
		nodeType = new loaded.ChatMessagingTrigger();
	});
	expect(nodeType).not.toBeInstanceOf(ChatMessagingTrigger);
	return nodeType!;
}

/** One signed call: the same bytes and headers can be sent again. */
function signedCall(auth: Partial<Extract<WebhookAuth, { mode: 'hmac' }>> = {}) {
	const raw = JSON.stringify(buildWebhookBody('order', 'completed'));
	const headers = webhookAuthHeaders(raw, {
		mode: 'hmac',
		secret: SECRET,
		timestamp: nowSeconds(),
		...auth,
	});
	return { raw, headers };
}

const send = (h: TriggerHarness, call: { raw: string; headers: Record<string, string> }) =>
	h.post(call.raw, call.headers);

function expectStarted(result: PostResult) {
	expect(result.body).toEqual({ received: true, started: true });
	expect(result.call.workflowData).toHaveLength(1);
}

function expectIgnoredRepeat(result: PostResult) {
	expect(result.status).toBe(200);
	expect(result.body).toEqual({ received: true, started: false, reason: REPEATED_CALL });
	expect(result.call.workflowData).toBeUndefined();
}

describe('one process', () => {
	it('a signed, timestamped call sent again is received but starts nothing', async () => {
		const h = await harness();
		const call = signedCall();
		expectStarted(await send(h, call));
		expectIgnoredRepeat(await send(h, call));
		expectIgnoredRepeat(await send(h, call));
		// Another call in the same second is a new call.
		expectStarted(await send(h, signedCall()));
		expect(h.calls.filter((c) => c.workflowData !== undefined)).toHaveLength(2);
	});

	it('the same signature written another way (base64, sha256= prefix) is still a repeat', async () => {
		const h = await harness({ parameters: { ...TIMESTAMPED, signatureEncoding: 'base64' } });
		const timestamp = nowSeconds();
		const raw = JSON.stringify(buildWebhookBody('order', 'completed'));
		const sign = (prefix: boolean) =>
			webhookAuthHeaders(raw, {
				mode: 'hmac',
				secret: SECRET,
				timestamp,
				encoding: 'base64',
				prefix,
			});
		expectStarted(await h.post(raw, sign(false)));
		expectIgnoredRepeat(await h.post(raw, sign(true)));
		const urlSafe = sign(false);
		urlSafe['X-Signature-256'] = urlSafe['X-Signature-256']
			.replace(/\+/g, '-')
			.replace(/\//g, '_')
			.replace(/=+$/, '');
		expectIgnoredRepeat(await h.post(raw, urlSafe));
	});

	it('as n8n serves production calls (static data read and written per call): copies sent at once start one run', async () => {
		const database = { staticData: {} as IDataObject };
		const h = await harness({ database });
		const call = signedCall();
		const results = await Promise.all(Array.from({ length: 8 }, () => send(h, call)));
		expect(results.filter((r) => r.call.workflowData !== undefined)).toHaveLength(1);
		results.filter((r) => r.call.workflowData === undefined).forEach(expectIgnoredRepeat);
		// The record reached the database, for the other processes.
		expect(Object.keys(database.staticData).some((key) => key.startsWith('node:'))).toBe(true);
	});

	it('without Require Timestamp nothing tells a repeat from a new call: each starts (as documented)', async () => {
		const h = await harness({ parameters: { authentication: 'hmac' } });
		const raw = JSON.stringify(buildWebhookBody('order', 'completed'));
		const headers = webhookAuthHeaders(raw, { mode: 'hmac', secret: SECRET });
		expectStarted(await h.post(raw, headers));
		expectStarted(await h.post(raw, headers));
	});
});

describe('several webhook processors serving one workflow (one database)', () => {
	it('a repeat reaching another process after the first call was answered starts nothing', async () => {
		const database = { staticData: {} as IDataObject };
		const workflowId = 'wf-replays-across-processes';
		const first = await harness({ database, workflowId });
		const second = await harness({
			database,
			workflowId,
			nodeType: await triggerOfAnotherProcess(),
		});
		const third = await harness({
			database,
			workflowId,
			nodeType: await triggerOfAnotherProcess(),
		});

		const call = signedCall();
		expectStarted(await send(first, call));
		expectIgnoredRepeat(await send(second, call));
		expectIgnoredRepeat(await send(third, call));
		expectIgnoredRepeat(await send(first, call));

		const other = signedCall();
		expectStarted(await send(third, other));
		expectIgnoredRepeat(await send(first, other));
	});

	it("a record another process's write dropped is written back by the process that made it", async () => {
		const database = { staticData: {} as IDataObject };
		const workflowId = 'wf-replays-lost-write';
		const first = await harness({ database, workflowId });
		const second = await harness({
			database,
			workflowId,
			nodeType: await triggerOfAnotherProcess(),
		});

		const call = signedCall();
		expectStarted(await send(first, call));
		// What a concurrent write from another process does: the static data as it was before.
		database.staticData = {};
		expectStarted(await send(second, signedCall()));
		// The first process still knows the call, and its next write puts the record back.
		expectIgnoredRepeat(await send(first, call));
		expectStarted(await send(first, signedCall()));
		expectIgnoredRepeat(await send(second, call));
	});
});
