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

/** The mapper's value with "Map Automatically", before the editor loaded any field. */
export const autoMapped = {
	mappingMode: 'autoMapInputData',
	value: null,
	matchingColumns: [],
	schema: [],
};
