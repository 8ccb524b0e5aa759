/*
 * Issue 35, defect 4: the node's own output fields could be overwritten by the service's answer
 * (Send Template copied the answer after its own `queued`, `status`, `phoneNumber`, `templateId`).
 * docs/failure-semantics.md ("Whose word each output field is") lists the fields the node owns in
 * every operation's output; this holds it for every operation: an answer whose objects carry extra
 * fields named like the node's own never changes them, and those fields of the answer are kept
 * (under `fromService`, or where the operation keeps the answer: `response`, `batchResponse`).
 *
 * The answers are the stand-in's own, processed as usual, with fields added on the way by a proxy
 * between the node and the stand-in: to the answer's object, and to every object in its lists (the
 * records of a page, a bulk answer's contacts). Each added value is an object no operation writes,
 * so finding it in a node-owned field would mean the answer's field passed for the node's; `error`
 * gets only values that say nothing went wrong (null, "", false, 0), which must never read as a
 * failure either.
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import fc from 'fast-check';

import { startStandInService, type StandInService } from '../../../sandbox/server';
import { createServiceParts } from '../../../sandbox/serviceParts';
import { SEEDED_BROADCASTS } from '../../../sandbox/service/broadcastSeeds';
import { DEFAULT_TIMINGS } from '../../../sandbox/service/clock';
import { SEEDED_ORDERS } from '../../../sandbox/service/orders';
import { runChatMessaging } from '../../helpers/engineHarness';
import { ADA, operations } from '../../helpers/validOperations';

const API_KEY = 'every-operation-owned-fields-SECRET-9c3d';
/** A fresh stand-in for every run: a create, an update or a delete done once can be done again. */
let service: StandInService | undefined;

/** docs/failure-semantics.md: the fields the node owns in every operation's output. */
const OWNED_EVERYWHERE = [
	'error',
	'outcome',
	'problem',
	'argument',
	'nextStep',
	'skipped',
	'alreadySentKey',
	'alreadySentRecorded',
	'alreadySentRecordError',
	'fromService',
];

/** docs/failure-semantics.md: each operation's own fields, and the verdict among them. */
const OWNED: Record<
	string,
	{ fields: string[]; verdict?: Record<string, unknown>; answerReplaced?: boolean }
> = {
	'message → sendTemplate': {
		fields: ['queued', 'status', 'phoneNumber', 'templateId', 'eventId', 'statusCode', 'retries'],
		verdict: { queued: true, status: 'queued' },
	},
	'aiAgent → connectContact': {
		fields: ['phoneNumber', 'aiAgentId', 'templateId', 'statusCode', 'retries'],
	},
	'conversation → assignAgent': {
		fields: ['assigned', 'contactName', 'phoneNumber', 'agentEmail', 'response', 'statusCode'],
		verdict: { assigned: true },
	},
	'conversation → close': {
		fields: ['closed', 'contactName', 'phoneNumber', 'response', 'statusCode', 'retries'],
		verdict: { closed: true },
	},
	'contact → createMany': {
		fields: ['created', 'contact', 'batch', 'statusCode', 'batchResponse', 'retries'],
		verdict: { created: true },
	},
	'contact → createOrUpdate': { fields: ['created'] },
	'contact → updateCommunicationPreference': {
		fields: ['batch', 'statusCode', 'retries', 'updated', 'notFound'],
		// Each item's own line of the answer replaces the batch's answer (updated or not found).
		answerReplaced: true,
	},
	'broadcast → launch': {
		fields: ['launched', 'name', 'templateId', 'deliveryMode', 'statusCode', 'retries'],
		verdict: { launched: true },
	},
	'message → getStatus': {
		fields: ['eventId', 'status', 'eventStatus', 'messageId', 'failureMessage', 'response'],
	},
	'broadcast → getStatus': {
		fields: ['eventId', 'status', 'eventStatus', 'broadcastId', 'templateId', 'response'],
	},
	'template → getMany': { fields: ['variables', 'headerMediaType', 'variableProblems'] },
	'template → get': { fields: ['variables', 'headerMediaType', 'variableProblems'] },
	'template → create': { fields: ['variables', 'headerMediaType', 'variableProblems'] },
	'template → update': { fields: ['variables', 'headerMediaType', 'variableProblems'] },
	'template → archive': { fields: ['variables', 'headerMediaType', 'variableProblems'] },
	'template → pause': { fields: ['variables', 'headerMediaType', 'variableProblems'] },
	'template → submitForApproval': { fields: ['variables', 'headerMediaType', 'variableProblems'] },
};

/** Names like the node's own that no operation owns: the service's, wherever they are. */
const LIKE_THE_NODES = ['data', 'answered', 'sent', 'accepted', 'launched', 'deleted', 'created'];

/** The fields the proxy adds to every object of the next answers. */
let added: Record<string, unknown> = {};
/**
 * The names the last answer's objects had before anything was added (the operation's own request
 * is the run's last; a send reads its template first): the contract's names, not extra ones.
 */
const answered = new Set<string>();

function withAdded(body: unknown): unknown {
	const decorate = (value: unknown): unknown => {
		if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
		for (const name of Object.keys(value)) answered.add(name);
		return { ...(value as object), ...added };
	};
	if (Array.isArray(body)) return body.map(decorate);
	if (body === null || typeof body !== 'object') return body;
	const top = decorate(body) as Record<string, unknown>;
	for (const [name, value] of Object.entries(top)) {
		if (Array.isArray(value)) top[name] = value.map(decorate);
	}
	return top;
}

let proxy: Server;
let proxyUrl: string;

beforeAll(async () => {
	proxy = createServer((incoming, outgoing) => {
		const target = new URL(incoming.url ?? '/', service!.url);
		const forward = httpRequest(
			target,
			{ method: incoming.method, headers: { ...incoming.headers, host: target.host } },
			(answer) => {
				const chunks: Buffer[] = [];
				answer.on('data', (chunk: Buffer) => chunks.push(chunk));
				answer.on('end', () => {
					let body = Buffer.concat(chunks);
					const headers = { ...answer.headers };
					const isJson = String(headers['content-type'] ?? '').includes('json');
					const status = answer.statusCode ?? 502;
					answered.clear();
					if (isJson && status >= 200 && status < 300 && body.length > 0) {
						body = Buffer.from(JSON.stringify(withAdded(JSON.parse(body.toString('utf8')))));
						headers['content-length'] = String(body.length);
					}
					outgoing.writeHead(status, headers).end(body);
				});
			},
		);
		forward.on('error', () => outgoing.writeHead(502).end());
		incoming.pipe(forward);
	});
	await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
	proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});

afterAll(async () => {
	proxy?.closeAllConnections();
	await new Promise((resolve) => proxy?.close(resolve));
});

/** The stand-in's clock, pinned and moved by a case that needs the service to have moved on. */
let clock = 0;

/**
 * Runs the operation through the proxy against a fresh stand-in, once `objectFirst` (if the
 * operation has one) has made or found the object it reads or changes and given its parameters.
 */
async function run(parameters: Record<string, unknown>, objectFirst?: ObjectFirst) {
	clock = Date.parse('2026-03-02T09:00:00.000Z');
	service = await startStandInService({
		apiKey: API_KEY,
		parts: createServiceParts({ now: () => clock }),
	});
	try {
		const made = objectFirst === undefined ? {} : await objectFirst(service);
		return await runChatMessaging({
			items: [{ phone: ADA }],
			parameters: { ...parameters, ...made } as never,
			baseUrl: proxyUrl,
			apiKey: API_KEY,
		});
	} finally {
		await service.close();
		service = undefined;
	}
}

/** Makes or finds an object at the stand-in and gives the parameters that name it. */
type ObjectFirst = (at: StandInService) => Promise<Record<string, unknown>>;

/** The node's own output for these parameters, straight from the stand-in (not through the proxy). */
async function straight(at: StandInService, parameters: Record<string, unknown>) {
	const result = await runChatMessaging({
		items: [{}],
		parameters: parameters as never,
		baseUrl: at.url,
		apiKey: API_KEY,
	});
	if (result.error !== undefined) throw result.error;
	return result.output![0].json;
}

/** order_update's variables, for a launch to an audience whose contacts have none of their own. */
const LAUNCH_VALUES = {
	templateVariablesInput: 'json',
	templateVariablesJson: JSON.stringify({
		order_number: 'A-7',
		order_status: 'back in stock',
		order_total: '10.00',
	}),
};
const launch = (extra: Record<string, unknown> = {}) => ({
	...operations['broadcast → launch'].parameters,
	...LAUNCH_VALUES,
	...extra,
});

/**
 * What the operations that read or change one object need first, at a fresh stand-in: a send's
 * event, a launch's event or broadcast, the seeded broadcasts and orders, a draft template, a
 * conversation of the seeded history (validOperations.ts names objects a fresh stand-in does not
 * have). Launch itself needs only its template's variables.
 */
const OBJECT_FIRST: Record<string, ObjectFirst> = {
	'message → getStatus': async (at) => ({
		eventId: (await straight(at, operations['message → sendTemplate'].parameters)).eventId,
	}),
	'broadcast → launch': async () => LAUNCH_VALUES,
	'broadcast → getStatus': async (at) => ({ eventId: (await straight(at, launch())).event_id }),
	'broadcast → get': async () => ({ broadcastId: SEEDED_BROADCASTS.springSale }),
	'broadcast → archive': async () => ({ broadcastId: SEEDED_BROADCASTS.springSale }),
	// Only a queued or scheduled broadcast can be cancelled: one scheduled, once its launch is processed.
	'broadcast → cancel': async (at) => {
		const launched = await straight(
			at,
			launch({ additionalFields: { scheduledLaunchTime: '2031-06-01T08:00:00Z' } }),
		);
		clock += DEFAULT_TIMINGS.eventProcessingMs;
		const status = await straight(at, {
			resource: 'broadcast',
			operation: 'getStatus',
			eventId: launched.event_id,
		});
		return { broadcastId: status.broadcastId };
	},
	// black_friday_teaser, a draft: only a draft or a rejected template can be submitted.
	'template → submitForApproval': async () => ({ templateId: 'wat_9203142536475869' }),
	'order → get': async () => ({ orderId: SEEDED_ORDERS.paid }),
	'order → refund': async () => ({ orderId: SEEDED_ORDERS.paid }),
	// A conversation of the seeded message history, the first the list gives.
	'conversation → updateStatus': async (at) => {
		const response = await fetch(`${at.url}/api/v1/conversations?per=1`, {
			headers: { authorization: API_KEY },
		});
		const { conversations } = (await response.json()) as { conversations: Array<{ id: string }> };
		return { conversationId: conversations[0].id };
	},
};

/** Where (key, value) is anywhere in the item but at its top: under fromService, response… */
function keptBelowTop(json: Record<string, unknown>, name: string, value: unknown): boolean {
	const search = (node: unknown): boolean => {
		if (node === null || typeof node !== 'object') return false;
		if (Array.isArray(node)) return node.some(search);
		const record = node as Record<string, unknown>;
		if (
			Object.prototype.hasOwnProperty.call(record, name) &&
			JSON.stringify(record[name]) === JSON.stringify(value)
		)
			return true;
		return Object.values(record).some(search);
	};
	return Object.values(json).some(search);
}

const cases = Object.entries(operations).map(
	([name, { parameters }]) => [name, parameters] as const,
);

describe.each(cases)('%s', (name, parameters) => {
	const owned = [...OWNED_EVERYWHERE, ...(OWNED[name]?.fields ?? [])];

	test('property: fields of the answer named like the node’s own never change the node’s fields', async () => {
		added = {};
		answered.clear();
		const plain = await run(parameters, OBJECT_FIRST[name]);
		// An answer without a body (Media → Delete's 204) has nothing to add fields to.
		const answerHasObjects = answered.size > 0;
		expect(plain.error).toBeUndefined();
		const baseline = plain.output!.map((item) => item.json);

		const marker = (field: string) =>
			fc.jsonValue({ maxDepth: 1 }).map((value) => ({ fromTheAnswer: field, value }) as unknown);
		// Extra fields only: a name the answer already has is the contract's (Update Communication
		// Preference's `updated` list), and changing it is another answer, not an extra field.
		const candidates = [...new Set([...owned, ...LIKE_THE_NODES])].filter(
			(field) => !answered.has(field),
		);
		const fields = fc
			.subarray(candidates, { minLength: 1 })
			.chain((chosen) =>
				fc.record(
					Object.fromEntries(
						chosen.map((field) => [
							field,
							field === 'error'
								? fc.constantFrom<unknown>(null, '', false, 0)
								: marker(field).map((value) => JSON.parse(JSON.stringify(value)) as unknown),
						]),
					),
				),
			);
		await fc.assert(
			fc.asyncProperty(fields, async (given) => {
				added = given;
				const result = await run(parameters, OBJECT_FIRST[name]);
				added = {};
				expect(result.error).toBeUndefined();
				const items = result.output!.map((item) => item.json);
				expect(items).toHaveLength(baseline.length);
				for (const json of items) {
					// Never a failure: no answer's `error`, whatever its value, reads as one.
					expect(json.error).toBeUndefined();
					expect(json.outcome).toBeUndefined();
					for (const [field, value] of Object.entries(given)) {
						if (owned.includes(field)) {
							if (field !== 'error') expect(json[field]).not.toEqual(value);
							// Kept, never dropped: under fromService or where the answer is kept.
							if (answerHasObjects && !OWNED[name]?.answerReplaced)
								expect(keptBelowTop(json, field, value)).toBe(true);
						}
					}
					for (const [field, value] of Object.entries(OWNED[name]?.verdict ?? {}))
						expect(json[field]).toEqual(value);
				}
			}),
			// 6 runs per operation (34 operations): Send Template's defect put back fails on the first
			// answer with `queued`, `status`, `phoneNumber` or `templateId`; `error` on the first with it.
			{ numRuns: 6 },
		);
	});
});
