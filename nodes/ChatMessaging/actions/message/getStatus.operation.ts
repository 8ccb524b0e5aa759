import type { IDataObject, IDisplayOptions, INodeProperties } from 'n8n-workflow';

import type { EventAnswer } from '../../../shared/schemas/messages';
import { idAsWritten } from '../../../shared/schemas/serviceIds';
import type { ServiceAnswer } from '../../../shared/transport';
import { optionsCollection, requestsInParallelField } from '../fields/requestOptions';
import type { PerItemOperation, PreparedRequest } from '../operationKinds';
import { eventRequest, notTheEventAsked, parseEvent } from './eventReading';

/*
 * `GET /api/v1/events/{event_id}` (docs/service-contract.md, "The operations named without detail"):
 * one request per item, so it can follow Send Template (or a Wait) for every item of a run.
 */

const displayOptions: IDisplayOptions = {
	show: { resource: ['message'], operation: ['getStatus'] },
};

const properties: INodeProperties[] = [
	{
		displayName: 'Event ID',
		name: 'eventId',
		type: 'string',
		required: true,
		// Send Template's output: its eventId; else the event_id or id of an answer read elsewhere.
		default: '={{ $json.eventId || $json.event_id || $json.id }}',
		placeholder: 'evt_0123456789abcdef',
		displayOptions,
		description:
			'The ID of the event to look up, as Send Template outputs it (its eventId). The default reads it from the input item.',
	},
	optionsCollection(displayOptions, [requestsInParallelField]),
];

/** IDs of other kinds, pasted where an event ID belongs. */
const NOT_AN_EVENT = [
	['wat_', 'a template ID'],
	['aiflw_', 'an AI agent ID'],
	['cmp_', 'a broadcast ID'],
] as const;

function isObject(value: unknown): value is IDataObject {
	return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * The event's fields in the user's words. `status` is what a workflow branches on: the message's
 * delivery status (`sent`, `delivered`, …) once the event is a processed template message, else the
 * event's own status (`queued`, `processed`, `failed`); `eventStatus` is always the event's.
 */
export function eventStatusFields(event: EventAnswer): IDataObject {
	const result = isObject(event.result) ? event.result : null;
	const isTemplateMessage = result?.type === 'template_message';
	const failureMessage = result?.failure_message;
	return {
		eventId: event.id,
		status: isTemplateMessage && typeof result.status === 'string' ? result.status : event.status,
		eventStatus: event.status,
		resultType: typeof result?.type === 'string' ? result.type : null,
		messageId: isTemplateMessage ? idAsWritten(result.id) : null,
		failureMessage:
			typeof failureMessage === 'string' && failureMessage !== '' ? failureMessage : null,
	};
}

/** A 2xx that is not an event. */
const notAnEvent = notTheEventAsked(
	'an event',
	'Check the Base URL of the credential, or run again later.',
);

function toOutput(answer: ServiceAnswer, request: PreparedRequest<undefined>): IDataObject {
	return {
		...eventStatusFields(parseEvent(answer, request, notAnEvent, true)),
		response: answer.body as IDataObject,
	};
}

export const getStatus: PerItemOperation<undefined> = {
	description: properties,
	prepare(itemIndex): PreparedRequest<undefined> {
		return eventRequest(this.getNodeParameter('eventId', itemIndex), NOT_AN_EVENT);
	},
	toOutput,
};
