import type { PerItemOperation } from '../operationKinds';
import { confirmAnsweredObject, idInPath } from '../run/answeredObject';
import {
	answeredBroadcast,
	broadcastIdField,
	broadcastPath,
	readBroadcastId,
} from './broadcastAnswers';

/*
 * Cancel and Archive: `PATCH /api/v1/broadcasts/{id}/cancel|archive` with no body; the answer is the
 * broadcast in its new status. Which status each starts from is the service's rule
 * (docs/operations/broadcast.md); a refusal is its 422, shown as it words it.
 */
/*
 * The status each change leaves a broadcast in: a cancelled broadcast goes back to a draft (the
 * documented statuses are archived, draft, queued, sending and sent: none other means "cancelled").
 * An answer still queued, sending or sent says the broadcast was not cancelled.
 */
const STATUS_AFTER = { cancel: ['draft'], archive: ['archived'] } as const;

export function statusChange(
	operation: 'cancel' | 'archive',
	description: string,
): PerItemOperation<undefined> {
	const displayOptions = { show: { resource: ['broadcast'], operation: [operation] } };
	return {
		description: [broadcastIdField(displayOptions, description)],
		prepare(itemIndex) {
			const id = readBroadcastId(this.getNodeParameter('broadcastId', itemIndex));
			return { method: 'PATCH', path: `${broadcastPath(id)}/${operation}`, body: undefined };
		},
		toOutput: (answer, request) => {
			const broadcast = answeredBroadcast(answer, 'may have been sent');
			confirmAnsweredObject(
				answer,
				broadcast,
				{
					kind: 'broadcast',
					id: idInPath(request),
					change: { name: operation, statuses: STATUS_AFTER[operation] },
					readWith: 'Broadcast → Get',
				},
				'may have been sent',
			);
			return broadcast;
		},
	};
}
