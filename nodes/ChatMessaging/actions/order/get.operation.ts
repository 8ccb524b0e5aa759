import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

import { getOrderAnswer } from '../../../shared/schemas/orders';
import type { ServiceAnswer } from '../../../shared/transport';
import { optionsCollection, requestsInParallelField } from '../fields/requestOptions';
import type { PerItemOperation } from '../operationKinds';
import { confirmAnsweredObject, idInPath } from '../run/answeredObject';
import { answerFields } from '../run/serviceAnswers';
import { orderIdField, orderPath } from './orderFields';

/*
 * `GET /api/v1/orders/{order_id}` (docs/service-contract.md, "Orders"): the order as the service
 * holds it, with its status and totals (amounts in the currency's smallest unit); an unknown ID is
 * the service's 404.
 */

const displayOptions: IDisplayOptions = { show: { resource: ['order'], operation: ['get'] } };

const properties: INodeProperties[] = [
	orderIdField(
		displayOptions,
		"The service's ID of the order (wa_ord_…), as Create answered it; not your own reference",
	),
	optionsCollection(displayOptions, [requestsInParallelField]),
];

export const get: PerItemOperation<undefined> = {
	description: properties,
	prepare(itemIndex) {
		return {
			method: 'GET',
			path: orderPath(this.getNodeParameter('orderId', itemIndex)),
			body: undefined,
		};
	},
	answer: getOrderAnswer,
	toOutput: (answer: ServiceAnswer, request) => {
		const order = answerFields(answer);
		const asked = { kind: 'order', id: idInPath(request), readWith: 'Order → Get' };
		confirmAnsweredObject(answer, order, asked, 'not sent');
		return order;
	},
};
