import type { IDisplayOptions } from 'n8n-workflow';

import type { PerItemOperation } from '../operationKinds';
import { confirmAnsweredObject, idInPath } from '../run/answeredObject';
import {
	answeredBroadcast,
	broadcastIdField,
	broadcastPath,
	readBroadcastId,
} from './broadcastAnswers';

const displayOptions: IDisplayOptions = { show: { resource: ['broadcast'], operation: ['get'] } };

/** `GET /api/v1/broadcasts/{id}`: the broadcast as the service gives it, with its status and stats. */
export const get: PerItemOperation<undefined> = {
	description: [
		broadcastIdField(displayOptions, 'The ID of the broadcast to read, e.g. cmp_5f2a9c1e7b3d4a60'),
	],
	prepare(itemIndex) {
		const id = readBroadcastId(this.getNodeParameter('broadcastId', itemIndex));
		return { method: 'GET', path: broadcastPath(id), body: undefined };
	},
	toOutput: (answer, request) => {
		const broadcast = answeredBroadcast(answer, 'not sent');
		const asked = { kind: 'broadcast', id: idInPath(request), readWith: 'Broadcast → Get' };
		confirmAnsweredObject(answer, broadcast, asked, 'not sent');
		return broadcast;
	},
};
