import { z } from 'zod';
import { givenServiceId } from './serviceIds';

/*
 * Success answers the service promises for each command (docs/service-contract.md [S §4.1-4.4]). A
 * 2xx that differs is not taken as success. Only what the node relies on is required: a field the
 * service adds later is no failure.
 */

export interface PromisedAnswer {
	/** The success status, or each one the service may answer (201 created, 200 updated). */
	statusCode: number | readonly number[];
	body: z.ZodTypeAny;
}

/**
 * Every success status each endpoint may answer, by docs/openapi.yaml's operationId: one reading
 * per endpoint, taken by every operation on it (single and bulk, created and updated). Sources in
 * docs/service-contract.md, "Success statuses, one reading per endpoint": on the events endpoint
 * the interface names 201 (a send) and 200 (connect, assign), and a launch or a close is taken as
 * accepted (202) too; /subscribers 201 is the interface's, 200 is how the other upsert answers an
 * update; no source shows the statuses of an order, a refund or a conversation change.
 */
export const SUCCESS_STATUSES = {
	sendEvent: [200, 201, 202],
	createContacts: [200, 201],
	upsertContacts: [200, 201],
	getContact: [200],
	updateContact: [200],
	updateCommunicationPreferences: [200],
	updateConversationStatus: [200, 201, 202],
	createOrder: [200, 201, 202],
	getOrder: [200],
	refundOrder: [200, 201, 202],
	deleteMedia: [200, 204],
} as const satisfies Record<string, readonly number[]>;

/** A JSON object of any shape; an answer that is not a JSON object is read as one without fields. */
const anyObject = z.object({}).passthrough();

/** 201, the request repeated: "queued for delivery". */
export const sendTemplateAnswer: PromisedAnswer = {
	statusCode: SUCCESS_STATUSES.sendEvent,
	body: anyObject,
};

/** 200 `{status, event_id}`, both required: the event id is how the hand-over is traced later. */
export const connectToAiAgentAnswer: PromisedAnswer = {
	statusCode: SUCCESS_STATUSES.sendEvent,
	body: z.object({ status: z.string().min(1), event_id: givenServiceId }).passthrough(),
};

/** 200 `{}`. */
export const assignAgentAnswer: PromisedAnswer = {
	statusCode: SUCCESS_STATUSES.sendEvent,
	body: anyObject,
};

/** 201 with a single contact object, whatever the batch size. */
export const createContactsAnswer: PromisedAnswer = {
	statusCode: SUCCESS_STATUSES.createContacts,
	body: anyObject,
};
