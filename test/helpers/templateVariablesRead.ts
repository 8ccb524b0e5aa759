import type { IExecuteFunctions } from 'n8n-workflow';

import { readTemplateVariableValues } from '../../nodes/ChatMessaging/actions/fields/templateVariableValues';

/*
 * For unit tests of how a send reads its template variables: the reader called as the node calls
 * it, for item 0, with the parameters the editor's two forms (rows of fields, or JSON) hold.
 */

/** Only getNodeParameter, answering from `parameters` (or the fallback the reader gives). */
function itemWith(parameters: Record<string, unknown>): IExecuteFunctions {
	return {
		getNodeParameter: (name: string, _itemIndex: number, fallback?: unknown) =>
			name in parameters ? parameters[name] : fallback,
	} as unknown as IExecuteFunctions;
}

/** The variables read from the Fields form's rows. */
export const variablesFromRows = (rows: Array<Record<string, unknown>>, numbersAllowed = true) =>
	readTemplateVariableValues.call(
		itemWith({ templateVariablesInput: 'fields', 'templateVariables.variable': rows }),
		0,
		numbersAllowed,
	);

/** The variables read from the JSON form. */
export const variablesFromJson = (json: unknown, numbersAllowed = true) =>
	readTemplateVariableValues.call(
		itemWith({ templateVariablesInput: 'json', templateVariablesJson: json }),
		0,
		numbersAllowed,
	);
