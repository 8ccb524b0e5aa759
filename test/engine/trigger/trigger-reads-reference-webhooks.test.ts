/*
 * Every webhook example the service's public reference prints (test/fixtures/reference/webhooks)
 * goes to the trigger through n8n's webhook layer over real HTTP, and the item it starts is checked
 * against docs/trigger.md: only the fields its Output table describes, and for the example's kind
 * the field that says what happened, the fields that say what it is about, the idempotency key and
 * what the service does not send (its _Fields by kind_ table). Issue 34, items 1, 2, 3 and 7.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	readReferenceWebhooks,
	readTriggerDoc,
	type ReferenceWebhook,
} from '../../helpers/referenceWebhooks';
import { startTriggerHarness, type TriggerHarness } from '../../helpers/triggerHarness';

jest.setTimeout(60_000);

const KIND_BY_PREFIX: Record<string, string> = {
	message_delivery: 'messageDelivery',
	order: 'order',
	flow_execution: 'flowExecution',
	ai_flow_execution: 'aiAgentExecution',
	ai_agent_execution: 'aiAgentExecution',
};

const references = readReferenceWebhooks();
const doc = readTriggerDoc();

/** What the page says happened: the type it lists the example under, after the dot. */
const listedAs = (reference: ReferenceWebhook) => reference.event.split('.')[1];
const listedKind = (reference: ReferenceWebhook) => KIND_BY_PREFIX[reference.event.split('.')[0]];

let harness: TriggerHarness;
const outputs = new Map<string, IDataObject>();

beforeAll(async () => {
	harness = await startTriggerHarness({ parameters: {} });
	for (const reference of references) {
		const result = await harness.post(JSON.stringify(reference.example));
		expect(result.body).toEqual({ received: true, started: true });
		outputs.set(reference.file, result.call.workflowData![0][0].json);
	}
});
afterAll(async () => {
	await harness.close();
});

test('the fixtures hold the 17 examples of the stored pages, of all four kinds', () => {
	expect(references).toHaveLength(17);
	expect(new Set(references.map(listedKind))).toEqual(
		new Set(['messageDelivery', 'order', 'flowExecution', 'aiAgentExecution']),
	);
	expect(Object.keys(doc.kinds).sort()).toEqual(
		['aiAgentExecution', 'flowExecution', 'messageDelivery', 'order'].sort(),
	);
});

describe.each(references.map((reference) => [reference.file, reference] as const))(
	'%s',
	(file, reference) => {
		const output = () => outputs.get(file)!;
		const row = () => doc.kinds[listedKind(reference)];

		test('starts a run with only fields docs/trigger.md describes', () => {
			expect(output().kind).toBe(listedKind(reference));
			for (const field of Object.keys(output())) expect(doc.fields).toContain(field);
		});

		test('says what happened as the page lists it, in the field the document names', () => {
			expect(output()[row().happened]).toBe(listedAs(reference));
		});

		test('names what it is about with the payload’s own values, never null', () => {
			for (const field of row().about) expect(output()[field]).not.toBeNull();
			const data = reference.example.data;
			const own: Record<string, unknown> = {
				messageId: data.message?.id,
				messageType: data.message?.type,
				orderId: data.id,
				executionId: data.id,
				agentId: data.id,
			};
			for (const field of row().about) expect(output()[field]).toBe(own[field]);
		});

		test('gives the contact the payload carries, and says what the service does not send', () => {
			expect(output().contactPhone).toBe(reference.example.data.contact?.phone_number ?? null);
			if (row().notSent.length === 0) expect(output()).not.toHaveProperty('notSent');
			else expect(output().notSent).toEqual(row().notSent);
		});
	},
);

test('the documented idempotency key tells apart every two different events, and only those', () => {
	// Two examples are one event when the page lists them under the same type, about the same object.
	const sameEvent = (a: ReferenceWebhook, b: ReferenceWebhook) =>
		a.event === b.event &&
		JSON.stringify(a.example.data.message?.id ?? a.example.data.id) ===
			JSON.stringify(b.example.data.message?.id ?? b.example.data.id) &&
		a.example.data.message?.type === b.example.data.message?.type;
	const keyOf = (reference: ReferenceWebhook) => {
		const output = outputs.get(reference.file)!;
		return JSON.stringify([output.kind, ...row(reference).key.map((field) => output[field])]);
	};
	const row = (reference: ReferenceWebhook) => doc.kinds[listedKind(reference)];
	const keyed = references.filter((reference) => row(reference).key.length > 0);
	expect(keyed.length).toBeGreaterThan(0);
	for (const a of keyed) {
		for (const b of keyed) {
			if (a === b) continue;
			expect([a.file, b.file, keyOf(a) === keyOf(b)]).toEqual([a.file, b.file, sameEvent(a, b)]);
		}
	}
});

test('AI agent events have no key: the document says none, as their payloads cannot be told apart', () => {
	const agents = references.filter((reference) => listedKind(reference) === 'aiAgentExecution');
	expect(doc.kinds.aiAgentExecution.key).toEqual([]);
	// Two conversations of one agent escalated: the service sends the same payload twice.
	const escalated = agents.find((reference) => reference.event.endsWith('.escalated'))!;
	expect(escalated.example.data).not.toHaveProperty('contact');
	expect(outputs.get(escalated.file)).not.toHaveProperty('executionId');
});
