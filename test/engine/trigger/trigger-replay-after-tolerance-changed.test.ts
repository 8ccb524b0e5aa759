import { buildWebhookBody, webhookAuthHeaders } from '../../../sandbox/webhooks';
import { startTriggerHarness, type TriggerHarness } from '../../helpers/triggerHarness';

/*
 * The owner narrows the Tolerance, a call arrives (the trigger forgets every call now outside the
 * narrower window), then widens it again. A copy of a call the trigger started before, older than
 * the narrow window but inside the wide one, passes the timestamp check again: it must not start a
 * second run. The same holds for a webhook processor whose clock is behind the one that forgot the
 * call (test/unit/trigger/trigger-replay-after-its-record-aged-out.property.test.ts).
 */

jest.setTimeout(60_000);

const SECRET = 'replay-tolerance-changed-secret-7f21a4';
const nowSeconds = () => Math.floor(Date.now() / 1000);

const harnesses: TriggerHarness[] = [];
afterAll(async () => {
	await Promise.all(harnesses.map((h) => h.close()));
});

test('a call started under a wide Tolerance, forgotten under a narrow one: its copy under the wide one starts nothing', async () => {
	// One workflow in n8n's database, its trigger published three times with three Tolerances.
	const database = { staticData: {} };
	const publish = async (toleranceSeconds: number) => {
		const h = await startTriggerHarness({
			parameters: {
				authentication: 'hmac',
				requireTimestamp: true,
				timestampToleranceSeconds: toleranceSeconds,
			},
			secret: SECRET,
			database,
			workflowId: 'tolerance-changed',
		});
		harnesses.push(h);
		return h;
	};
	const signed = (body: object, timestamp: number) => {
		const raw = JSON.stringify(body);
		return { raw, headers: webhookAuthHeaders(raw, { mode: 'hmac', secret: SECRET, timestamp }) };
	};
	// Signed 120 s ago: inside a 600 s window, outside a 30 s one, whatever the test's own pace.
	const earlier = signed(buildWebhookBody('order', 'completed'), nowSeconds() - 120);

	const wide = await publish(600);
	const first = await wide.post(earlier.raw, earlier.headers);
	expect(first.body).toEqual({ received: true, started: true });

	const narrow = await publish(30);
	const later = signed(buildWebhookBody('order', 'canceled'), nowSeconds());
	expect((await narrow.post(later.raw, later.headers)).body).toEqual({
		received: true,
		started: true,
	});
	// Under the narrow window the copy is refused by its timestamp.
	expect((await narrow.post(earlier.raw, earlier.headers)).status).toBe(403);

	const wideAgain = await publish(600);
	const copy = await wideAgain.post(earlier.raw, earlier.headers);
	expect(copy.call.workflowData).toBeUndefined();
	expect(copy.body).toMatchObject({ started: false });
});
