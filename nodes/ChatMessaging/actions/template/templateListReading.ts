import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { TemplateAnswer } from '../../../shared/schemas/templates';
import { templateListAnswer } from '../../../shared/schemas/templates';
import type { ServiceAnswer, ServiceClient } from '../../../shared/transport';
import { ServiceRequestFailed } from '../../../shared/transport';
import {
	UNENDING_LIST,
	readWholeTemplateList,
	serviceTemplateList,
} from '../../methods/templateList';

/** The templates of one answer; an answer that is no list of templates fails the item, quoted. */
function answeredTemplates(answer: ServiceAnswer, page: number | undefined): TemplateAnswer[] {
	const parsed = templateListAnswer.safeParse(answer.body);
	if (answer.bodyIsJson && parsed.success) return parsed.data;
	const problem = parsed.success
		? 'it is not JSON'
		: parsed.error.issues
				.map((issue) => `${issue.path.join('.') || 'the answer'} ${issue.message.toLowerCase()}`)
				.join(', ');
	const which = page === undefined ? 'the template list' : `page ${page} of the template list`;
	throw new ServiceRequestFailed({
		outcome: 'not sent',
		statusCode: answer.statusCode,
		serviceBody: answer.body,
		retries: answer.retries,
		message: `The service answered ${which} with something that is not a list of templates (${problem})`,
		description:
			'Nothing was changed: reading templates changes nothing. Check the Base URL of the credential, or run again later.',
	});
}

/**
 * Every template of the list (or the first `limit`), each once, read the one way every user of the
 * list reads it (methods/templateList.ts), whether the service pages or answers everything at once.
 * An answer that is no list of templates, or a list that never ends, fails the item: nothing was changed.
 */
export async function readServiceTemplates(
	this: IExecuteFunctions,
	client: ServiceClient,
	qs: IDataObject | undefined,
	limit?: number,
): Promise<TemplateAnswer[]> {
	const source = serviceTemplateList(
		this,
		client,
		qs,
		answeredTemplates,
		(template: TemplateAnswer) => template.id,
	);
	const read = await readWholeTemplateList(source, limit);
	if (!read.complete) {
		throw new ServiceRequestFailed({
			outcome: 'not sent',
			retries: 0,
			message: `The template list could not be read: ${UNENDING_LIST}`,
			description:
				'Nothing was changed: reading templates changes nothing. Narrow the list with a Status filter, or set a Limit.',
		});
	}
	return read.templates;
}
