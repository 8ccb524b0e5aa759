/*
 * Send Template and Wait for Response with Continue On Fail: the execution waits for an answer only
 * when the send was confirmed (the service queued this message). Whatever else the service answered,
 * the item goes on at once, carrying what happened to the message. A 2xx about another contact or
 * template ("may have been sent", not this send's confirmation) made the run wait all the same, and
 * the item it left waiting said nothing of the failure: after the wait it came out as "answered:
 * false", the "may have been sent" lost.
 */

import type { FaultSpec } from '../../../sandbox/faults';
import { useStandInService } from '../../helpers/standInFixture';
import { askAdaForRefundApproval } from '../../helpers/refundApproval';

const API_KEY = 'adv3-send-and-wait-key-SECRET-93d1';
const service = useStandInService({ apiKey: API_KEY });
jest.setTimeout(120_000);

const EVENTS = '/api/v1/events';
const PHONE = '+14155550123';

const sendAndWait = () => askAdaForRefundApproval(service, API_KEY, PHONE);

/** What the service may answer the send, and whether that confirms this message was queued. */
const answers: Array<{ name: string; fault?: FaultSpec; confirmed: boolean }> = [
	{ name: 'queued', confirmed: true },
	{ name: 'refused', fault: { status: 422, path: EVENTS }, confirmed: false },
	{ name: 'failed', fault: { status: 500, path: EVENTS }, confirmed: false },
	{ name: 'connection reset', fault: { reset: true, path: EVENTS }, confirmed: false },
	{
		name: '201 about another contact',
		fault: {
			status: 201,
			body: { event_type: 'send_template_message', contact: { phone_number: '+14155559999' } },
			path: EVENTS,
		},
		confirmed: false,
	},
	{
		name: '201 about another template',
		fault: {
			status: 201,
			body: { template_message: { chat_template_id: 'wat_1a2b3c4d5e6f7081' } },
			path: EVENTS,
		},
		confirmed: false,
	},
];

test('a 201 about another contact: the item goes on at once as "may have been sent", without waiting', async () => {
	service.injectFaults(answers[4].fault!);
	const result = await sendAndWait();
	expect(result.error).toBeUndefined();
	expect(result.run.status).not.toBe('waiting');
	expect(result.run.waitTill).toBeUndefined();
	expect(result.output).toEqual([
		{
			json: expect.objectContaining({
				outcome: 'may have been sent',
				error: expect.stringMatching(/\+14155559999/),
			}),
			pairedItem: { item: 0 },
		},
	]);
});

// Every answer, each once: a random draw over six answers left one out about once in 40 runs.
test.each(answers)(
	'$name: the run waits exactly when the send was confirmed, and an unconfirmed item says what happened',
	async ({ fault, confirmed }) => {
		service.clearFaults();
		if (fault) service.injectFaults(fault);
		const result = await sendAndWait();
		expect(result.error).toBeUndefined();
		expect(result.run.status === 'waiting').toBe(confirmed);
		expect(result.output).toHaveLength(1);
		const [item] = result.output!;
		expect(item.pairedItem).toEqual({ item: 0 });
		if (confirmed) expect(item.json).toMatchObject({ answered: false, customer: 'Ada' });
		else expect(['not sent', 'may have been sent']).toContain(item.json.outcome);
	},
);
