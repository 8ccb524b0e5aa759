import type { z } from 'zod';

import {
	assignAgentAnswer,
	connectToAiAgentAnswer,
	sendTemplateAnswer,
} from '../../../nodes/shared/schemas/answers';
import { templateAnswer, templateListAnswer } from '../../../nodes/shared/schemas/templates';
import { eventAnswer } from '../../../nodes/shared/schemas/messages';
import { mediaPage } from '../../../nodes/shared/schemas/media';
import { orderAnswer } from '../../../nodes/shared/schemas/orders';
import { readContractDocument } from '../../helpers/openApiContract';

/*
 * Every success answer example in docs/openapi.yaml parses through the reader the node holds that
 * answer to (its zod answer schemas). An example with no reader named here fails too, so a new
 * example is read by the node before it is in the document.
 */

type Json = Record<string, any>;
const document = readContractDocument() as Json;

const resolve = (node: Json): Json =>
	typeof node.$ref === 'string'
		? resolve(
				(node.$ref as string)
					.slice(2)
					.split('/')
					.reduce((at: Json, part) => at[part.replace(/~1/g, '/')], document),
			)
		: node;

/** operationId → status → example name → the node's reader. */
const readers: Record<string, Record<string, Record<string, z.ZodTypeAny>>> = {
	sendEvent: {
		'200': {
			connect_to_ai_agent: connectToAiAgentAnswer.body,
			assign_agent: assignAgentAnswer.body,
		},
		'201': { send_template_message: sendTemplateAnswer.body },
	},
	getEvent: { '200': { template_message: eventAnswer, campaign: eventAnswer } },
	listTemplates: { '200': { list: templateListAnswer } },
	createTemplate: { '201': { template: templateAnswer } },
	getTemplate: { '200': { template: templateAnswer } },
	updateTemplate: { '200': { template: templateAnswer } },
	archiveTemplate: { '200': { template: templateAnswer } },
	pauseTemplate: { '200': { template: templateAnswer } },
	submitTemplate: { '200': { template: templateAnswer } },
	listMedia: { '200': { reference: mediaPage } },
	createOrder: {
		'200': { order: orderAnswer },
		'201': { order: orderAnswer },
		'202': { order: orderAnswer },
	},
	getOrder: { '200': { order: orderAnswer } },
};

const examples = Object.values(document.paths as Json).flatMap((item: Json) =>
	Object.values(item).flatMap((operation: Json) =>
		Object.entries((operation.responses ?? {}) as Json)
			.filter(([status]) => status.startsWith('2'))
			.flatMap(([status, response]) =>
				Object.entries(
					(resolve(response).content?.['application/json']?.examples ?? {}) as Json,
				).map(
					([name, example]) =>
						[
							`${operation.operationId} ${status} ${name}`,
							operation.operationId as string,
							status,
							name,
							resolve(example).value,
						] as const,
				),
			),
	),
);

test('the document has success examples to read', () => {
	expect(examples.length).toBeGreaterThan(10);
});

test.each(examples)(
	'%s parses through the node’s reader',
	(_label, operationId, status, name, value) => {
		const reader = readers[operationId]?.[status]?.[name];
		expect({ operationId, status, name, hasReader: reader !== undefined }).toEqual({
			operationId,
			status,
			name,
			hasReader: true,
		});
		const parsed = reader!.safeParse(value);
		expect(parsed.success ? [] : parsed.error.issues).toEqual([]);
	},
);
