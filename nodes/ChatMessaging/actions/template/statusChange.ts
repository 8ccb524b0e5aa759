import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { optionsCollection, requestsInParallelField } from '../fields/requestOptions';
import { templateStatus } from '../../methods/templates';
import type { PerItemOperation } from '../operationKinds';
import { confirmAnsweredObject, idInPath } from '../run/answeredObject';
import { callService } from '../../../shared/transport';
import {
	answeredTemplate,
	confirmTemplateBeforeChange,
	readTemplateId,
	templateIdField,
	templateOutput,
	templatePath,
} from './templateIdentity';

/*
 * Archive, Pause and Submit for Approval: `PATCH /api/v1/whats_app_templates/{id}/<action>` with no
 * body; no body at all, as the reference shows; the answer is the template in its new status. Which status each starts from is the
 * service's rule (docs/operations/template.md); a refusal is its 422, shown as it words it.
 */
/*
 * The status each change leaves a template in. Submitting sends it to review: pending, or already
 * decided when the review is automatic; an answer still a draft says it was not submitted.
 */
const STATUS_AFTER = {
	archive: ['archived'],
	pause: ['paused'],
	submit: ['pending', 'approved', 'rejected'],
} as const;

export function statusChange(
	operation: string,
	action: 'archive' | 'pause' | 'submit',
	description: string,
): PerItemOperation<undefined> {
	const displayOptions = { show: { resource: ['template'], operation: [operation] } };
	const properties: INodeProperties[] = [
		templateIdField(displayOptions, description),
		optionsCollection(displayOptions, [requestsInParallelField]),
	];
	return {
		description: properties,
		prepare(itemIndex) {
			const id = readTemplateId(this.getNodeParameter('templateId', itemIndex));
			return { method: 'PATCH', path: `${templatePath(id)}/${action}`, body: undefined };
		},
		async send(client, request) {
			await confirmTemplateBeforeChange.call(this, client, idInPath(request));
			return await callService.call(this, client, request);
		},
		toOutput: (answer, request) => {
			const template = answeredTemplate(answer, 'may have been sent');
			confirmAnsweredObject(
				answer,
				template as IDataObject,
				{
					kind: 'template',
					id: idInPath(request),
					change: { name: action, statuses: STATUS_AFTER[action] },
					readStatus: templateStatus,
					readWith: 'Template → Get',
				},
				'may have been sent',
			);
			return templateOutput(template);
		},
	};
}
