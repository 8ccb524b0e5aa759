import type { IDataObject, IDisplayOptions, INodeProperties } from 'n8n-workflow';

import { answerShapeProblem } from '../../../shared/schemas';
import { broadcastAnswer } from '../../../shared/schemas/broadcasts';
import type { DeliveryOutcome, ServiceAnswer } from '../../../shared/transport';
import { ServiceRequestFailed } from '../../../shared/transport';
import { readOneId } from '../message/messageReaders';

/* What Get, Cancel and Archive share: the Broadcast ID field, its path, and the broadcast answered. */

export const BROADCAST_ID_LABEL = 'Broadcast ID';

export function broadcastIdField(
	displayOptions: IDisplayOptions,
	description: string,
): INodeProperties {
	return {
		displayName: BROADCAST_ID_LABEL,
		name: 'broadcastId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'cmp_5f2a9c1e7b3d4a60',
		displayOptions,
		description,
	};
}

/** IDs of other kinds, pasted where a broadcast ID belongs. */
const NOT_A_BROADCAST = [
	['wat_', 'a template ID'],
	['evt_', 'an event ID (Broadcast → Get Status reads a launch event)'],
	['cmsg_', 'a template message ID'],
	['aiflw_', 'an AI agent ID'],
	['aud_', 'an audience ID'],
] as const;

export function readBroadcastId(value: unknown): string {
	return readOneId(value, BROADCAST_ID_LABEL, NOT_A_BROADCAST);
}

export function broadcastPath(id: string): string {
	return `/api/v1/broadcasts/${encodeURIComponent(id)}`;
}

/**
 * The broadcast a 2xx answer must carry, as the service gives it. Anything else fails the item: for
 * a read nothing changed; for Cancel or Archive the service received it, so it may have been done.
 */
export function answeredBroadcast(answer: ServiceAnswer, outcome: DeliveryOutcome): IDataObject {
	const parsed = broadcastAnswer.safeParse(answer.body);
	if (answer.bodyIsJson && parsed.success) return answer.body as IDataObject;
	const problem = answerShapeProblem(parsed);
	throw new ServiceRequestFailed({
		outcome,
		statusCode: answer.statusCode,
		serviceBody: answer.body,
		retries: answer.retries,
		message: `The service answered ${answer.statusCode} without a broadcast (${problem})`,
		description:
			outcome === 'not sent'
				? 'Nothing was changed: reading a broadcast changes nothing. Check the Base URL of the credential.'
				: 'The change may have been made: the service received it, but its answer does not show the broadcast, so it was not repeated. Read the broadcast with Get before running this item again.',
	});
}
