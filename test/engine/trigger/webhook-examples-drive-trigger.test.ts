/*
 * Every webhook example in docs/openapi.yaml (its `webhooks:` section) drives the trigger, inside
 * n8n's webhook layer, to the output the document says it gives (`x-trigger-output`): the
 * document's examples and the trigger's reading of them cannot part.
 */
import { readContractDocument } from '../../helpers/openApiContract';
import { startTriggerHarness, type TriggerHarness } from '../../helpers/triggerHarness';

jest.setTimeout(60_000);

interface WebhookExample {
	value: unknown;
	'x-trigger-output': Record<string, unknown>;
}

const webhooks = (readContractDocument() as { webhooks: Record<string, any> }).webhooks;
const examples = Object.entries(webhooks).flatMap(([kind, item]) =>
	Object.entries(
		item.post.requestBody.content['application/json'].examples as Record<string, WebhookExample>,
	).map(([name, example]) => [`${kind} → ${name}`, example] as const),
);

let harness: TriggerHarness;
beforeAll(async () => {
	harness = await startTriggerHarness({ parameters: {} });
});
afterAll(async () => {
	await harness.close();
});

test('the document has an example, with its output, for each of the four kinds', () => {
	expect(Object.keys(webhooks).sort()).toEqual(
		['aiAgentExecution', 'flowExecution', 'messageDelivery', 'order'].sort(),
	);
	for (const [, example] of examples) expect(example['x-trigger-output']).toBeDefined();
});

test.each(examples)('%s: the trigger outputs what the document says', async (_name, example) => {
	const result = await harness.post(JSON.stringify(example.value));
	expect(result.status).toBe(200);
	const [[item]] = result.call.workflowData!;
	const expected = example['x-trigger-output'];
	const shown = Object.fromEntries(Object.keys(expected).map((key) => [key, item.json[key]]));
	expect(shown).toEqual(expected);
});
