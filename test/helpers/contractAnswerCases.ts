/*
 * What an answer the contract allows must say to be about the request the node made: the object
 * asked for, what the answer repeats of the request, which command's answer it is and with which
 * status. Shared by the property tests that serve generated answers (test/engine/contract/).
 */
import type { INode } from 'n8n-workflow';

import type { FaultSpec } from '../../sandbox/faults';
import type { StandInService } from '../../sandbox/server';
import type { GeneratedAnswer, RequestKind, Shape } from './answersFromContract';
import { runChatMessaging } from './engineHarness';
import type { OpenApiContract } from './openApiContract';
import { operations } from './validOperations';

type Json = GeneratedAnswer['body'];

/**
 * What an answer about the object asked for says: the parameter naming the object, the kind of id
 * it takes, the answer's field naming it, and the fields a change leaves as the request asked
 * (docs/openapi.yaml and the operation's docs: an archived broadcast is `archived`).
 */
export interface AboutTheObject {
	parameter: string;
	prefix: string;
	idField: string;
	alsoShows?: Record<string, Json>;
}

/** An object named by an ID of this prefix in `parameter`, answered with it in `id`. */
const byId = (
	parameter: string,
	prefix: string,
	alsoShows?: Record<string, Json>,
): AboutTheObject => ({ parameter, prefix, idField: 'id', ...(alsoShows && { alsoShows }) });
/** A contact, named by its phone number and answered with it in `phone_number`. */
const byPhoneNumber = (alsoShows?: Record<string, Json>): AboutTheObject => ({
	parameter: 'phoneNumber',
	prefix: '+',
	idField: 'phone_number',
	...(alsoShows && { alsoShows }),
});

export const ABOUT_THE_OBJECT: Record<string, AboutTheObject> = {
	'broadcast → get': byId('broadcastId', 'cmp_'),
	'broadcast → cancel': byId('broadcastId', 'cmp_', { status: 'draft' }),
	'broadcast → archive': byId('broadcastId', 'cmp_', { status: 'archived' }),
	'template → get': byId('templateId', 'wat_'),
	'template → update': byId('templateId', 'wat_', { category: 'MARKETING' }),
	'template → archive': byId('templateId', 'wat_', { status: 'archived' }),
	'template → pause': byId('templateId', 'wat_', { status: 'paused' }),
	'template → submitForApproval': byId('templateId', 'wat_', { status: 'pending' }),
	'order → get': byId('orderId', 'wa_ord_'),
	'conversation → updateStatus': byId('conversationId', 'conv_', { status: 'open' }),
	'media → delete': byId('mediaId', ''),
	'message → getStatus': byId('eventId', 'evt_'),
	'broadcast → getStatus': byId('eventId', 'evt_', { result: { type: 'campaign', id: 'cmp_1' } }),
	'contact → get': byPhoneNumber(),
	'contact → update': byPhoneNumber({ name: 'Ada' }),
	'contact → createOrUpdate': byPhoneNumber({ name: 'Ada' }),
	'contact → createMany': byPhoneNumber(),
};

/**
 * What an answer repeats of the request it answers, where the node checks it (the template, order
 * or refund asked for): an answer generated without it is about another request, and fails.
 */
export const REPEATS_THE_REQUEST: Record<string, Record<string, Json>> = {
	'template → create': { template_name: 'edge_probe', language: 'en' },
	'order → create': { reference_id: 'ref-1' },
	'order → refund': { order_id: 'wa_ord_1', amount: { value: 100, currency: 'USD' } },
	// The preference sent, and the number sent in one of the lists the contract requires.
	'contact → updateCommunicationPreference': {
		communication_preference: 'mute_all',
		updated: ['+14155550123'],
		not_found: [],
	},
};

/**
 * Which request each operation sends where an operation takes several, whose answer the document
 * names in `x-answer-by-event-type` (Connect Contact's `{status, event_id}`, required by the
 * service's reference; Assign Agent's `{}`) or `x-answer-by-request-shape` (one contact's upsert
 * answered with that contact).
 */
export const REQUEST_KIND: Record<string, RequestKind> = {
	'aiAgent → connectContact': { eventType: 'connect_to_ai_agent' },
	'conversation → assignAgent': { eventType: 'assign_agent' },
	'broadcast → launch': { eventType: 'send_broadcast' },
	'contact → createOrUpdate': { shape: 'object' },
};

/**
 * The success status of each command on `POST /api/v1/events` (one contract operation, sendEvent,
 * answering each command its own way: docs/failure-semantics.md, "201 for a send, 200 for the
 * others").
 */
export const COMMAND_STATUS: Record<string, number> = {
	'message → sendTemplate': 201,
	'broadcast → launch': 200,
	'aiAgent → connectContact': 200,
	'conversation → assignAgent': 200,
	'conversation → close': 200,
};

/** The object's id in the answer (each way it may be written), and what a change leaves. */
export function aboutTheObject(about: AboutTheObject, idForms: Array<string | number>): Shape {
	return idForms.map(
		(idInAnswer) => (body: Json) =>
			body !== null && typeof body === 'object' && !Array.isArray(body)
				? { ...body, ...about.alsoShows, [about.idField]: idInAnswer }
				: body,
	);
}

/** The request of an operation that is answered as generated: its last one. */
export interface AnsweredRequest {
	method: string;
	path: string;
	operationId: string;
	/**
	 * How many of the operation's earlier requests went to the same path with another method (a
	 * change's read of its template first): a fault on the path meets those first, so as many
	 * pass-throughs go before it (absent: none). A list's earlier pages are the answered request
	 * itself.
	 */
	earlierOnPath?: number;
}

/** Faults that let the stand-in answer the operation's earlier requests on the answered path. */
export function passEarlierOnPath({ path, earlierOnPath = 0 }: AnsweredRequest): FaultSpec[] {
	return Array.from({ length: earlierOnPath }, () => ({ path, delayMs: 0 }));
}

/**
 * Which request of each operation is answered, and which contract operation it is: found by
 * running each operation once against the stand-in (its last request: a send after its template
 * was read).
 */
export async function findAnsweredRequests(
	service: StandInService,
	apiKey: string,
	contract: OpenApiContract,
): Promise<Record<string, AnsweredRequest>> {
	const answered: Record<string, AnsweredRequest> = {};
	for (const [name, { parameters }] of Object.entries(operations)) {
		service.clearRequests();
		await runChatMessaging({
			items: [{}],
			parameters: parameters as INode['parameters'],
			baseUrl: service.url,
			apiKey,
			continueOnFail: true,
		});
		const last = service.requests.at(-1)!;
		const operation = contract.operationOf({ method: last.method, path: last.path });
		const earlierOnPath = service.requests
			.slice(0, -1)
			.filter((request) => request.path === last.path && request.method !== last.method).length;
		answered[name] = {
			method: last.method,
			path: last.path,
			operationId: operation!.operationId!,
			earlierOnPath,
		};
	}
	return answered;
}
