/*
 * Adversarial pass over Order, Contact (Create or Update, Get, Update, Update Communication
 * Preference), Conversation (Close, Get Many, Update Status) and Media (Upload, Get Many, Delete).
 * Each test but the "SUSPICION RULED OUT" ones failed on the code before its fix; the comment above
 * each group says what the defect was and where. A ruled-out suspicion passed from the start and
 * stays as a record of what was checked.
 */

import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { testBytes, useFilesystemBinaryData } from '../../helpers/binaryItems';
import { addTestNodeType, runChatMessaging, runWorkflow } from '../../helpers/engineHarness';
import { ADA, operations } from '../../helpers/validOperations';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'adversarial-account-SECRET-key-9f3a';
const service = useStandInService({ apiKey: API_KEY });

const IN_SCOPE = [
	'order → create',
	'order → get',
	'order → refund',
	'contact → createOrUpdate',
	'contact → get',
	'contact → update',
	'contact → updateCommunicationPreference',
	'conversation → close',
	'conversation → getMany',
	'conversation → updateStatus',
	'media → getMany',
	'media → delete',
] as const;

const cases = IN_SCOPE.map((name) => [name, operations[name].parameters] as const);

/** Where the key appears in the execution, with some context, or undefined (keeps failures readable). */
function whereTheKeyIs(everything: string): string | undefined {
	const at = everything.indexOf(API_KEY);
	return at < 0 ? undefined : everything.slice(Math.max(0, at - 160), at + API_KEY.length + 10);
}

async function run(parameters: Record<string, unknown>, apiKey = API_KEY) {
	return await runChatMessaging({
		items: [{ phone: ADA }],
		parameters: parameters as never,
		baseUrl: service.url,
		apiKey,
	});
}

/*
 * (4a) Was: the transport hid the key only in failures it makes itself from an error status
 * (shared/transport/requestLoop.ts, callService's `fail`). A 2xx answer that is not the promised
 * one becomes a failure elsewhere, from the raw answer, without withoutSecret():
 * run/serviceAnswers.ts checkAnswer (message quotes the body, serviceBody is the body),
 * run/pages.ts notAPage (serviceBody), media/mediaUpload.ts mediaOf. A wrong Base URL that
 * answered 200 echoing the request's headers (an echo or debug endpoint, a proxy) put the key in
 * the error message and in the execution. Now callService cuts the key out of every success answer.
 */
const FAILING_ON_AN_ECHO = [
	'order → create',
	'order → get',
	'order → refund',
	'contact → createOrUpdate',
	'contact → get',
	'contact → update',
	'conversation → getMany',
	'conversation → updateStatus',
	'media → getMany',
] as const;

describe('(4) the API key never reaches an error', () => {
	test.each(FAILING_ON_AN_ECHO.map((name) => [name, operations[name].parameters] as const))(
		'%s: a 200 whose body echoes the API key is not a success, and the key appears nowhere',
		async (_name, parameters) => {
			service.injectFaults({
				status: 200,
				body: { echo: { headers: { authorization: API_KEY } } },
				count: 100,
			});
			const result = await run(parameters);
			expect(result.error).toBeDefined();
			expect(whereTheKeyIs(result.everything())).toBeUndefined();
		},
	);

	/*
	 * (4b) Was: the credential sends authorizationHeaderValue(apiKey): "Bearer " and whitespace dropped
	 * (credentials/ChatMessagingApi.credentials.ts). callService hides
	 * `client.credentials.data.apiKey`, the key as stored, so a key stored as "Bearer <key>" or with
	 * a trailing space/newline (pasted) is never matched, and the key actually sent leaks when the
	 * service or a proxy echoes it in a 4xx/5xx answer.
	 */
	test.each(
		cases.flatMap(([name, parameters]) => [
			[name, 'Bearer <key>', `Bearer ${API_KEY}`, parameters] as const,
			[name, '<key> + newline', `${API_KEY}\n`, parameters] as const,
		]),
	)(
		'%s: a key stored as %s (which the credential accepts) is still hidden when a 500 echoes it',
		async (_name, _form, storedKey, parameters) => {
			service.injectFaults({
				status: 500,
				body: { message: `internal error for key ${API_KEY}` },
				count: 100,
			});
			const result = await run(parameters, storedKey);
			expect(result.error).toBeDefined();
			expect(whereTheKeyIs(result.everything())).toBeUndefined();
		},
	);
});

/** Fixed Items → Chat Messaging with the items given as JSON text, exactly as an upstream node parsed it. */
async function runOnJsonText(itemsJson: string, parameters: Record<string, unknown>) {
	return await runChatMessaging({
		items: [],
		itemsJson,
		parameters: parameters as never,
		baseUrl: service.url,
		apiKey: API_KEY,
	});
}

/*
 * (1) Was: Line Items (JSON) is parsed by the node itself (order/lineItems.ts parseJson, JSON.parse), and
 * an amount written as a JSON number is then read back with String(number) (order/amounts.ts
 * amountText). Digits a double cannot hold are rounded away before the "never rounded" check runs:
 * what the user typed is charged as another amount instead of being refused.
 */
describe('(1) Order → Create: an amount typed in Line Items (JSON) is charged as written or refused, never rounded', () => {
	const create = (amount: string) => ({
		resource: 'order',
		operation: 'create',
		referenceId: `adversarial-${Math.random().toString(36).slice(2)}`,
		phoneNumber: ADA,
		amountsAreIn: 'major',
		currency: 'USD',
		lineItemsInput: 'json',
		lineItemsJson: `[{"name": "T-shirt", "amount": ${amount}, "quantity": 1}]`,
	});
	const sentAmounts = () =>
		service.requests
			.filter((r) => r.method === 'POST' && r.path === '/api/v1/orders')
			.map((r) => (r.body as { items: Array<{ amount: number }> }).items[0].amount);

	test('19.999999999999999 USD (more decimals than USD has) is refused, not charged as 20.00', async () => {
		const result = await run(create('19.999999999999999'));
		expect(sentAmounts()).toEqual([]);
		expect(result.error).toBeDefined();
	});

	test('85016071629436.51 USD is sent as 8501607162943651 cents or refused, not 8501607162943652', async () => {
		await run(create('85016071629436.51'));
		expect(sentAmounts()).not.toContain(8501607162943652);
	});

	test('SUSPICION RULED OUT: typed as text, 19.99, 0.1 and 1.005 are exact; 0.30000000000000004 is refused', async () => {
		for (const [amount, cents] of [
			['"19.99"', 1999],
			['0.1', 10],
			['"1.005"', undefined],
			['0.30000000000000004', undefined],
		] as const) {
			service.clearRequests();
			const result = await run(create(amount));
			if (cents === undefined) {
				expect(result.error).toBeDefined();
				expect(sentAmounts()).toEqual([]);
			} else {
				expect(result.error).toBeUndefined();
				expect(sentAmounts()).toEqual([cents]);
			}
		}
	});
});

/*
 * (1)/(6) Was: Media → Delete's readMediaId (media/delete.operation.ts) turns a number into text with
 * String(value) and accepts up to 16 digits, so a media ID that reached n8n as a JSON number beyond
 * 2^53 (its last digits already lost) is sent as another ID: a different media item is deleted.
 * The project refuses such numbers everywhere else (shared/validation/text.ts, inexactNumberReason).
 */
describe('(1)/(6) Media → Delete: an ID beyond exact numbers is refused, not rounded to another item', () => {
	test('{"id": 9007199254740993} is not sent as DELETE /api/v1/medias/9007199254740992', async () => {
		service.injectFaults({ status: 204, count: 10 });
		const result = await runOnJsonText('[{"id": 9007199254740993}]', {
			resource: 'media',
			operation: 'delete',
			mediaId: '={{ $json.id }}',
		});
		expect(service.requests.map((r) => `${r.method} ${r.path}`)).toEqual([]);
		expect(result.error).toBeDefined();
	});
});

/*
 * (5) Was: Media → Upload reads the file's bytes in `send` (mediaUpload.ts, loadMediaBytes), after
 * every item was checked. When n8n cannot read one item's bytes (a file pruned from disk, an S3
 * read that fails), the error is not a ServiceRequestFailed, so runPerItem (run/perItem.ts, the
 * `throw run.itemError(error, itemIndex)` in the request loop) stops the whole node even with
 * Continue On Fail: the other items' uploads, already made, are reported nowhere, and running
 * the workflow again uploads them twice.
 */
describe('(5) Continue On Fail: Media → Upload when one file cannot be read', () => {
	useFilesystemBinaryData('adversarial-account-');

	test('a good file and one whose stored bytes are gone: one output item each, paired, the good one uploaded', async () => {
		const result = await runWorkflow({
			nodes: [
				{
					id: 'files',
					name: 'Files',
					type: 'test.lostFileItems',
					typeVersion: 1,
					position: [0, 0],
					parameters: {},
				},
				{
					id: 'chat',
					name: 'Chat Messaging',
					type: 'n8n-nodes-chat-messaging.chatMessaging',
					typeVersion: 1,
					position: [200, 0],
					parameters: {
						resource: 'media',
						operation: 'upload',
						binaryPropertyName: 'data',
						options: { requestsInParallel: 1 },
					},
					credentials: { chatMessagingApi: { id: '1', name: 'Chat Messaging account' } },
					onError: 'continueRegularOutput',
				},
			],
			connections: {
				Files: { main: [[{ node: 'Chat Messaging', type: NodeConnectionTypes.Main, index: 0 }]] },
			},
			credentials: { chatMessagingApi: { apiKey: API_KEY, baseUrl: service.url } },
		});
		// Proof of the setup: the first file was uploaded before the second could not be read.
		expect(service.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
		expect(result.error).toBeUndefined();
		const output = result.outputOf('Chat Messaging')!;
		expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(output[0].json).toMatchObject({ id: expect.any(Number) });
		expect(output[1].json).toMatchObject({ error: expect.any(String) });
	});
});

/** Two PDF items stored by n8n on disk; the second one's bytes are then lost (its id names no file). */
class LostFileItems implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Lost File Items',
		name: 'lostFileItems',
		group: ['input'],
		version: 1,
		description: 'tests only',
		defaults: { name: 'Lost File Items' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items: INodeExecutionData[] = [];
		for (const name of ['kept.pdf', 'lost.pdf']) {
			const binary = await this.helpers.prepareBinaryData(testBytes(500), name, 'application/pdf');
			if (name === 'lost.pdf') binary.id = `${binary.id!}-gone`;
			items.push({ json: {}, binary: { data: binary }, pairedItem: { item: 0 } });
		}
		return [items];
	}
}
addTestNodeType('test.lostFileItems', new LostFileItems());
