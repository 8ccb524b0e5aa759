import { z } from 'zod';

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

/** A JSON object of any shape; an answer that is not a JSON object is read as one without fields. */
const anyObject = z.object({}).passthrough();

/** 201, the request repeated: "queued for delivery". */
export const sendTemplateAnswer: PromisedAnswer = { statusCode: 201, body: anyObject };

/** 200 `{status, event_id}`, both required: the event id is how the hand-over is traced later. */
export const connectToAiAgentAnswer: PromisedAnswer = {
	statusCode: 200,
	body: z.object({ status: z.string().min(1), event_id: z.string().min(1) }).passthrough(),
};

/** 200 `{}`. */
export const assignAgentAnswer: PromisedAnswer = { statusCode: 200, body: anyObject };

/** 201 with a single contact object, whatever the batch size. */
export const createContactsAnswer: PromisedAnswer = { statusCode: 201, body: anyObject };
