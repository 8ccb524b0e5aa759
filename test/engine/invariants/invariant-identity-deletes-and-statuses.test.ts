/*
 * Identity where invariant-identity.test.ts does not look: Media → Delete, Broadcast → Get Status and
 * Message → Get Status. For any 2xx answer about another object than the one asked for, the item
 * fails and says so (a read "not sent", a delete "may have been sent"); the right answer, in either
 * form of its id (42 or "42"), still passes.
 *
 * Was: Media → Delete put the answer's fields over its own, so a 200 about media 7 for a delete of
 * 42 came out as "id 7, deleted"; Get Status output another event's status as this one's.
 */
import fc from 'fast-check';

import { outcomesWithContinueOnFail } from '../../helpers/continueOnFailOutcomes';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'adv-account-identity-key-SECRET-5d18';
const service = useStandInService({ apiKey: API_KEY });
jest.setTimeout(60_000);

interface Case {
	name: string;
	parameters: (id: string) => Record<string, unknown>;
	toId: (tail: string) => string;
	path: (id: string) => string;
	/** The answer about `id`, with its id written as a number or as text where that is a choice. */
	answer: (id: string, asNumber: boolean) => Record<string, unknown>;
	outcome: 'not sent' | 'may have been sent';
	/** What the item shows once the right answer passed. */
	shows: (id: string) => Record<string, unknown>;
}

const event = (result: Record<string, unknown>) => (id: string) => ({
	id,
	status: 'processed',
	result,
});

const cases: Case[] = [
	{
		name: 'media → delete',
		parameters: (id) => ({ resource: 'media', operation: 'delete', mediaId: id }),
		toId: (tail) => `1${tail}`,
		path: (id) => `/api/v1/medias/${id}`,
		answer: (id, asNumber) => ({
			id: asNumber ? Number(id) : id,
			filename: 'menu.pdf',
			content_type: 'application/pdf',
		}),
		outcome: 'may have been sent',
		shows: () => ({ deleted: true }),
	},
	{
		name: 'broadcast → getStatus',
		parameters: (id) => ({ resource: 'broadcast', operation: 'getStatus', eventId: id }),
		toId: (tail) => `evt_${tail}`,
		path: (id) => `/api/v1/events/${id}`,
		answer: event({ type: 'campaign', id: 'cmp_5f2a9c1e7b3d4a60', name: 'Spring', status: 'sent' }),
		outcome: 'not sent',
		shows: (id) => ({ eventId: id, status: 'sent', broadcastId: 'cmp_5f2a9c1e7b3d4a60' }),
	},
	{
		name: 'message → getStatus',
		parameters: (id) => ({ resource: 'message', operation: 'getStatus', eventId: id }),
		toId: (tail) => `evt_${tail}`,
		path: (id) => `/api/v1/events/${id}`,
		answer: event({ type: 'template_message', id: 'cmsg_1', status: 'delivered' }),
		outcome: 'not sent',
		shows: (id) => ({ eventId: id, status: 'delivered', messageId: 'cmsg_1' }),
	},
	{
		// Polled by the message's own id, as Send Template's output allows: once processed, the event
		// names its message, which must be this one.
		name: 'message → getStatus by the message id',
		parameters: (id) => ({ resource: 'message', operation: 'getStatus', eventId: id }),
		toId: (tail) => `cmsg_${tail}`,
		path: (id) => `/api/v1/events/${id}`,
		answer: (id) => ({
			id: 'evt_0123456789abcdef',
			status: 'processed',
			result: { type: 'template_message', id, status: 'delivered' },
		}),
		outcome: 'not sent',
		shows: (id) => ({ status: 'delivered', messageId: id }),
	},
];

async function runAgainst(kase: Case, id: string, answer: Record<string, unknown>) {
	const outcomes = await outcomesWithContinueOnFail(service, API_KEY, {
		faults: { status: 200, body: answer, path: kase.path(id) },
		items: [{}],
		parameters: kase.parameters(id),
	});
	expect(outcomes).toHaveLength(1);
	return outcomes[0];
}

const idTail = fc.stringMatching(/^[0-9]{3,9}$/);

test.each(cases.map((kase) => [kase.name, kase] as const))(
	'%s: an answer about another object fails the item, naming the one asked for',
	async (_name, kase) => {
		await fc.assert(
			fc.asyncProperty(idTail, idTail, fc.boolean(), async (asked, other, asNumber) => {
				const id = kase.toId(asked);
				fc.pre(id !== kase.toId(other));
				const item = await runAgainst(kase, id, kase.answer(kase.toId(other), asNumber));
				expect(item).toMatchObject({ outcome: kase.outcome });
				expect(String(item.error)).toContain(id);
			}),
			{ numRuns: 12 },
		);
		for (const asNumber of [true, false]) {
			const id = kase.toId('5678');
			const item = await runAgainst(kase, id, kase.answer(id, asNumber));
			expect(item.error).toBeUndefined();
			expect(item).toMatchObject(kase.shows(id));
			// The id the item shows is the one asked for, in whichever form the answer wrote it.
			expect(String(item.id ?? '')).toBe(kase.name.endsWith('message id') ? item.eventId : id);
		}
	},
);

/*
 * Create Many: the service answers a batch with one contact (the spec's "single contact object").
 * An answer that is no contact of the batch ({} or another number's) says nothing of these contacts,
 * so the batch's items are "may have been sent", not created.
 */
describe('Contact → Create Many: the answer must be a contact of the batch', () => {
	const BATCH = ['+14155550123', '+14155550124', '+34612345678'];
	const createMany = async (answer: unknown) => {
		return await outcomesWithContinueOnFail(service, API_KEY, {
			faults: { status: 201, body: answer, path: '/subscribers' },
			items: BATCH.map((phone) => ({ phone })),
			parameters: {
				resource: 'contact',
				operation: 'createMany',
				contactFields: 'defineBelow',
				phoneNumber: '={{ $json.phone }}',
			},
		});
	};

	test('an answer about no contact of the batch fails every item of it', async () => {
		const otherNumber = fc
			.stringMatching(/^[2-9][0-9]{9}$/)
			.map((digits) => `+1${digits}`)
			.filter((phone) => !BATCH.includes(phone));
		await fc.assert(
			fc.asyncProperty(
				fc.oneof(
					fc.constant({}),
					fc.record({ id: fc.constant('ct_0123456789abcdef') }),
					otherNumber.map((phone) => ({ id: 'ct_0123456789abcdef', phone_number: phone })),
				),
				async (answer) => {
					const items = await createMany(answer);
					expect(items).toHaveLength(BATCH.length);
					for (const item of items) {
						expect(item).toMatchObject({ outcome: 'may have been sent' });
						expect(item.created).toBeUndefined();
					}
				},
			),
			{ numRuns: 10 },
		);
	});

	test('an answer about one of its contacts passes, whichever', async () => {
		for (const phone of BATCH) {
			const items = await createMany({ id: 'ct_0123456789abcdef', phone_number: phone });
			for (const item of items) expect(item).toMatchObject({ created: true });
		}
	});
});
