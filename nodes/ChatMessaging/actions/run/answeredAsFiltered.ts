import type { IDataObject } from 'n8n-workflow';

import { ServiceRequestFailed } from '../../../shared/transport';
import type { PreparedRequest } from '../operationKinds';

/*
 * A listed record that names another value than the list's filter asked for says the service did
 * not apply the filter (a proxy or gateway that drops the query answers the whole list): output,
 * a draft would pass for a sent broadcast, another contact's messages for this contact's. The item
 * fails instead, with nothing output; a record that leaves the field out says nothing against it. A
 * number names the value it is written as (42 is conversation "42").
 */

/** A filter's or a record's value as text, or undefined for what names no value (absent, an object). */
function asText(value: unknown): string | undefined {
	if (typeof value === 'string') return value;
	if (typeof value === 'number' || typeof value === 'boolean') return String(value);
	return undefined;
}

/** Checks each filtered field of `record` against the query; `same` compares a field's two values. */
function checkAnsweredAsFiltered(
	record: IDataObject,
	qs: IDataObject,
	fields: readonly string[],
	what: string,
	same: (field: string, answered: string, asked: string) => boolean = (_field, answered, asked) =>
		answered === asked,
): void {
	for (const field of fields) {
		// A number or a yes/no is compared as the text it is written as: a service may write an id or
		// a phone number as a JSON number, and a yes/no as `true` or "true"; another conversation's 42
		// must not pass for this one's, nor an escalated conversation for one that is not.
		const asked = asText(qs[field]);
		const answered = asText(record[field]);
		if (asked === undefined || answered === undefined) continue;
		if (same(field, answered, asked)) continue;
		throw new ServiceRequestFailed({
			outcome: 'not sent',
			retries: 0,
			message: `The service answered ${what} ${JSON.stringify(record.id)} with ${field} ${JSON.stringify(answered)}, where the filter asked for ${JSON.stringify(asked)}: it did not apply the filter`,
			description: `Nothing was changed and no ${what}s were output for this item, rather than ${what}s the filter leaves out. Check the Base URL of the credential (a proxy may drop the query), or run again later.`,
		});
	}
}

/**
 * A list's `toOutput` when a record is output as the service gave it: `fields` are the filters a
 * record names in a field of the same name, `what` the record in the user's words.
 */
export function recordAnsweredAsFiltered(
	fields: readonly string[],
	what: string,
	same?: (field: string, answered: string, asked: string) => boolean,
): (record: unknown, request: PreparedRequest<undefined>) => IDataObject {
	return (record, request) => {
		checkAnsweredAsFiltered(record as IDataObject, request.qs ?? {}, fields, what, same);
		return record as IDataObject;
	};
}
