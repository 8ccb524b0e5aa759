import { join } from 'node:path';

/*
 * CPU per item of the node's own work, without network: the built dist/ code (what users run),
 * called with a minimal stand-in for n8n's IExecuteFunctions whose parameters are already-resolved
 * values (n8n's expression cost is n8n's, and the same for every node) and whose HTTP helper
 * answers at once. Runs under the Node that n8n runs on; prints one JSON object on stdout.
 *
 *   node --require ts-node/register/transpile-only scripts/bench/cpuPerItem.ts [items] [runs]
 */

const PROJECT_ROOT = join(__dirname, '..', '..');
/** Built code, loaded as n8n loads it, typed by the little the bench calls. */
const dist = <T>(path: string) => require(join(PROJECT_ROOT, 'dist', path)) as T;

interface BuiltNode {
	execute(this: unknown): Promise<unknown>;
}
interface BuiltSchema {
	safeParse(value: unknown): unknown;
}

const ITEMS = Number(process.argv[2] ?? 5000);
const RUNS = Number(process.argv[3] ?? 9);
const WARM_UP_RUNS = 2;

type Parameters = Record<string, unknown>;

interface FakeOptions {
	items: Array<Record<string, unknown>>;
	/** Parameters as n8n would hand them over after resolving expressions for item i. */
	parametersFor(itemIndex: number): Parameters;
	/**
	 * The same parameters as written in the workflow (n8n's `rawExpressions`), so the node can tell
	 * which are the same for every item: those that vary are expressions of the item here.
	 */
	asWritten: Parameters;
	statusCode: number;
}

/** Just enough of IExecuteFunctions for the node's execute(); nothing here does real work. */
function fakeExecuteFunctions(options: FakeOptions) {
	const perItem = options.items.map((_item, index) => options.parametersFor(index));
	const inputData = options.items.map((json) => ({ json }));
	// The node checks an answer is about the item's own contact: the answer repeats the request, as a
	// send's does, and a batch of contacts is answered with one of its contacts, as the service does.
	// Made once per contact and kept: serialising the answer is the fake service's work, not the node's.
	const answers = new Map<unknown, { statusCode: number; body: string; headers: object }>();
	const answerTo = (request: { body?: unknown }) => {
		const sent: unknown =
			typeof request.body === 'string' ? JSON.parse(request.body) : request.body;
		const about = (Array.isArray(sent) ? sent[0] : sent) as {
			phone_number?: string;
			contact?: { phone_number?: string };
		};
		const contact = about.contact?.phone_number ?? about.phone_number;
		let answer = answers.get(contact);
		if (answer === undefined) {
			answer = {
				statusCode: options.statusCode,
				body: JSON.stringify(about),
				headers: { 'content-type': 'application/json' },
			};
			answers.set(contact, answer);
		}
		return answer;
	};
	const lookUp = (parameters: Parameters, name: string): unknown =>
		name
			.split('.')
			.reduce<unknown>((value, key) => (value as Parameters | undefined)?.[key], parameters);
	return {
		getNodeParameter(
			name: string,
			itemIndex: number,
			fallback?: unknown,
			read?: { rawExpressions?: boolean },
		) {
			const value = lookUp(read?.rawExpressions ? options.asWritten : perItem[itemIndex], name);
			return value === undefined ? fallback : value;
		},
		getInputData: () => inputData,
		getNode: () => ({
			id: 'bench',
			name: 'Chat Messaging',
			type: 'n8n-nodes-chat-messaging.chatMessaging',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		}),
		getTimezone: () => 'UTC',
		continueOnFail: () => false,
		getCredentials: () => Promise.resolve({ apiKey: 'bench-key', baseUrl: 'http://127.0.0.1:1' }),
		helpers: {
			httpRequestWithAuthentication: (_credential: string, request: { body?: unknown }) =>
				Promise.resolve(answerTo(request)),
		},
	};
}

async function bench(runOnce: () => unknown): Promise<number[]> {
	const samples: number[] = [];
	for (let run = 0; run < WARM_UP_RUNS + RUNS; run++) {
		const before = process.cpuUsage();
		await runOnce();
		const used = process.cpuUsage(before);
		if (run >= WARM_UP_RUNS) samples.push((used.user + used.system) / ITEMS);
	}
	return samples;
}

const median = (values: number[]) => {
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

async function main(): Promise<void> {
	const { ChatMessaging } = dist<{ ChatMessaging: new () => BuiltNode }>(
		'nodes/ChatMessaging/ChatMessaging.node.js',
	);
	const { sendTemplate } = dist<{
		sendTemplate: { prepare(this: unknown, itemIndex: number): unknown };
	}>('nodes/ChatMessaging/actions/message/sendTemplate.operation.js');
	const schemas = dist<{
		sendTemplateBodyCheckedAt(now: () => number): BuiltSchema;
		sendTemplateBody: BuiltSchema;
	}>('nodes/shared/schemas/index.js');
	const node = new ChatMessaging();

	const items = Array.from({ length: ITEMS }, (_unused, i) => ({
		phone: `+1415555${String(i % 10000).padStart(4, '0')}`,
		name: `Contact ${i}`,
		email: `contact${i}@example.com`,
	}));

	const sendParameters =
		(options: Parameters) =>
		(i: number): Parameters => ({
			resource: 'message',
			operation: 'sendTemplate',
			phoneNumber: items[i].phone,
			templateId: 'wat_bench_welcome',
			templateVariablesInput: 'fields',
			templateVariables: {
				variable: [{ name: 'first_name', value: items[i].name, sendAs: 'string' }],
			},
			headerMedia: 'none',
			additionalFields: { contactName: items[i].name },
			options,
		});
	const sendFake = fakeExecuteFunctions({
		items,
		parametersFor: sendParameters({}),
		asWritten: {
			...sendParameters({})(0),
			phoneNumber: '={{ $json.phone }}',
			templateVariables: {
				variable: [{ name: 'first_name', value: '={{ $json.name }}', sendAs: 'string' }],
			},
			additionalFields: { contactName: '={{ $json.name }}' },
		},
		statusCode: 201,
	});

	const prepare = await bench(() => {
		for (let i = 0; i < ITEMS; i++) sendTemplate.prepare.call(sendFake, i);
	});
	const sendNode = await bench(() => node.execute.call(sendFake));

	const contactParameters = (i: number) => ({
		resource: 'contact',
		operation: 'createMany',
		phoneNumber: items[i].phone,
		additionalFields: { name: items[i].name, email: items[i].email },
		options: {},
	});
	const contactsFake = fakeExecuteFunctions({
		items,
		parametersFor: contactParameters,
		asWritten: {
			...contactParameters(0),
			phoneNumber: '={{ $json.phone }}',
			additionalFields: { name: '={{ $json.name }}', email: '={{ $json.email }}' },
		},
		statusCode: 201,
	});
	const createManyNode = await bench(() => node.execute.call(contactsFake));

	// Evidence for where prepare's time goes: the send schema is built per item (it takes "now").
	const body = {
		event_type: 'send_template_message',
		contact: { phone_number: items[0].phone, name: items[0].name },
		template_message: {
			chat_template_id: 'wat_bench_welcome',
			liquid_values: { first_name: items[0].name },
		},
	};
	const buildSchemaAndParse = await bench(() => {
		for (let i = 0; i < ITEMS; i++)
			schemas.sendTemplateBodyCheckedAt(() => Date.now()).safeParse(body);
	});
	const parseWithBuiltSchema = await bench(() => {
		for (let i = 0; i < ITEMS; i++) schemas.sendTemplateBody.safeParse(body);
	});

	const summary = (samples: number[]) => ({ medianMicroseconds: median(samples), samples });
	process.stdout.write(
		`${JSON.stringify({
			node: process.version,
			items: ITEMS,
			runs: RUNS,
			sendTemplatePrepare: summary(prepare),
			sendTemplateNode: summary(sendNode),
			createManyNode: summary(createManyNode),
			sendSchemaBuiltPerItem: summary(buildSchemaAndParse),
			sendSchemaBuiltOnce: summary(parseWithBuiltSchema),
		})}\n`,
	);
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
