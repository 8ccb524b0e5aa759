import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { TemplateAnswer } from '../../../shared/schemas/templates';
import type { ServiceAnswer, ServiceClient } from '../../../shared/transport';
import { ServiceRequestFailed } from '../../../shared/transport';
import { readTemplateListBody, templateIdText, templateStatus } from '../../methods/templates';
import {
	UNENDING_LIST,
	readWholeTemplateList,
	serviceTemplateList,
} from '../../methods/templateList';

/** The templates of one answer; an answer that is no list of templates fails the item, quoted. */
export function answeredTemplates(
	answer: ServiceAnswer,
	page: number | undefined,
): TemplateAnswer[] {
	const read = answer.bodyIsJson
		? readTemplateListBody(answer.body)
		: { problem: 'it is not JSON' };
	if ('templates' in read) return read.templates;
	const { problem } = read;
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
 *
 * `status` in the query is a filter the service's reference does not name: a service that ignores
 * it answers every template, so the templates are held to it here too, and Limit counts only those;
 * a status is read in any letter case, as the editor and a send read it.
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
		(template: TemplateAnswer) => templateIdText(template.id) ?? '',
	);
	const status = qs?.status;
	const read = await readWholeTemplateList(
		source,
		limit,
		status === undefined ? undefined : (template) => templateStatus(template.status) === status,
	);
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
