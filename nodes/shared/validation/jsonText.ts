/*
 * JSON typed into a parameter. A parse failure is the user's to fix, reported as a parameter
 * problem by the caller, so it is a value here (NOT_JSON), not an exception to catch in each place.
 */

/** What parseJsonText gives for text that is not JSON. */
export const NOT_JSON = Symbol('not JSON');

/** The value the JSON text stands for, or NOT_JSON. */
export function parseJsonText(text: string): unknown {
	try {
		return JSON.parse(text) as unknown;
	} catch {
		return NOT_JSON;
	}
}
