/*
 * Issue 35, defect 1: Send Template and Wait for Response leaves an item waiting that n8n outputs
 * unchanged when the wait limit passes. It was the input item with `answered: false` written over
 * it, so an input's `data: {approved: true}` and `respondedAt` (an earlier approval in the same
 * workflow, or a form or webhook body that sent them) came out of a wait nobody answered looking
 * approved. Whatever the input carries, the answer fields of the item left waiting say only what
 * this wait got: nobody answered, no data, no time, this send's event. Run in n8n's engine against
 * the stand-in; the item checked is both the node's output and the one n8n keeps to resume with.
 */
import fc from 'fast-check';

import { runChatMessaging } from '../../helpers/engineHarness';
import { refundApprovalSendAndWait } from '../../helpers/refundApproval';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'send-and-wait-own-fields-key-SECRET-51d0';
const service = useStandInService({ apiKey: API_KEY });

async function waitWith(input: Record<string, unknown>) {
	const result = await runChatMessaging({
		items: [input],
		parameters: {
			...refundApprovalSendAndWait(),
			options: {
				limitWaitTime: {
					values: { limitType: 'afterTimeInterval', resumeAmount: 1, resumeUnit: 'hours' },
				},
			},
		} as never,
		baseUrl: service.url,
		apiKey: API_KEY,
		typeVersion: 2,
	});
	expect(result.error).toBeUndefined();
	expect(result.run.status).toBe('waiting');
	const [waiting] = result.output!;
	// What n8n outputs when the limit passes: the item it keeps to resume the node with.
	const kept = result.run.data.executionData!.nodeExecutionStack[0].data.main[0]![0];
	expect(kept).toEqual(waiting);
	return waiting.json;
}

/** The fields that say what this wait got (send-and-wait.md, "What comes out"). */
const ANSWER_FIELDS = [
	'answered',
	'data',
	'respondedAt',
	'event_id',
	'alreadySentKey',
	'alreadySentRecorded',
	'alreadySentRecordError',
];

test('an earlier approval on the input item does not come out of an unanswered wait as approved', async () => {
	const json = await waitWith({
		order: 'A-7',
		answered: true,
		data: { approved: true },
		respondedAt: '2026-11-27T09:00:00.000Z',
		event_id: 'evt_the_managers_message',
		alreadySentKey: 'not-this-send',
		alreadySentRecorded: true,
	});
	expect(json).toEqual({
		order: 'A-7',
		answered: false,
		event_id: expect.stringMatching(/^evt_/),
	});
	expect(json.event_id).not.toBe('evt_the_managers_message');
});

test('property: whatever the input item carries, the answer fields say only what this wait got', async () => {
	const anyJson = fc.jsonValue({ maxDepth: 2 });
	// Fields named like the node's own (any JSON value), beside any others.
	const input = fc
		.tuple(
			fc.dictionary(fc.constantFrom(...ANSWER_FIELDS), anyJson, { maxKeys: ANSWER_FIELDS.length }),
			fc.dictionary(
				fc
					.string({ minLength: 1, maxLength: 12 })
					.filter((key) => !ANSWER_FIELDS.includes(key) && key !== '__proto__'),
				anyJson,
				{ maxKeys: 4 },
			),
		)
		.map(([own, other]) => ({ ...other, ...own }));
	await fc.assert(
		fc.asyncProperty(input, async (given) => {
			const json = await waitWith(given);
			expect(json.answered).toBe(false);
			expect(json.data).toBeUndefined();
			expect(json.respondedAt).toBeUndefined();
			expect(json.event_id).toEqual(expect.stringMatching(/^evt_/));
			// Without Skip Items Already Sent the node has no word on a key.
			expect(json.alreadySentKey).toBeUndefined();
			expect(json.alreadySentRecorded).toBeUndefined();
			expect(json.alreadySentRecordError).toBeUndefined();
			// Every other field of the input goes on as it came, as JSON: a waiting execution is stored
			// as JSON, which writes -0 as 0.
			for (const [name, value] of Object.entries(given)) {
				if (!ANSWER_FIELDS.includes(name))
					expect(json[name]).toEqual(JSON.parse(JSON.stringify(value)));
			}
		}),
		// 25 runs: the defect put back fails on the first input that has `data` or `respondedAt`.
		{ numRuns: 25 },
	);
});
