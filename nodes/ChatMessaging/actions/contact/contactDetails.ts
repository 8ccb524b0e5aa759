import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { CommunicationPreference, UpdateContactBody } from '../../../shared/schemas/contacts';
import { communicationPreferences } from '../../../shared/schemas/contacts';
import {
	InvalidParameter,
	describeType,
	normaliseTimeZone,
	optionalText,
	NOT_JSON,
	parseJsonNumbersAsText,
} from '../../../shared/validation';
import type { ServiceAnswer, ServiceRequestFailed } from '../../../shared/transport';
import { readEmail, readKeyValues } from '../fields/contactFields';
import { answerNotForThisItem } from '../run/serviceAnswers';

/*
 * What a contact holds besides its phone number, as Create or Update and Update show it: the same
 * fields, read the same way. Each goes into the body only when the user added it and gave it a
 * value: an empty field is never sent as "", null or [""] (the vendor's node sends `tags: [""]`).
 */

export const COMMUNICATION_PREFERENCE_OPTIONS = [
	{
		name: 'Allow Everything',
		value: 'allow_everything',
		description: 'Marketing and automated messages may be sent',
	},
	{ name: 'Disallow Marketing', value: 'disallow_marketing', description: 'No marketing messages' },
	{
		name: 'Disallow Automated Messaging',
		value: 'disallow_automated_messaging',
		description: 'No automated messages',
	},
	{ name: 'Mute All', value: 'mute_all', description: 'No messages of any kind' },
] satisfies Array<{ name: string; value: CommunicationPreference; description: string }>;

/** The collection's options, sorted by label as n8n's lint wants. */
export const contactDetailOptions: INodeProperties[] = [
	{
		displayName: 'Communication Preference',
		name: 'communicationPreference',
		type: 'options',
		options: COMMUNICATION_PREFERENCE_OPTIONS,
		default: 'allow_everything',
		description: 'Which messages the contact accepts',
	},
	{
		displayName: 'Email',
		name: 'email',
		type: 'string',
		placeholder: 'name@email.com',
		default: '',
		description: "The contact's e-mail address",
	},
	{
		displayName: 'Metadata',
		name: 'metadata',
		type: 'json',
		default: '{}',
		description:
			'A JSON object of text values, e.g. {"first_name": "Ada", "plan": "pro"}. The service merges it into what the contact already has: keys not given are kept.',
	},
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		default: '',
		description: 'Name shown for the contact in the inbox',
	},
	{
		displayName: 'Opted Out',
		name: 'optedOut',
		type: 'boolean',
		default: false,
		description:
			'Whether the contact has opted out of messages. Sent as set, off included, once the field is added.',
	},
	{
		displayName: 'Tags',
		name: 'tags',
		type: 'string',
		default: '',
		placeholder: 'vip, newsletter',
		description:
			"Tags separated by commas (or a list from an expression). They replace the contact's tags. Left empty, tags are not sent and stay as they are.",
	},
	{
		displayName: 'Time Zone',
		name: 'timezone',
		type: 'string',
		default: '',
		placeholder: 'Europe/Berlin',
		description:
			"The contact's IANA time zone, written as Area/City, e.g. Europe/Berlin or America/New_York",
	},
];

/** Wire field → the parameter that fills it (for wireLabels). */
export const CONTACT_DETAIL_PARAMETERS = {
	name: 'name',
	email: 'email',
	timezone: 'timezone',
	metadata: 'metadata',
	opted_out: 'optedOut',
	communication_preference: 'communicationPreference',
	tags: 'tags',
};

const MAX_TAG_LENGTH = 255;

function readTags(value: unknown, parameter: string): string[] | undefined {
	if (value === undefined || value === null) return undefined;
	let given: unknown[];
	if (typeof value === 'string') given = value.split(',');
	else if (Array.isArray(value)) given = value;
	else
		throw new InvalidParameter(
			parameter,
			`must be text separated by commas, or a list of text, not ${describeType(value)}`,
		);
	const tags: string[] = [];
	given.forEach((tag, index) => {
		if (typeof tag !== 'string') {
			throw new InvalidParameter(
				parameter,
				`tag ${index + 1} must be text, not ${describeType(tag)}`,
			);
		}
		const trimmed = tag.trim();
		if (trimmed === '') return; // "vip, , news" or a trailing comma: nothing to send
		if (trimmed.length > MAX_TAG_LENGTH) {
			throw new InvalidParameter(
				parameter,
				`tag "${trimmed.slice(0, 20)}…" is longer than ${MAX_TAG_LENGTH} characters`,
			);
		}
		if (!tags.includes(trimmed)) tags.push(trimmed);
	});
	return tags.length === 0 ? undefined : tags;
}

/** A JSON object (as text or as an object from an expression) of text values; empty means "not sent". */
function readMetadata(value: unknown, parameter: string): Record<string, string> | undefined {
	if (value === undefined || value === null) return undefined;
	let parsed: unknown = value;
	if (typeof value === 'string') {
		if (value.trim() === '') return undefined;
		// The values go out as text: a number as it was written (19.90, not the 19.9 JSON.parse makes).
		parsed = parseJsonNumbersAsText(value);
		if (parsed === NOT_JSON) {
			throw new InvalidParameter(
				parameter,
				'must be a JSON object, e.g. {"plan": "pro"}, and is not valid JSON',
			);
		}
	}
	if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
		throw new InvalidParameter(
			parameter,
			`must be a JSON object, e.g. {"plan": "pro"}, not ${describeType(parsed)}`,
		);
	}
	// The same rules as the Metadata rows of Create Many: text values, no blank or doubled keys.
	const rows = Object.entries(parsed as IDataObject).map(([key, text]) => ({ key, value: text }));
	return readKeyValues({ property: rows }, parameter);
}

function readCommunicationPreference(
	value: unknown,
	parameter: string,
): CommunicationPreference | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	const known = communicationPreferences as readonly unknown[];
	if (!known.includes(value)) {
		throw new InvalidParameter(
			parameter,
			`must be one of ${communicationPreferences.join(', ')}, not ${JSON.stringify(value)}`,
		);
	}
	return value as CommunicationPreference;
}

function readBoolean(value: unknown, parameter: string): boolean | undefined {
	if (value === undefined || value === null) return undefined;
	if (typeof value !== 'boolean')
		throw new InvalidParameter(parameter, `must be true or false, not ${describeType(value)}`);
	return value;
}

/**
 * The fields the user set, as the wire names them. `labels` are the editor's labels by wire field
 * (from wireLabels), so a complaint names the field as the user sees it.
 */
export function readContactDetails(
	fields: IDataObject,
	labels: Record<string, string>,
): UpdateContactBody {
	const details: UpdateContactBody = {};
	const name = optionalText(fields.name, labels.name);
	if (name !== undefined) details.name = name;
	const email = readEmail(fields.email, labels.email);
	if (email !== undefined) details.email = email;
	const timezone = optionalText(fields.timezone, labels.timezone);
	if (timezone !== undefined) details.timezone = normaliseTimeZone(timezone, labels.timezone);
	const metadata = readMetadata(fields.metadata, labels.metadata);
	if (metadata !== undefined) details.metadata = metadata;
	const optedOut = readBoolean(fields.optedOut, labels.opted_out);
	if (optedOut !== undefined) details.opted_out = optedOut;
	const preference = readCommunicationPreference(
		fields.communicationPreference,
		labels.communication_preference,
	);
	if (preference !== undefined) details.communication_preference = preference;
	const tags = readTags(fields.tags, labels.tags);
	if (tags !== undefined) details.tags = tags;
	return details;
}

/**
 * Why a contact the service answered does not show the consent sent (Opted Out, Communication
 * Preference), or undefined when it shows it or leaves the field out. An opt-out reported done must
 * be one the service shows: an answer that contradicts it (the change not applied, or an answer
 * from before it) is not this item's success.
 */
export function consentNotShown(
	sent: UpdateContactBody,
	answered: IDataObject,
): string | undefined {
	if (
		sent.opted_out !== undefined &&
		answered.opted_out !== undefined &&
		answered.opted_out !== sent.opted_out
	)
		return `shows opted_out ${JSON.stringify(answered.opted_out)}, not ${String(sent.opted_out)} as sent`;
	if (
		sent.communication_preference !== undefined &&
		answered.communication_preference !== undefined &&
		answered.communication_preference !== sent.communication_preference
	)
		return `shows communication_preference ${JSON.stringify(answered.communication_preference)}, not ${sent.communication_preference} as sent`;
	return undefined;
}

/** The failure for a contact answered without the consent sent: it may have been changed, never repeated. */
export function consentNotShownFailure(
	answer: ServiceAnswer,
	phoneNumber: string,
	problem: string,
): ServiceRequestFailed {
	return answerNotForThisItem(
		answer,
		`The service answered ${answer.statusCode}, but contact ${phoneNumber} ${problem}`,
		`The change may have been made or not: the service received it, but its answer does not show it, so it is not reported done and was not repeated. Read the contact with Contact → Get before running this item again.`,
	);
}
