/*
 * No message to the wrong person, no number other than the one written, no script as a media link
 * (issue 9, points 6-9, and the same class in the other inputs). Each row runs a real workflow
 * through n8n's engine against the stand-in with two items, the bad value on item 1 (read from the
 * item by an expression, as real workflows do): the stand-in receiving nothing proves the valid
 * item 0 was held back too, and "[item 1]" proves the message names the failing item.
 *
 * The second half sends the values the node does accept and shows exactly what arrived.
 */
import { runChatMessaging } from '../../helpers/engineHarness';
import {
	expectRefusedBeforeAnyRequest,
	fromItem,
	validSendingParameters,
	type SendingOperation,
} from '../../helpers/refusedInputs';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'wrong-person-key-SECRET-91ce';
const service = useStandInService({ apiKey: API_KEY });

const phone = { phoneNumber: fromItem };
const business = { additionalFields: { businessPhoneNumber: fromItem } };
const timeZone = {
	additionalFields: {
		retryWindow: { window: { startAt: '09:00', endAt: '17:00', timezone: fromItem } },
	},
};
const asNumber = {
	templateVariablesInput: 'fields',
	templateVariables: { variable: [{ name: 'total', value: fromItem, sendAs: 'number' }] },
};
const asText = {
	templateVariablesInput: 'fields',
	templateVariables: { variable: [{ name: 'total', value: fromItem, sendAs: 'string' }] },
};
const json = { templateVariablesInput: 'json', templateVariablesJson: fromItem };
const mediaRow = {
	templateVariablesInput: 'fields',
	templateVariables: { variable: [{ name: 'header_media', value: fromItem }] },
};

interface Refusal {
	case: string;
	operation: SendingOperation;
	parameters: Record<string, unknown>;
	good: unknown;
	bad: unknown;
	label: string;
	reason: RegExp;
	/** Items given whole, for fields Map Automatically reads from the item itself. */
	items?: [object, object];
	timezone?: string;
}

const refusals: Refusal[] = [
	// 6. Phone numbers: never guess a country.
	{
		case: 'a numeric spreadsheet cell',
		operation: 'sendTemplate',
		parameters: phone,
		good: '+14155550123',
		bad: 4155550123,
		label: 'Phone Number',
		reason: /country cannot be known/,
	},
	{
		case: 'a numeric cell that holds a country code',
		operation: 'connectContact',
		parameters: phone,
		good: '+14155550123',
		bad: 14155550123,
		label: 'Phone Number',
		reason: /country cannot be known/,
	},
	{
		case: 'digits without a country prefix',
		operation: 'createMany',
		parameters: phone,
		good: '+14155550123',
		bad: '4155550123',
		label: 'Phone Number',
		reason: /must start with \+ and the country code/,
	},
	{
		case: 'a numeric phone field mapped automatically',
		operation: 'createMany',
		parameters: { contactFields: 'autoMapInputData' },
		good: null,
		bad: null,
		items: [{ phone: '+14155550123' }, { phone: 4155550123 }],
		label: 'Phone Number',
		reason: /country cannot be known/,
	},
	{
		case: 'the North American exit code 011',
		operation: 'assignAgent',
		parameters: phone,
		good: '+14155550123',
		bad: '011 44 20 7946 0958',
		label: 'Phone Number',
		reason: /011, the code for calling abroad/,
	},
	{
		case: 'an extension',
		operation: 'connectContact',
		parameters: phone,
		good: '+14155550123',
		bad: '+1 415 555 0123 x12',
		label: 'Phone Number',
		reason: /extension/,
	},
	{
		case: 'two numbers in one cell',
		operation: 'sendTemplate',
		parameters: phone,
		good: '+14155550123',
		bad: '+14155550123 / +14155550124',
		label: 'Phone Number',
		reason: /more than one/,
	},
	{
		case: 'a "(0)" that is not after the country code',
		operation: 'sendTemplate',
		parameters: phone,
		good: '+44 (0) 20 7946 0958',
		bad: '+44 20 (0) 7946 0958',
		label: 'Phone Number',
		reason: /\(0\)/,
	},
	{
		case: 'a business number without its country code',
		operation: 'sendTemplate',
		parameters: business,
		good: '0044 20 7946 0958',
		bad: '020 7946 0958',
		label: 'Business Phone Number',
		reason: /country code/,
	},
	{
		case: 'a business number with 011',
		operation: 'sendTemplate',
		parameters: business,
		good: '+1 415 555 0100',
		bad: '011 44 20 7946 0958',
		label: 'Business Phone Number',
		reason: /011, the code for calling abroad/,
	},
	// 7. Send As Number sends only what the user wrote.
	{
		case: 'Send As Number with hexadecimal',
		operation: 'sendTemplate',
		parameters: asNumber,
		good: '31',
		bad: '0x1F',
		label: 'Template Variables',
		reason: /Send As Text/,
	},
	{
		case: 'Send As Number with an exponent',
		operation: 'sendTemplate',
		parameters: asNumber,
		good: '1000',
		bad: '1e3',
		label: 'Template Variables',
		reason: /Send As Text/,
	},
	{
		case: 'Send As Number with leading zeros',
		operation: 'sendTemplate',
		parameters: asNumber,
		good: '7',
		bad: '007',
		label: 'Template Variables',
		reason: /leading zeros/,
	},
	{
		case: 'Send As Number beyond exact integers',
		operation: 'sendTemplate',
		parameters: asNumber,
		good: '9007199254740991',
		bad: '12345678901234567890',
		label: 'Template Variables',
		reason: /exactly.*12345678901234567000/,
	},
	{
		case: 'an expression giving a number that lost digits',
		operation: 'sendTemplate',
		parameters: asText,
		good: 42,
		bad: 12345678901234567890,
		label: 'Template Variables',
		reason: /exactly/,
	},
	{
		case: 'JSON with a number beyond exact integers',
		operation: 'sendTemplate',
		parameters: json,
		good: '{"total": 12}',
		bad: '{"total": 12345678901234567890}',
		label: 'Template Variables (JSON)',
		reason: /"total".*exactly/,
	},
	{
		case: 'JSON with an exponent',
		operation: 'sendTemplate',
		parameters: json,
		good: '{"total": 1000}',
		bad: '{"total": 1e3}',
		label: 'Template Variables (JSON)',
		reason: /plain decimals/,
	},
	{
		case: 'JSON with a variable given twice',
		operation: 'sendTemplate',
		parameters: json,
		good: '{"first_name": "Ada"}',
		bad: '{"first_name": "Ada", "first_name": "Bob"}',
		label: 'Template Variables (JSON)',
		reason: /given twice/,
	},
	// 8. Retry Window time zone: IANA names only.
	{
		case: 'time zone "local"',
		operation: 'sendTemplate',
		parameters: timeZone,
		good: 'Europe/Berlin',
		bad: 'local',
		label: 'Retry Window: Time Zone',
		reason: /IANA.*account's default/,
	},
	{
		case: 'time zone "system"',
		operation: 'sendTemplate',
		parameters: timeZone,
		good: 'Europe/Berlin',
		bad: 'system',
		label: 'Retry Window: Time Zone',
		reason: /IANA.*account's default/,
	},
	{
		case: 'time zone "UTC+5:30"',
		operation: 'sendTemplate',
		parameters: timeZone,
		good: 'Asia/Kolkata',
		bad: 'UTC+5:30',
		label: 'Retry Window: Time Zone',
		reason: /offset/,
	},
	{
		case: 'time zone "Etc/GMT+5"',
		operation: 'sendTemplate',
		parameters: timeZone,
		good: 'America/New_York',
		bad: 'Etc/GMT+5',
		label: 'Retry Window: Time Zone',
		reason: /reverse/,
	},
	{
		case: 'time zone "EST"',
		operation: 'sendTemplate',
		parameters: timeZone,
		good: 'America/New_York',
		bad: 'EST',
		label: 'Retry Window: Time Zone',
		reason: /abbreviation/,
	},
	// 9. header_media: only public http(s) links, named as the Header Media URL.
	{
		case: 'header_media "javascript:" in JSON',
		operation: 'sendTemplate',
		parameters: json,
		good: '{"header_media": "https://example.com/a.jpg"}',
		bad: '{"header_media": "javascript:alert(1)"}',
		label: 'Header Media URL',
		reason: /header_media.*http\(s\) URL/,
	},
	{
		case: 'header_media object with a "javascript:" link',
		operation: 'sendTemplate',
		parameters: json,
		good: '{"header_media": {"link": "https://example.com/a.pdf", "filename": "a.pdf"}}',
		bad: '{"header_media": {"link": "javascript:alert(1)", "filename": "a.pdf"}}',
		label: 'Header Media URL',
		reason: /http\(s\) URL/,
	},
	{
		case: 'header_media "data:" in a field',
		operation: 'sendTemplate',
		parameters: mediaRow,
		good: 'https://example.com/a.jpg',
		bad: 'data:text/html,<script>alert(1)</script>',
		label: 'Header Media URL',
		reason: /http\(s\) URL/,
	},
	{
		case: 'header_media "javascript:" (AI agent)',
		operation: 'connectContact',
		parameters: json,
		good: '{"header_media": "https://example.com/a.jpg"}',
		bad: '{"header_media": "javascript:alert(1)"}',
		label: 'Header Media URL',
		reason: /http\(s\) URL/,
	},
	{
		case: 'Header Media URL "file:"',
		operation: 'sendTemplate',
		parameters: { headerMedia: 'url', headerMediaUrl: fromItem },
		good: 'https://example.com/a.jpg',
		bad: 'file:///etc/passwd',
		label: 'Header Media URL',
		reason: /http\(s\) URL/,
	},
	{
		case: 'Header Media URL with no host',
		operation: 'sendTemplate',
		parameters: { headerMedia: 'url', headerMediaUrl: fromItem },
		good: 'https://example.com/a.jpg',
		bad: 'https:///etc/passwd',
		label: 'Header Media URL',
		reason: /http\(s\) URL/,
	},
	{
		case: 'File Name over two lines',
		operation: 'sendTemplate',
		parameters: {
			headerMedia: 'document',
			headerMediaUrl: 'https://example.com/a.pdf',
			headerMediaFilename: fromItem,
		},
		good: 'invoice.pdf',
		bad: 'invoice\n.pdf',
		label: 'File Name',
		reason: /one line/,
	},
	// The same class elsewhere: e-mail, IDs, properties, numbers as text, Retry Until.
	{
		case: 'Agent Email with a trailing comma',
		operation: 'assignAgent',
		parameters: { agentEmail: fromItem },
		good: 'agent@example.com',
		bad: 'agent@example.com,',
		label: 'Agent Email',
		reason: /not an e-mail address/,
	},
	{
		case: 'Email as a mailto: link',
		operation: 'createMany',
		parameters: { additionalFields: { email: fromItem } },
		good: 'ada@example.com',
		bad: 'mailto:ada@example.com',
		label: 'Email',
		reason: /not an e-mail address/,
	},
	{
		case: 'an AI agent ID in Template ID',
		operation: 'sendTemplate',
		parameters: { templateId: fromItem },
		good: 'wat_welcome',
		bad: 'aiflw_support',
		label: 'Template ID',
		reason: /AI agent ID/,
	},
	{
		case: 'a template ID in AI Agent ID',
		operation: 'connectContact',
		parameters: { aiAgentId: fromItem },
		good: 'aiflw_support',
		bad: 'wat_welcome',
		label: 'AI Agent ID',
		reason: /template ID/,
	},
	{
		case: 'two template IDs in one',
		operation: 'connectContact',
		parameters: { templateId: fromItem },
		good: 'wat_welcome',
		bad: 'wat_welcome, wat_other',
		label: 'Template ID',
		reason: /one ID/,
	},
	{
		case: 'a template ID as Reply Automation App ID',
		operation: 'sendTemplate',
		parameters: { additionalFields: { replyAutomationAppId: fromItem } },
		good: 'aiflw_support',
		bad: 'wat_welcome',
		label: 'Reply Automation App ID',
		reason: /template ID/,
	},
	{
		case: 'a contact property "Phone Number"',
		operation: 'connectContact',
		parameters: {
			additionalFields: {
				contactProperties: { property: [{ key: fromItem, value: '+442079460958' }] },
			},
		},
		good: 'crm_id',
		bad: 'Phone Number',
		label: 'Contact Properties',
		reason: /own field/,
	},
	{
		case: 'a metadata number that lost digits',
		operation: 'createMany',
		parameters: {
			additionalFields: { metadata: { property: [{ key: 'card', value: fromItem }] } },
		},
		good: 1234,
		bad: 12345678901234567890,
		label: 'Metadata',
		reason: /exactly/,
	},
	{
		case: 'two phone fields that disagree, mapped automatically',
		operation: 'createMany',
		parameters: { contactFields: 'autoMapInputData' },
		good: null,
		bad: null,
		items: [{ phone: '+14155550123' }, { phone: '+14155550124', phone_number: '+442079460958' }],
		label: 'Phone Number',
		reason: /"phone".*"phone_number"|"phone_number".*"phone"/,
	},
	{
		case: 'Retry Until skipped by summer time',
		operation: 'sendTemplate',
		parameters: { additionalFields: { retryUntil: fromItem } },
		good: '2030-03-31T03:30:00',
		bad: '2030-03-31T02:30:00',
		label: 'Retry Until',
		reason: /does not exist/,
		timezone: 'Europe/Berlin',
	},
	{
		case: 'Retry Until that happens twice',
		operation: 'sendTemplate',
		parameters: { additionalFields: { retryUntil: fromItem } },
		good: '2030-10-27T02:30:00+01:00',
		bad: '2030-10-27T02:30:00',
		label: 'Retry Until',
		reason: /twice/,
		timezone: 'Europe/Berlin',
	},
	{
		case: 'Retry Until as a time alone',
		operation: 'sendTemplate',
		parameters: { additionalFields: { retryUntil: fromItem } },
		good: '2099-01-01T18:00:00',
		bad: '18:00',
		label: 'Retry Until',
		reason: /calendar date/,
	},
];

const itemsFor = (row: Refusal) => row.items ?? [{ value: row.good }, { value: row.bad }];

describe.each(refusals.map((row) => [`${row.operation}: ${row.case}`, row] as const))(
	'%s',
	(_name, row) => {
		test('stops before any request, naming the field and the item', async () => {
			const result = await runChatMessaging({
				items: itemsFor(row),
				parameters: { ...validSendingParameters[row.operation], ...row.parameters } as never,
				baseUrl: service.url,
				apiKey: API_KEY,
				timezone: row.timezone,
			});
			expectRefusedBeforeAnyRequest(result, service, {
				label: row.label,
				reason: row.reason,
				apiKey: API_KEY,
			});
		});

		test('the good value alone is sent, so the bad value is what stopped the run', async () => {
			const result = await runChatMessaging({
				items: [itemsFor(row)[0]],
				parameters: { ...validSendingParameters[row.operation], ...row.parameters } as never,
				baseUrl: service.url,
				apiKey: API_KEY,
				timezone: row.timezone,
			});
			expect(result.error).toBeUndefined();
			expect(service.acceptedSends()).toHaveLength(1);
		});
	},
);

describe('what the node does accept arrives as the one thing it can mean', () => {
	const send = (
		items: object[],
		parameters: Record<string, unknown>,
		operation: SendingOperation = 'sendTemplate',
	) =>
		runChatMessaging({
			items,
			parameters: { ...validSendingParameters[operation], ...parameters } as never,
			baseUrl: service.url,
			apiKey: API_KEY,
		});
	const body = () =>
		service.acceptedSends()[0].body as {
			contact: Record<string, unknown>;
			template_message: Record<string, unknown>;
		};

	test('a trunk "(0)" is dropped, 00 is the international prefix in both phone fields', async () => {
		const result = await send([{}], {
			phoneNumber: '+44 (0) 20 7946 0958',
			additionalFields: { businessPhoneNumber: '0044 (0)20 7946 0000' },
		});
		expect(result.error).toBeUndefined();
		expect(body().contact.phone_number).toBe('+442079460958');
		expect(body().template_message.business_phone_number).toBe('442079460000');
	});

	test('Send As Number sends the plain decimal written; Text keeps 007', async () => {
		const result = await send([{}], {
			templateVariablesInput: 'fields',
			templateVariables: {
				variable: [
					{ name: 'total', value: ' 3.50 ', sendAs: 'number' },
					{ name: 'delta', value: '-12', sendAs: 'number' },
					{ name: 'code', value: '007', sendAs: 'string' },
				],
			},
		});
		expect(result.error).toBeUndefined();
		expect(body().template_message.liquid_values).toEqual({ total: 3.5, delta: -12, code: '007' });
	});

	test('the JSON form takes the {link, filename} object for header_media', async () => {
		const media = { link: 'https://example.com/invoice.pdf', filename: 'invoice-1042.pdf' };
		const result = await send([{}], {
			templateVariablesInput: 'json',
			templateVariablesJson: JSON.stringify({ first_name: 'Ada', header_media: media }),
		});
		expect(result.error).toBeUndefined();
		expect(body().template_message.liquid_values).toEqual({
			first_name: 'Ada',
			header_media: media,
		});
	});

	test('a time zone in the wrong case is sent as IANA writes it', async () => {
		const result = await send([{}], {
			additionalFields: {
				retryWindow: { window: { startAt: '09:00', endAt: '17:00', timezone: 'europe/berlin' } },
			},
		});
		expect(result.error).toBeUndefined();
		expect(body().template_message.retry_window).toEqual({
			start_at: '09:00',
			end_at: '17:00',
			timezone: 'Europe/Berlin',
		});
	});

	test('where only text goes (Connect Contact), JSON numbers are sent as the text written, every digit kept', async () => {
		const result = await send(
			[{}],
			{
				templateVariablesInput: 'json',
				templateVariablesJson: '{"order_id": 12345678901234567890, "total": 3.50}',
			},
			'connectContact',
		);
		expect(result.error).toBeUndefined();
		expect(body().template_message.liquid_values).toEqual({
			order_id: '12345678901234567890',
			total: '3.50',
		});
	});
});
