/*
 * Webhook bodies generated from the `webhooks` schemas of docs/openapi.yaml (json-schema-faker,
 * its randomness drawn from fast-check) go to the trigger through n8n's webhook layer, and:
 * - no run starts with an output field docs/trigger.md's Output table does not describe;
 * - two different events are never indistinguishable in the fields docs/trigger.md gives as the
 *   idempotency key of their kind (its _Fields by kind_ table): change what the payload says
 *   happened, or the object it happened to, and the key changes.
 * Issue 34, item 7 over every body the contract allows, not only the reference's examples.
 */
import fc from 'fast-check';
import { JSONSchemaFaker } from 'json-schema-faker';
import type { IDataObject } from 'n8n-workflow';

import { readContractDocument } from '../../helpers/openApiContract';
import { readTriggerDoc } from '../../helpers/referenceWebhooks';
import { startTriggerHarness, type TriggerHarness } from '../../helpers/triggerHarness';

jest.setTimeout(120_000);

const SCHEMA_OF: Record<string, string> = {
	messageDelivery: 'MessageDeliveryWebhook',
	order: 'OrderWebhook',
	flowExecution: 'FlowExecutionWebhook',
	aiAgentExecution: 'AiAgentExecutionWebhook',
};
const KINDS = Object.keys(SCHEMA_OF);

const components = (readContractDocument() as { components: object }).components;
const doc = readTriggerDoc();

/** A small seeded generator (mulberry32), so a failing case replays from fast-check's seed. */
function seeded(seed: number): () => number {
	let state = seed | 0;
	return () => {
		state = (state + 0x6d2b79f5) | 0;
		let t = Math.imul(state ^ (state >>> 15), 1 | state);
		t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

function generate(kind: string, seed: number): IDataObject {
	JSONSchemaFaker.option({ random: seeded(seed), alwaysFakeOptionals: false });
	return JSONSchemaFaker.generate({
		$ref: `#/components/schemas/${SCHEMA_OF[kind]}`,
		components,
	}) as IDataObject;
}

const generatedBody = fc
	.record({ kind: fc.constantFrom(...KINDS), seed: fc.integer() })
	.map(({ kind, seed }) => ({ kind, body: generate(kind, seed) }));

let harness: TriggerHarness;
beforeAll(async () => {
	harness = await startTriggerHarness({ parameters: {} });
});
afterAll(async () => {
	await harness.close();
});

async function outputOf(body: IDataObject): Promise<IDataObject> {
	const result = await harness.post(JSON.stringify(body));
	expect(result.body).toEqual({ received: true, started: true });
	return result.call.workflowData![0][0].json;
}

const keyOf = (output: IDataObject) =>
	JSON.stringify([output.kind, ...doc.kinds[output.kind as string].key.map((f) => output[f])]);

test('no run starts with an output field docs/trigger.md does not describe', async () => {
	await fc.assert(
		fc.asyncProperty(generatedBody, async ({ kind, body }) => {
			const output = await outputOf(body);
			expect(output.kind).toBe(kind);
			for (const field of Object.keys(output)) expect(doc.fields).toContain(field);
		}),
		{ numRuns: 60 },
	);
});

/*
 * What makes two events of a kind different, in the payload's own words: the message (its type and
 * id) and its status for a delivery; the order and its status; the execution and the type's event
 * for a flow. Each change below alters exactly one of them, to a value another generated body has.
 */
const CHANGES: Record<string, Array<(body: any, other: any) => boolean>> = {
	messageDelivery: [
		(body, other) => replace(body.data.message, 'id', other.data.message.id),
		(body, other) => replace(body.data.message, 'status', other.data.message.status, sameStatus),
		(body) =>
			replace(
				body.data.message,
				'type',
				body.data.message.type === 'message' ? 'template_message' : 'message',
			),
	],
	order: [
		(body, other) => replace(body.data, 'id', other.data.id),
		(body, other) => replace(body.data, 'status', other.data.status, sameStatus),
	],
	flowExecution: [
		(body, other) => replace(body.data, 'id', other.data.id),
		(body, other) => replace(body, 'type', other.type, sameStatus),
	],
};

/** Statuses and types are read without case or surrounding spaces, as docs/trigger.md says. */
function sameStatus(a: unknown, b: unknown): boolean {
	return typeof a === 'string' && typeof b === 'string'
		? a.trim().toLowerCase() === b.trim().toLowerCase()
		: a === b;
}

/** Sets `holder[key]` to `value`; false when that would not change what the payload says. */
function replace(
	holder: any,
	key: string,
	value: unknown,
	same: (a: unknown, b: unknown) => boolean = (a, b) => a === b,
): boolean {
	if (value === undefined || same(holder[key], value)) return false;
	holder[key] = value;
	return true;
}

test('two different events are never indistinguishable in the documented idempotency key', async () => {
	const keyed = KINDS.filter((kind) => doc.kinds[kind].key.length > 0);
	expect(keyed.sort()).toEqual(Object.keys(CHANGES).sort());
	await fc.assert(
		fc.asyncProperty(
			fc.constantFrom(...keyed),
			fc.integer(),
			fc.integer(),
			fc.nat(),
			async (kind, seed, otherSeed, which) => {
				const body = generate(kind, seed);
				const changed = structuredClone(body);
				const change = CHANGES[kind][which % CHANGES[kind].length];
				fc.pre(change(changed, generate(kind, otherSeed)));
				const [first, second] = [await outputOf(body), await outputOf(changed)];
				expect(keyOf(first)).not.toBe(keyOf(second));
			},
		),
		{ numRuns: 80 },
	);
});
