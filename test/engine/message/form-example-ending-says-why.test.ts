/*
 * The form example (examples/form-to-send-template.json) run in n8n's engine as the file wires it:
 * its Send node with the file's parameters and On Error setting, and both Form Ending nodes with
 * the file's Completion Title and Message, evaluated by n8n's expressions. Only n8n's own form
 * nodes are stood in for: the trigger by the items a person's form gives, the endings by a node
 * that shows the title and message as n8n's ending page would. The end-to-end test fills in the
 * real form; this one proves that a refused number's page says the node's own reason for it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import fc from 'fast-check';
import type {
	IConnections,
	IExecuteFunctions,
	INode,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { normalisePhoneNumber } from '../../../nodes/shared/validation/phoneNumbers';
import { InvalidParameter } from '../../../nodes/shared/validation/invalidParameter';
import { addTestNodeType, inputNode, runWorkflow } from '../../helpers/engineHarness';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'form-example-ending-key-5d1f';
const service = useStandInService({ apiKey: API_KEY });

const example = JSON.parse(
	readFileSync(join(__dirname, '../../../examples/form-to-send-template.json'), 'utf8'),
) as { nodes: INode[]; connections: IConnections };
const FORM_TRIGGER = example.nodes.find((node) => node.type === 'n8n-nodes-base.formTrigger')!;
const ENDINGS = example.nodes.filter((node) => node.type === 'n8n-nodes-base.form');

/** n8n's Form Ending page: its title and message, as the person reads them. */
class FormEndingPage implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Form Ending (test)',
		name: 'form',
		group: ['output'],
		version: 1,
		description: 'Shows the Completion Title and Message (tests only)',
		defaults: { name: 'Form Ending' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [
			{ displayName: 'Operation', name: 'operation', type: 'string', default: '' },
			{ displayName: 'Title', name: 'completionTitle', type: 'string', default: '' },
			{ displayName: 'Message', name: 'completionMessage', type: 'string', default: '' },
		],
	};

	async execute(this: IExecuteFunctions) {
		return [
			[
				{
					json: {
						title: this.getNodeParameter('completionTitle', 0) as string,
						message: this.getNodeParameter('completionMessage', 0) as string,
					},
					pairedItem: { item: 0 },
				},
			],
		];
	}
}
addTestNodeType('n8n-nodes-base.form', new FormEndingPage());

/** Fills in the form example once and returns the ending page the person is shown. */
async function fillInForm(name: string, phoneNumber: string) {
	const form = { Name: name, 'Phone number': phoneNumber, Email: '', formMode: 'production' };
	const nodes = [
		{ ...inputNode(JSON.stringify([form])), name: FORM_TRIGGER.name },
		...example.nodes.filter((node) => node !== FORM_TRIGGER),
	];
	const run = await runWorkflow({
		nodes,
		connections: example.connections,
		credentials: { chatMessagingApi: { apiKey: API_KEY, baseUrl: service.url } },
	});
	expect(run.error).toBeUndefined();
	const pages = ENDINGS.map((ending) => run.outputOf(ending.name)).filter(
		(output) => output !== undefined,
	);
	expect(pages).toHaveLength(1);
	return pages[0]![0].json as { title: string; message: string };
}

/** What the node says about this number, without the field's name: its reason, as it words it. */
function refusalOf(phoneNumber: string): string | undefined {
	try {
		normalisePhoneNumber(phoneNumber, 'Phone Number');
	} catch (error) {
		if (error instanceof InvalidParameter) return error.reason;
		throw error;
	}
	return undefined;
}

function nodeReason(phoneNumber: string): string {
	const reason = refusalOf(phoneNumber);
	if (reason === undefined) throw new Error(`${phoneNumber} is accepted by the node`);
	return reason;
}

// One of each of the node's refusals a person can type into the form's phone field.
const REFUSED = [
	'1-800-FLOWERS',
	'020 7946 0018',
	'+44 20 7946 0958 ext. 12',
	'+1 415 555 0123, +1 415 555 0124',
	'011 44 20 7946 0958',
	'+12',
	'+44 (0) 20 (0) 7946 0958',
	'tel:+1-415-555-0123;ext=2',
];

test.each(REFUSED)(
	'the page for "%s" says the node\'s own reason for that number, and nothing was sent',
	async (phoneNumber) => {
		const page = await fillInForm('Grace Hopper', phoneNumber);
		expect(page.title).toBe('We could not send your welcome message');
		expect(page.message).toContain(nodeReason(phoneNumber));
		expect(page.message).toContain(JSON.stringify(phoneNumber));
		expect(page.message).toMatch(/fill in the form again\.$/);
		expect(service.acceptedSends('/api/v1/events')).toEqual([]);
	},
);

test("whatever number the node refuses, the page says the node's reason for it", async () => {
	// What a person may type into a text field: anything, and text made of a phone number's parts.
	const typed = fc.oneof(
		fc.string({ minLength: 1, maxLength: 24 }),
		fc.stringMatching(/^[+0-9 ()\-.,;a-zA-Z]{1,24}$/),
	);
	await fc.assert(
		fc.asyncProperty(
			typed.filter((text) => text.trim() !== '' && refusalOf(text) !== undefined),
			async (phoneNumber) => {
				const page = await fillInForm('Grace Hopper', phoneNumber);
				expect(page.message).toContain(nodeReason(phoneNumber));
			},
		),
		{ numRuns: 15 },
	);
});

test('"1-800-FLOWERS" is not told to add a country code, which is not its problem', async () => {
	const page = await fillInForm('Grace Hopper', '1-800-FLOWERS');
	expect(page.message).not.toMatch(/country code/);
	expect(page.message).toMatch(/letters are never read as digits/);
});

test('a number the node accepts gets the page saying the message is on its way', async () => {
	const page = await fillInForm('Ada Lovelace', '+44 20 7946 0018');
	expect(page).toEqual({
		title: 'Your welcome message is on its way',
		message: 'We are sending it on WhatsApp to +442079460018. It usually arrives within a minute.',
	});
	expect(service.acceptedSends('/api/v1/events')).toHaveLength(1);
});
