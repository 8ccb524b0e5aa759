/*
 * Node version 2's template parameters as the editor saves them in a workflow: the Template resource
 * locator after picking, and the Template Variables mapper in each of its modes. One copy for every
 * engine test that builds a version 2 workflow by hand.
 */

/** The resource locator as the editor saves it after picking (From List by default). */
export const picked = (value: string, mode = 'list') => ({ __rl: true, mode, value });

/** The mapper's value as the editor saves it with "Map Each Field Below". */
export const mappedBelow = (value: Record<string, unknown>) => ({
	mappingMode: 'defineBelow',
	value,
	matchingColumns: [],
	schema: Object.keys(value).map((id) => ({
		id,
		displayName: id,
		required: true,
		defaultMatch: false,
		display: true,
		type: 'string',
	})),
	attemptToConvertTypes: false,
	convertFieldsToString: true,
});

/** Send Template (version 2) of this template, its variables mapped below, to one number. */
export const sendTemplateParameters = (
	template: ReturnType<typeof picked>,
	variables: Record<string, unknown>,
) => ({
	resource: 'message',
	operation: 'sendTemplate',
	phoneNumber: '+14155550123',
	template,
	templateVariablesInput: 'mapper',
	templateVariablesMapped: mappedBelow(variables),
	additionalFields: {},
	options: {},
});

/** The mapper's value with "Map Automatically", before the editor loaded any field. */
export const autoMapped = {
	mappingMode: 'autoMapInputData',
	value: null,
	matchingColumns: [],
	schema: [],
};

/** The operations that send a template, with what each needs besides the template (label first). */
export const TEMPLATE_SENDING_OPERATIONS: ReadonlyArray<[string, Record<string, unknown>]> = [
	[
		'Send Template',
		{ resource: 'message', operation: 'sendTemplate', phoneNumber: '+14155550123' },
	],
	[
		'Connect to AI Agent',
		{
			resource: 'aiAgent',
			operation: 'connectContact',
			phoneNumber: '+14155550123',
			aiAgentId: 'aiflw_sales',
		},
	],
	[
		'Broadcast Launch',
		{
			resource: 'broadcast',
			operation: 'launch',
			broadcastName: 'Restock',
			audience: 'audienceId',
			audienceId: 'aud_vip_customers',
		},
	],
];
