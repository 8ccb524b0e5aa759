import type { PerItemOperation } from '../operationKinds';
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
		toOutput: (answer) => answeredBroadcast(answer, 'may have been sent'),
	};
}
