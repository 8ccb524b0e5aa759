import type { IDataObject, IDisplayOptions, INodeProperties } from 'n8n-workflow';

import { idAsWritten } from '../../../shared/schemas/serviceIds';
import type { ServiceAnswer } from '../../../shared/transport';
import { optionsCollection, requestsInParallelField } from '../fields/requestOptions';
import { eventRequest, notTheEventAsked, parseEvent } from '../message/eventReading';
import type { PerItemOperation, PreparedRequest } from '../operationKinds';

/*
 * `GET /api/v1/events/{event_id}` for the event a launch answered (docs/service-contract.md): once
 * processed, its `result` is the campaign `{type: "campaign", id (cmp_…), name, audience_count,
 * phone_number, launch_time, stats, whats_app_template, template_messages_url}`. Its fields are put
 * flat on the item; the service's answer stays whole under `response`.
 */

const displayOptions: IDisplayOptions = {
	show: { resource: ['broadcast'], operation: ['getStatus'] },
};

const properties: INodeProperties[] = [
	{
		displayName: 'Event ID',
		name: 'eventId',
		type: 'string',
		required: true,
		// Launch's output carries the event id on every item.
		default: '={{ $json.event_id }}',
		placeholder: 'evt_0123456789abcdef',
		displayOptions,
		description:
			'The ID of the launch event, as Launch outputs it (event_ID). The default reads it from the input item.',
	},
	optionsCollection(displayOptions, [requestsInParallelField]),
];

/** IDs of other kinds, pasted where a launch's event ID belongs. */
const NOT_AN_EVENT = [
	['cmp_', 'a broadcast ID (Broadcast → Get reads a broadcast by its ID)'],
	['wat_', 'a template ID'],
	['cmsg_', 'a template message ID'],
	['aiflw_', 'an AI agent ID'],
] as const;

/** A 2xx that is not a launch event. */
const notALaunch = notTheEventAsked(
	'a broadcast launch event',
	'Check the Event ID (Message → Get Status reads the events of single messages) and the Base URL of the credential.',
);

const text = (value: unknown) => (typeof value === 'string' ? value : null);

function isObject(value: unknown): value is IDataObject {
	return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function toOutput(answer: ServiceAnswer, request: PreparedRequest<undefined>): IDataObject {
	const event = parseEvent(answer, request, notALaunch);
	const result = isObject(event.result) ? event.result : null;
	if (result !== null && result.type !== 'campaign') {
		throw notALaunch(answer, `its result is a ${JSON.stringify(result.type)}, not a campaign`);
	}
	const template = isObject(result?.whats_app_template) ? result.whats_app_template : null;
	return {
		eventId: event.id,
		// The broadcast's own status once the service shows one (the stand-in does; the reference's
		// example does not), else the event's: queued, processed or failed.
		status: text(result?.status) ?? event.status,
		eventStatus: event.status,
		broadcastId: idAsWritten(result?.id),
		name: text(result?.name),
		// A count written as digits is the count as written, as an id is.
		audienceCount: idAsWritten(result?.audience_count),
		stats: (result?.stats ?? null) as IDataObject | null,
		phoneNumber: text(result?.phone_number),
		launchTime: text(result?.launch_time),
		templateId: idAsWritten(template?.id),
		templateName: text(template?.template_name),
		templateMessagesUrl: text(result?.template_messages_url),
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
