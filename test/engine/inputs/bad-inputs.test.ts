/*
 * Bad input, table-driven: every value a user can get wrong in the four operations stops the node
 * before the first request. Each row runs a real workflow through n8n's engine against the stand-in
 * with two items, the bad value on item 1 (read from the item by an expression, as real workflows
 * do), so the stand-in receiving nothing also proves the valid item 0 was held back, and the
 * "[item 1]" in the message proves the index is the failing item's, not the first one's.
 *
 * Options (Batch Size, Requests in Parallel, timeouts) shape the whole run and are read once, from
 * item 0, so their rows put the bad value there and expect "[item 0]".
 */
import { runChatMessaging } from '../../helpers/engineHarness';
import {
	expectRefusedBeforeAnyRequest,
	fromItem,
	validSendingParameters,
	type SendingOperation,
} from '../../helpers/refusedInputs';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'bad-input-key-SECRET-5e0d';
const service = useStandInService({ apiKey: API_KEY });

interface BadInput {
	case: string;
	operation: SendingOperation;
	/** Merged over the operation's valid parameters; use `fromItem` where the bad value goes. */
	parameters: Record<string, unknown>;
	/** `value` of item 0 and item 1; a missing key makes the expression give no value. */
	good?: unknown;
	bad?: unknown;
	/** The editor's label the message must start with. */
	label: string;
	/** Words of the reason, proving the message says what is wrong. */
	reason: RegExp;
	/** 1 for item values, 0 for run-wide options. */
	itemIndex?: 0 | 1;
}

const phone = { phoneNumber: fromItem };
const sendOptions = (options: Record<string, unknown>) => ({ options });
const retryWindow = (window: Record<string, unknown>) => ({
	additionalFields: { retryWindow: { window } },
});
const variables = (variable: Array<Record<string, unknown>>) => ({
	templateVariablesInput: 'fields',
	templateVariables: { variable },
});
const variablesJson = { templateVariablesInput: 'json', templateVariablesJson: fromItem };
const keyValues = (field: string, property: Array<Record<string, unknown>>) => ({
	additionalFields: { [field]: { property } },
});

const badInputs: BadInput[] = [
	// Message → Send Template
	{
		case: 'phone number without +',
		operation: 'sendTemplate',
		parameters: phone,
		good: '+14155550123',
		bad: '4155550123',
		label: 'Phone Number',
		reason: /must start with \+/,
	},
	{
		case: 'phone number with letters',
		operation: 'sendTemplate',
		parameters: phone,
		good: '+14155550123',
		bad: '+1 415 555 CALL',
		label: 'Phone Number',
		reason: /not part of a phone number/,
	},
	{
		case: 'phone number too short',
		operation: 'sendTemplate',
		parameters: phone,
		good: '+14155550123',
		bad: '+123456',
		label: 'Phone Number',
		reason: /7 to 15 digits/,
	},
	{
		case: 'phone number too long',
		operation: 'sendTemplate',
		parameters: phone,
		good: '+14155550123',
		bad: '+1234567890123456',
		label: 'Phone Number',
		reason: /7 to 15 digits/,
	},
	{
		case: 'phone number from an expression that gives no value',
		operation: 'sendTemplate',
		parameters: phone,
		good: '+14155550123',
		label: 'Phone Number',
		reason: /is required/,
	},
	// The good value is text: a positive number is refused too, as it cannot say its country (issue 9).
	{
		case: 'phone number that is a negative number',
		operation: 'sendTemplate',
		parameters: phone,
		good: '+14155550123',
		bad: -14155550123,
		label: 'Phone Number',
		reason: /not a phone number/,
	},
	{
		case: 'business phone number with letters',
		operation: 'sendTemplate',
		parameters: { additionalFields: { businessPhoneNumber: fromItem } },
		good: '+1 415 555 0100',
		bad: '1415CALLNOW',
		label: 'Business Phone Number',
		reason: /made of digits/,
	},
	{
		case: 'Retry Until in the past',
		operation: 'sendTemplate',
		parameters: { additionalFields: { retryUntil: fromItem } },
		good: '2099-01-01T00:00:00Z',
		bad: '2001-01-01T00:00:00Z',
		label: 'Retry Until',
		reason: /not in the future/,
	},
	{
		case: 'Retry Until that is not a date',
		operation: 'sendTemplate',
		parameters: { additionalFields: { retryUntil: fromItem } },
		good: '2099-01-01T00:00:00Z',
		bad: 'next tuesday',
		label: 'Retry Until',
		reason: /not a date and time/,
	},
	{
		case: 'Retry Until that is an object',
		operation: 'sendTemplate',
		parameters: { additionalFields: { retryUntil: fromItem } },
		good: '2099-01-01T00:00:00Z',
		bad: { at: 'tomorrow' },
		label: 'Retry Until',
		reason: /date and time/,
	},
	{
		case: 'retry window start "25:00"',
		operation: 'sendTemplate',
		parameters: retryWindow({ startAt: fromItem, endAt: '18:00' }),
		good: '09:00',
		bad: '25:00',
		label: 'Retry Window: Start At',
		reason: /24-hour time/,
	},
	{
		case: 'retry window end "8am"',
		operation: 'sendTemplate',
		parameters: retryWindow({ startAt: '07:00', endAt: fromItem }),
		good: '20:00',
		bad: '8am',
		label: 'Retry Window: End At',
		reason: /24-hour time/,
	},
	{
		case: 'retry window with equal start and end',
		operation: 'sendTemplate',
		parameters: retryWindow({ startAt: '09:00', endAt: fromItem }),
		good: '17:00',
		bad: '09:00',
		label: 'Retry Window',
		reason: /same time/,
	},
	{
		case: 'retry window time zone that does not exist',
		operation: 'sendTemplate',
		parameters: retryWindow({ startAt: '09:00', endAt: '17:00', timezone: fromItem }),
		good: 'Europe/Berlin',
		bad: 'Mars/Olympus_Mons',
		label: 'Retry Window: Time Zone',
		reason: /IANA time zone/,
	},
	{
		case: 'empty Template ID',
		operation: 'sendTemplate',
		parameters: { templateId: fromItem },
		good: 'wat_welcome',
		bad: '',
		label: 'Template ID',
		reason: /is required/,
	},
	{
		case: 'blank Template ID',
		operation: 'sendTemplate',
		parameters: { templateId: fromItem },
		good: 'wat_welcome',
		bad: '   ',
		label: 'Template ID',
		reason: /is required/,
	},
	{
		case: 'template variables JSON that is a list',
		operation: 'sendTemplate',
		parameters: variablesJson,
		good: '{"first_name":"Ada"}',
		bad: '["Ada"]',
		label: 'Template Variables (JSON)',
		reason: /must be a JSON object, not a list/,
	},
	{
		case: 'template variables JSON that is a number',
		operation: 'sendTemplate',
		parameters: variablesJson,
		good: '{"first_name":"Ada"}',
		bad: '42',
		label: 'Template Variables (JSON)',
		reason: /must be a JSON object/,
	},
	{
		case: 'template variables JSON that is not JSON',
		operation: 'sendTemplate',
		parameters: variablesJson,
		good: '{"first_name":"Ada"}',
		bad: '{first_name: Ada',
		label: 'Template Variables (JSON)',
		reason: /not valid JSON/,
	},
	{
		case: 'template variable holding a nested object',
		operation: 'sendTemplate',
		parameters: variablesJson,
		good: '{"first_name":"Ada"}',
		bad: '{"name":{"first":"Ada"}}',
		label: 'Template Variables (JSON)',
		reason: /"name" must be text or a number, not an object/,
	},
	{
		case: 'template variable holding a list',
		operation: 'sendTemplate',
		parameters: variablesJson,
		good: '{"first_name":"Ada"}',
		bad: '{"names":["Ada"]}',
		label: 'Template Variables (JSON)',
		reason: /"names" must be text or a number, not a list/,
	},
	{
		case: 'template variable holding null',
		operation: 'sendTemplate',
		parameters: variablesJson,
		good: '{"first_name":"Ada"}',
		bad: '{"first_name":null}',
		label: 'Template Variables (JSON)',
		reason: /not null/,
	},
	// A name that fills no variable: the fields mode refuses it, so the JSON mode must too.
	{
		case: 'template variables JSON with an empty name',
		operation: 'sendTemplate',
		parameters: variablesJson,
		good: '{"first_name":"Ada"}',
		bad: '{"":"Ada"}',
		label: 'Template Variables (JSON)',
		reason: /no (variable )?name/,
	},
	{
		case: 'template variables JSON with a blank name (AI agent)',
		operation: 'connectContact',
		parameters: variablesJson,
		good: '{"first_name":"Ada"}',
		bad: '{"  ":"Ada"}',
		label: 'Template Variables (JSON)',
		reason: /no (variable )?name/,
	},
	{
		case: 'header media object without link (JSON)',
		operation: 'sendTemplate',
		parameters: variablesJson,
		good: '{"header_media":"https://example.com/a.jpg"}',
		bad: '{"header_media":{"filename":"invoice.pdf"}}',
		label: 'Template Variables (JSON)',
		reason: /header_media/,
	},
	{
		case: 'Send As Number with a value that is not a number',
		operation: 'sendTemplate',
		parameters: variables([{ name: 'total', value: fromItem, sendAs: 'number' }]),
		good: '42.50',
		bad: '42 euros',
		label: 'Template Variables',
		reason: /Send As Number but "42 euros" is not a number/,
	},
	{
		case: 'template variable row without a name',
		operation: 'sendTemplate',
		parameters: variables([{ name: fromItem, value: 'Ada' }]),
		good: 'first_name',
		bad: '  ',
		label: 'Template Variables',
		reason: /row 1 has no variable name/,
	},
	{
		case: 'template variable named twice',
		operation: 'sendTemplate',
		parameters: variables([
			{ name: 'first_name', value: 'Ada' },
			{ name: fromItem, value: 'Lovelace' },
		]),
		good: 'last_name',
		bad: 'first_name',
		label: 'Template Variables',
		reason: /given twice/,
	},
	{
		case: 'template variable named __proto__',
		operation: 'sendTemplate',
		parameters: variables([{ name: fromItem, value: 'x' }]),
		good: 'first_name',
		bad: '__proto__',
		label: 'Template Variables',
		reason: /__proto__/,
	},
	{
		case: 'Header Media URL missing',
		operation: 'sendTemplate',
		parameters: { headerMedia: 'url', headerMediaUrl: fromItem },
		good: 'https://example.com/a.jpg',
		bad: '',
		label: 'Header Media URL',
		reason: /is required/,
	},
	{
		case: 'Header Media URL that is not http(s)',
		operation: 'sendTemplate',
		parameters: {
			headerMedia: 'document',
			headerMediaUrl: fromItem,
			headerMediaFilename: 'invoice.pdf',
		},
		good: 'https://example.com/invoice.pdf',
		bad: 'ftp://example.com/invoice.pdf',
		label: 'Header Media URL',
		reason: /public http\(s\) URL/,
	},
	{
		case: 'Header Media URL that is a script',
		operation: 'sendTemplate',
		parameters: { headerMedia: 'url', headerMediaUrl: fromItem },
		good: 'https://example.com/a.jpg',
		bad: 'javascript:alert(1)',
		label: 'Header Media URL',
		reason: /public http\(s\) URL/,
	},
	{
		case: 'Contact Email without @',
		operation: 'sendTemplate',
		parameters: { additionalFields: { contactEmail: fromItem } },
		good: 'ada@example.com',
		bad: 'ada.example.com',
		label: 'Contact Email',
		reason: /not an e-mail address/,
	},
	{
		case: 'Contact Metadata row with an empty key',
		operation: 'sendTemplate',
		parameters: keyValues('contactMetadata', [{ key: fromItem, value: 'gold' }]),
		good: 'tier',
		bad: '',
		label: 'Contact Metadata',
		reason: /row 1 has no key/,
	},
	{
		case: 'Contact Metadata value that is an object',
		operation: 'sendTemplate',
		parameters: keyValues('contactMetadata', [{ key: 'tier', value: fromItem }]),
		good: 'gold',
		bad: { level: 'gold' },
		label: 'Contact Metadata',
		reason: /must be text/,
	},
	{
		case: 'Contact Name that is a list',
		operation: 'sendTemplate',
		parameters: { additionalFields: { contactName: fromItem } },
		good: 'Ada',
		bad: ['Ada', 'Lovelace'],
		label: 'Contact Name',
		reason: /must be text, not a list/,
	},
	{
		case: 'Requests in Parallel 0',
		operation: 'sendTemplate',
		parameters: sendOptions({ requestsInParallel: 0 }),
		label: 'Requests in Parallel',
		reason: /whole number from 1 to 20/,
		itemIndex: 0,
	},
	{
		case: 'Requests in Parallel 21',
		operation: 'sendTemplate',
		parameters: sendOptions({ requestsInParallel: 21 }),
		label: 'Requests in Parallel',
		reason: /whole number from 1 to 20/,
		itemIndex: 0,
	},
	{
		case: 'Timeout (Seconds) 0',
		operation: 'sendTemplate',
		parameters: sendOptions({ timeoutSeconds: 0 }),
		label: 'Timeout (Seconds)',
		reason: /whole number from 1 to 300/,
		itemIndex: 0,
	},
	{
		case: 'Retries When Rate Limited 2.5',
		operation: 'sendTemplate',
		parameters: sendOptions({ maxRetries: 2.5 }),
		label: 'Retries When Rate Limited',
		reason: /whole number from 0 to 10/,
		itemIndex: 0,
	},

	// AI Agent → Connect Contact
	{
		case: 'AI Agent ID empty',
		operation: 'connectContact',
		parameters: { aiAgentId: fromItem },
		good: 'aiflw_support',
		bad: '',
		label: 'AI Agent ID',
		reason: /is required/,
	},
	{
		case: 'AI Agent ID from an expression that gives no value',
		operation: 'connectContact',
		parameters: { aiAgentId: fromItem },
		good: 'aiflw_support',
		label: 'AI Agent ID',
		reason: /is required/,
	},
	{
		case: 'phone number without + (AI agent)',
		operation: 'connectContact',
		parameters: phone,
		good: '+14155550123',
		bad: '14155550123',
		label: 'Phone Number',
		reason: /must start with \+/,
	},
	{
		case: 'Contact Properties with a reserved key',
		operation: 'connectContact',
		parameters: keyValues('contactProperties', [{ key: fromItem, value: '+10000000000' }]),
		good: 'crm_id',
		bad: 'phone_number',
		label: 'Contact Properties',
		reason: /has its own field/,
	},
	{
		case: 'Contact Properties row with an empty key',
		operation: 'connectContact',
		parameters: keyValues('contactProperties', [{ key: fromItem, value: 'x' }]),
		good: 'crm_id',
		bad: ' ',
		label: 'Contact Properties',
		reason: /row 1 has no key/,
	},
	{
		case: 'Contact Email without @ (AI agent)',
		operation: 'connectContact',
		parameters: { additionalFields: { contactEmail: fromItem } },
		good: 'ada@example.com',
		bad: 'ada-at-example.com',
		label: 'Contact Email',
		reason: /not an e-mail address/,
	},
	{
		case: 'template variable that is an object (AI agent takes text only)',
		operation: 'connectContact',
		parameters: variables([{ name: 'first_name', value: fromItem }]),
		good: 'Ada',
		bad: { first: 'Ada' },
		label: 'Template Variables',
		reason: /must be text, not an object/,
	},
	{
		case: 'empty Template ID (AI agent)',
		operation: 'connectContact',
		parameters: { templateId: fromItem },
		good: 'wat_welcome',
		bad: '',
		label: 'Template ID',
		reason: /is required/,
	},

	// Conversation → Assign Agent
	{
		case: 'Agent Email without @',
		operation: 'assignAgent',
		parameters: { agentEmail: fromItem },
		good: 'agent@example.com',
		bad: 'agent.example.com',
		label: 'Agent Email',
		reason: /not an e-mail address/,
	},
	{
		case: 'Agent Email empty',
		operation: 'assignAgent',
		parameters: { agentEmail: fromItem },
		good: 'agent@example.com',
		bad: '',
		label: 'Agent Email',
		reason: /is required/,
	},
	{
		case: 'Contact Name missing (required to assign)',
		operation: 'assignAgent',
		parameters: { contactName: fromItem },
		good: 'Ada Lovelace',
		label: 'Contact Name',
		reason: /is required/,
	},
	{
		case: 'phone number with letters (assign)',
		operation: 'assignAgent',
		parameters: phone,
		good: '+14155550123',
		bad: '+44 20 ABCD 0018',
		label: 'Phone Number',
		reason: /not part of a phone number/,
	},
	{
		case: 'Open Chat on Assignment that is not true or false',
		operation: 'assignAgent',
		parameters: { openChatOnAssignment: fromItem },
		good: false,
		bad: 'sometimes',
		label: 'Open Chat on Assignment',
		reason: /true or false/,
	},
	{
		case: 'Requests in Parallel 21 (assign)',
		operation: 'assignAgent',
		parameters: sendOptions({ requestsInParallel: 21 }),
		label: 'Requests in Parallel',
		reason: /whole number from 1 to 20/,
		itemIndex: 0,
	},

	// Contact → Create Many
	{
		case: 'Batch Size 0',
		operation: 'createMany',
		parameters: sendOptions({ batchSize: 0 }),
		label: 'Batch Size',
		reason: /whole number from 1 to 1000/,
		itemIndex: 0,
	},
	{
		case: 'Batch Size above 1000',
		operation: 'createMany',
		parameters: sendOptions({ batchSize: 1001 }),
		label: 'Batch Size',
		reason: /whole number from 1 to 1000/,
		itemIndex: 0,
	},
	{
		case: 'Batches in Parallel 11',
		operation: 'createMany',
		parameters: sendOptions({ batchesInParallel: 11 }),
		label: 'Batches in Parallel',
		reason: /whole number from 1 to 10/,
		itemIndex: 0,
	},
	{
		case: 'phone number too short (contacts)',
		operation: 'createMany',
		parameters: phone,
		good: '+14155550123',
		bad: '+1555',
		label: 'Phone Number',
		reason: /7 to 15 digits/,
	},
	{
		case: 'phone number from an expression that gives no value (contacts)',
		operation: 'createMany',
		parameters: phone,
		good: '+14155550123',
		label: 'Phone Number',
		reason: /is required/,
	},
	{
		case: 'Email without @ (contacts)',
		operation: 'createMany',
		parameters: { additionalFields: { email: fromItem } },
		good: 'ada@example.com',
		bad: 'ada',
		label: 'Email',
		reason: /not an e-mail address/,
	},
	{
		case: 'Metadata row with an empty key (contacts)',
		operation: 'createMany',
		parameters: keyValues('metadata', [
			{ key: 'tier', value: 'gold' },
			{ key: fromItem, value: 'x' },
		]),
		good: 'source',
		bad: '',
		label: 'Metadata',
		reason: /row 2 has no key/,
	},
	{
		case: 'Metadata value that is a list (contacts)',
		operation: 'createMany',
		parameters: keyValues('metadata', [{ key: 'tags', value: fromItem }]),
		good: 'vip',
		bad: ['vip', 'new'],
		label: 'Metadata',
		reason: /must be text/,
	},
	{
		case: 'Name that is an object (contacts)',
		operation: 'createMany',
		parameters: { additionalFields: { name: fromItem } },
		good: 'Ada',
		bad: { first: 'Ada' },
		label: 'Name',
		reason: /must be text, not an object/,
	},
];

function itemsFor(row: BadInput): object[] {
	const item = (value: unknown) => (value === undefined ? {} : { value });
	if (row.itemIndex === 0) return [{}, {}];
	return [item(row.good), item(row.bad)];
}

test('the table covers all four operations with at least 30 bad inputs', () => {
	expect(badInputs.length).toBeGreaterThanOrEqual(30);
	const operations = new Set(badInputs.map((row) => row.operation));
	expect([...operations].sort()).toEqual([
		'assignAgent',
		'connectContact',
		'createMany',
		'sendTemplate',
	]);
	expect(new Set(badInputs.map((row) => row.case)).size).toBe(badInputs.length);
});

describe.each(badInputs.map((row) => [`${row.operation}: ${row.case}`, row] as const))(
	'%s',
	(_name, row) => {
		test('stops before any request, naming the field and the item; says nothing was sent', async () => {
			const itemIndex = row.itemIndex ?? 1;
			const result = await runChatMessaging({
				items: itemsFor(row),
				parameters: { ...validSendingParameters[row.operation], ...row.parameters } as never,
				baseUrl: service.url,
				apiKey: API_KEY,
			});

			// Nothing at all reached the stand-in: not the bad item, not the valid one before it.
			expectRefusedBeforeAnyRequest(result, service, {
				label: row.label,
				reason: row.reason,
				itemIndex,
				apiKey: API_KEY,
			});
		});
	},
);

describe('the same parameters with valid values are sent, so each row above fails for its bad value alone', () => {
	const rowsWithGoodValues = badInputs.filter((row) => row.itemIndex !== 0);
	test.each(rowsWithGoodValues.map((row) => [`${row.operation}: ${row.case}`, row] as const))(
		'%s',
		async (_name, row) => {
			const good = row.good === undefined ? {} : { value: row.good };
			// An expression with no value is only "bad" for a required field; the good case supplies the
			// field's valid value directly instead.
			const parameters =
				row.good === undefined
					? validSendingParameters[row.operation]
					: { ...validSendingParameters[row.operation], ...row.parameters };
			const result = await runChatMessaging({
				items: [good],
				parameters: parameters as never,
				baseUrl: service.url,
				apiKey: API_KEY,
			});
			expect(result.error).toBeUndefined();
			expect(result.output).toHaveLength(1);
			expect(service.acceptedSends()).toHaveLength(1);
		},
	);
});
