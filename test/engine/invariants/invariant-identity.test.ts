/*
 * Identity: for any 2xx answer about another object than the one asked for (or, for a status change,
 * the object still in a status the change does not lead to), the item fails and says so: a read as
 * "not sent" (nothing changed), a change as "may have been sent" (never repeated).
 *
 * Was: Cancel, Archive and Pause (and Broadcast → Get, Order → Get, Contact → Get and Update) took
 * any answer with the right shape: "archived" was reported for an answer about another broadcast, or one still queued.
 */
import fc from 'fast-check';

import { outcomesWithContinueOnFail } from '../../helpers/continueOnFailOutcomes';
import type { FaultSpec } from '../../../sandbox/faults';
import { useStandInService } from '../../helpers/standInFixture';
import { readBeforeChange } from '../../helpers/templateRuns';

const API_KEY = 'invariant-identity-key-SECRET-4e6d';
const service = useStandInService({ apiKey: API_KEY });
jest.setTimeout(60_000);

interface Case {
	resource: string;
	operation: string;
	/** The parameter holding the id, and the prefix ids of this kind have. */
	idParameter: string;
	prefix: string;
	/** The id asked for, from a generated tail of digits: prefix + tail unless said. */
	toId?: (tail: string) => string;
	path: (id: string) => string;
	/** Other parameters the operation needs. */
	parameters?: Record<string, unknown>;
	/** A valid answer about `id` in `status`, as the service would shape it. */
	answer: (id: string, status: string) => Record<string, unknown>;
	/** The status the request leads to (any, for a read), and statuses it does not. */
	goodStatus: string;
	badStatuses: string[];
	outcome: 'not sent' | 'may have been sent';
	/** The answer to a read the operation makes first, about `id` itself, before its own request. */
	readFirst?: (id: string) => FaultSpec;
}

const broadcast = (id: string, status: string) => ({ id, name: 'Spring sale', status });
const template = (id: string, status: string) => ({
	id,
	template_name: 'order_update',
	language: 'en',
	status,
});
const order = (id: string, status: string) => ({ id, status, total_amount: 1200 });

const cases: Case[] = [
	...(['cancel', 'archive'] as const).map(
		(operation): Case => ({
			resource: 'broadcast',
			operation,
			idParameter: 'broadcastId',
			prefix: 'cmp_',
			path: (id) => `/api/v1/broadcasts/${id}/${operation}`,
			answer: broadcast,
			goodStatus: operation === 'cancel' ? 'draft' : 'archived',
			badStatuses:
				operation === 'cancel' ? ['queued', 'sending', 'sent'] : ['draft', 'sent', 'queued'],
			outcome: 'may have been sent',
		}),
	),
	{
		resource: 'broadcast',
		operation: 'get',
		idParameter: 'broadcastId',
		prefix: 'cmp_',
		path: (id) => `/api/v1/broadcasts/${id}`,
		answer: broadcast,
		goodStatus: 'sent',
		badStatuses: [],
		outcome: 'not sent',
	},
	...(
		[
			['archive', 'archive', 'approved', 'archived', ['approved', 'draft', 'rejected']],
			['pause', 'pause', 'approved', 'paused', ['approved']],
			['submitForApproval', 'submit', 'draft', 'pending', ['draft']],
		] as const
	).map(
		([operation, action, before, goodStatus, badStatuses]): Case => ({
			resource: 'template',
			operation,
			idParameter: 'templateId',
			prefix: 'wat_',
			path: (id) => `/api/v1/whats_app_templates/${id}/${action}`,
			answer: template,
			goodStatus,
			badStatuses: [...badStatuses],
			outcome: 'may have been sent',
			// Every template change reads the template first; that read answers the template asked for.
			readFirst: (id) => readBeforeChange(id, template(id, before)),
		}),
	),
	{
		resource: 'order',
		operation: 'get',
		idParameter: 'orderId',
		prefix: 'wa_ord_',
		path: (id) => `/api/v1/orders/${id}`,
		answer: order,
		goodStatus: 'completed',
		badStatuses: [],
		outcome: 'not sent',
	},
	...(['get', 'update'] as const).map(
		(operation): Case => ({
			resource: 'contact',
			operation,
			idParameter: 'phoneNumber',
			prefix: '+1415555',
			toId: (tail) => `+1415555${tail.slice(-4)}`,
			path: (id) => `/api/v1/contacts/${encodeURIComponent(id)}`,
			parameters: operation === 'update' ? { updateFields: { name: 'Ada' } } : {},
			answer: (id) => ({ id: 'ct_0123456789abcdef', phone_number: id, name: 'Ada' }),
			goodStatus: 'any',
			badStatuses: [],
			outcome: operation === 'get' ? 'not sent' : 'may have been sent',
		}),
	),
	{
		resource: 'contact',
		operation: 'createOrUpdate',
		idParameter: 'phoneNumber',
		prefix: '+1415555',
		toId: (tail) => `+1415555${tail.slice(-4)}`,
		path: () => '/api/v1/contacts',
		parameters: { additionalFields: { name: 'Ada' } },
		answer: (id) => ({ id: 'ct_0123456789abcdef', phone_number: id, name: 'Ada' }),
		goodStatus: 'any',
		badStatuses: [],
		outcome: 'may have been sent',
	},
	{
		resource: 'conversation',
		operation: 'updateStatus',
		idParameter: 'conversationId',
		prefix: 'conv_',
		path: (id) => `/api/v1/conversations/${id}`,
		parameters: { status: 'closed' },
		answer: (id, status) => ({ id, status }),
		goodStatus: 'closed',
		badStatuses: ['open', 'pending'],
		outcome: 'may have been sent',
	},
];

async function runAgainst(kase: Case, id: string, answer: Record<string, unknown>) {
	const outcomes = await outcomesWithContinueOnFail(service, API_KEY, {
		faults: [
			...(kase.readFirst === undefined ? [] : [kase.readFirst(id)]),
			{ status: 200, body: answer, path: kase.path(id) },
		],
		items: [{}],
		parameters: {
			resource: kase.resource,
			operation: kase.operation,
			[kase.idParameter]: id,
			...kase.parameters,
		},
	});
	expect(outcomes).toHaveLength(1);
	return outcomes[0];
}

const idTail = fc.stringMatching(/^[0-9]{4,10}$/);

test.each(cases.map((kase) => [`${kase.resource} → ${kase.operation}`, kase] as const))(
	'%s: an answer about another object, or in a status the request does not lead to, fails the item',
	async (_name, kase) => {
		await fc.assert(
			fc.asyncProperty(
				idTail,
				idTail,
				fc.constantFrom(...(kase.badStatuses.length ? kase.badStatuses : [kase.goodStatus])),
				fc.boolean(),
				async (asked, other, badStatus, anotherObject) => {
					const toId = kase.toId ?? ((tail: string) => `${kase.prefix}${tail}`);
					const id = toId(asked);
					fc.pre(id !== toId(other));
					const wrong =
						anotherObject || kase.badStatuses.length === 0
							? kase.answer(toId(other), kase.goodStatus)
							: kase.answer(id, badStatus);
					const item = await runAgainst(kase, id, wrong);
					expect(item).toMatchObject({ outcome: kase.outcome });
					expect(String(item.error)).toContain(id);
				},
			),
			{ numRuns: 12 },
		);
		// The right answer still passes: the check is about identity, not a refusal of everything.
		const id = (kase.toId ?? ((tail: string) => `${kase.prefix}${tail}`))('5678');
		const item = await runAgainst(kase, id, kase.answer(id, kase.goodStatus));
		expect(item.error).toBeUndefined();
		expect(item).toMatchObject(kase.answer(id, kase.goodStatus));
	},
);
