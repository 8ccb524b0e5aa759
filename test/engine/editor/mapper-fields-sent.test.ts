/*
 * What the mapper offers is what the run reads and sends (issue 24, items 6, 7, 9 and 10), through
 * n8n's editor context and engine against the stand-in:
 *   - every field the mapper shows, for every operation using it and every approved template, can
 *     be filled and is sent (Connect to AI Agent used to offer a document's file name it refused);
 *   - Map Automatically reads from an item exactly the fields the template asks for: an image
 *     header goes as its link even when the item has a file name field, and an item's unrelated
 *     header_media does not fail a template without a media header;
 *   - when the template cannot be read at run time and the mapper holds no fields, its variables
 *     are unknown: the item fails, naming the template, and nothing goes out (it used to be sent
 *     without variables and reported queued).
 */
import { getTemplateVariables } from '../../../nodes/ChatMessaging/methods/resourceMapping';
import { seedTemplates } from '../../../sandbox/service/templateCatalogue';
import { useStandInService } from '../../helpers/standInFixture';
import { runChatMessaging } from '../../helpers/engineHarness';
import {
	autoMapped,
	mappedBelow,
	picked,
	TEMPLATE_SENDING_OPERATIONS,
} from '../../helpers/savedParameters';
import { editorContext } from '../../helpers/editorContext';

const API_KEY = 'mapper-fields-sent-key';
const service = useStandInService({ apiKey: API_KEY });
const EVENTS = '/api/v1/events';
const TEMPLATES = '/api/v1/whats_app_templates';
const FEEDBACK_REQUEST = 'wat_b425364758697a8b'; // pt_BR, body {{first_name}}, no header
const SPRING_SALE = 'wat_3c4d5e6f70819203'; // en, image header, first_name, discount, end_date

const operations = TEMPLATE_SENDING_OPERATIONS;

const approved = seedTemplates()
	.filter((template) => template.status === 'approved')
	// loyalty_points has a placeholder no field can fill ({{promo code}}): the mapper says so instead.
	.filter((template) => template.template_name !== 'loyalty_points')
	.map((template) => [template.template_name, template.id] as const);

const sent = () =>
	service
		.acceptedSends(EVENTS)
		.map((request) => request.body as Record<string, Record<string, unknown>>)
		.map((body) => body.template_message ?? body.broadcast);

async function run(
	parameters: Record<string, unknown>,
	items: object[] = [{}],
	continueOnFail = false,
) {
	return await runChatMessaging({
		items,
		parameters: parameters as never,
		baseUrl: service.url,
		apiKey: API_KEY,
		typeVersion: 2,
		continueOnFail,
	});
}

/** A value the service takes for each kind of field. */
function filled(id: string): string {
	if (id === 'header_media') return 'https://cdn.example.com/media/file-1';
	if (id === 'header_media_filename') return 'Invoice March.pdf';
	return `value of ${id}`;
}

describe.each(operations)(
	'%s: every field the mapper shows can be filled and sent',
	(_op, base) => {
		test.each(approved)('%s', async (_name, id) => {
			const mapper = await getTemplateVariables.call(
				editorContext({
					baseUrl: service.url,
					apiKey: API_KEY,
					typeVersion: 2,
					parameters: { ...base, template: picked(id, 'id') },
				}),
			);
			const values = Object.fromEntries(mapper.fields.map((field) => [field.id, filled(field.id)]));
			const result = await run({
				...base,
				template: picked(id, 'id'),
				templateVariablesMapped: mappedBelow(values),
			});
			expect((result.error as { message?: string } | undefined)?.message).toBeUndefined();
			expect(sent()).toHaveLength(1);
			expect(sent()[0].chat_template_id).toBe(id);
		});
	},
);

describe('Map Automatically reads the fields the template asks for, and leaves the rest', () => {
	const sendTemplate = operations[0][1];

	test('an image header goes as its link, although the item has a file name field', async () => {
		const result = await run(
			{ ...sendTemplate, template: picked(SPRING_SALE, 'id'), templateVariablesMapped: autoMapped },
			[
				{
					first_name: 'Ada',
					discount: '20%',
					end_date: 'May 31',
					header_media: 'https://cdn.example.com/sale.jpg',
					header_media_filename: 'sale.jpg',
				},
			],
		);
		expect(result.error).toBeUndefined();
		expect(sent()[0].liquid_values).toEqual({
			first_name: 'Ada',
			discount: '20%',
			end_date: 'May 31',
			header_media: 'https://cdn.example.com/sale.jpg',
		});
	});

	test('a file name mapped by hand for an image header is refused, naming the header kind', async () => {
		const result = await run({
			...sendTemplate,
			template: picked(SPRING_SALE, 'id'),
			templateVariablesMapped: mappedBelow({
				first_name: 'Ada',
				discount: '20%',
				end_date: 'May 31',
				header_media: 'https://cdn.example.com/sale.jpg',
				header_media_filename: 'sale.jpg',
			}),
		});
		expect((result.error as { message?: string } | undefined)?.message).toMatch(
			/header media has a file name, but the template spring_sale \(en\) has an image header: only document headers take one/,
		);
		expect(sent()).toEqual([]);
	});

	test("an item's unrelated header_media does not fail a template without a media header", async () => {
		const result = await run(
			{
				...sendTemplate,
				template: picked(FEEDBACK_REQUEST, 'id'),
				templateVariablesMapped: autoMapped,
			},
			[{ first_name: 'João', header_media: 'not a link at all', header_media_filename: 'x' }],
		);
		expect(result.error).toBeUndefined();
		expect(sent()[0].liquid_values).toEqual({ first_name: 'João' });
	});
});

test('an item missing several variables fails naming the template and every one missing, nothing sent', async () => {
	const result = await run(
		{
			...operations[0][1],
			template: picked(SPRING_SALE, 'id'),
			templateVariablesMapped: autoMapped,
		},
		[{ discount: '20%', header_media: 'https://cdn.example.com/sale.jpg' }],
	);
	expect((result.error as { message?: string } | undefined)?.message).toMatch(
		/variables "first_name", "end_date" of the template spring_sale \(en\) have no value/,
	);
	expect(sent()).toEqual([]);
});

describe('a template that cannot be read at run time', () => {
	const sendTemplate = operations[0][1];
	const unreadable = () =>
		service.injectFaults({
			status: 403,
			body: { message: 'Forbidden' },
			path: `${TEMPLATES}/${FEEDBACK_REQUEST}`,
		});

	test('with a mapper saved without fields: the item fails naming the template, nothing is sent', async () => {
		unreadable();
		const result = await run(
			{
				...sendTemplate,
				template: picked(FEEDBACK_REQUEST, 'id'),
				templateVariablesMapped: autoMapped,
			},
			[{ first_name: 'João' }],
			true,
		);
		expect(result.error).toBeUndefined();
		expect(result.output).toHaveLength(1);
		expect(result.output![0].pairedItem).toEqual({ item: 0 });
		expect(result.output![0].json).toMatchObject({ outcome: 'not sent' });
		expect(result.output![0].json.queued).toBeUndefined();
		expect(String(result.output![0].json.error)).toMatch(
			new RegExp(
				`the template ${FEEDBACK_REQUEST} could not be read at run time .*the variables it needs are unknown`,
			),
		);
		expect(service.requests.filter((request) => request.path === EVENTS)).toEqual([]);
	});

	test("with the mapper's saved fields: a missing one fails naming the template and the variable", async () => {
		unreadable();
		const result = await run(
			{
				...sendTemplate,
				template: picked(FEEDBACK_REQUEST, 'id'),
				templateVariablesMapped: { ...autoMapped, schema: mappedBelow({ first_name: '' }).schema },
			},
			[{ name: 'no first_name field' }],
		);
		expect((result.error as { message?: string } | undefined)?.message).toMatch(
			new RegExp(
				`"first_name" of the template ${FEEDBACK_REQUEST} has no value, so nothing was sent`,
			),
		);
		expect(service.requests.filter((request) => request.path === EVENTS)).toEqual([]);
	});
});
