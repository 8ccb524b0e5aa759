/*
 * Issue 35, defect 2: Send Template as an AI agent's tool, when the service's 201 carries a field
 * named `error` that says nothing went wrong (`"error": null`, `"error": ""`). The node copied the
 * answer into the item, and the tool layer took any `error` key for a failure: the model read "The
 * call was not carried out ... call the tool again" about a message that was queued, and sent it a
 * second time. n8n itself reads the same key: WorkflowExecute's Retry On Fail (packages/core
 * workflow-execute.ts, checkFailure: the first output item's `json.error` neither undefined, null
 * nor false) runs the node again, which is how the engine-requests path runs an agent's tool.
 *
 * A success is never reported to the model as a failure, nor a failure as a success, whatever
 * fields the answer has. Run through n8n-core's own tool paths (agentToolHarness.ts) against the
 * stand-in; the answers are the stand-in's fault queue answering 201 with the body given.
 */
import fc from 'fast-check';

import { runAgent, type ToolNode, type ToolPath } from '../../helpers/agentToolHarness';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'agent-tool-verdict-key-SECRET-0b7e';
const service = useStandInService({ apiKey: API_KEY });

const ORDER_UPDATE_EN = 'wat_1a2b3c4d5e6f7081';

const sendOrderUpdate: ToolNode = {
	name: 'Send order update',
	parameters: {
		resource: 'message',
		operation: 'sendTemplate',
		phoneNumber: "={{ $fromAI('phone_number', 'The phone number, e.g. +14155550123', 'string') }}",
		template: { __rl: true, mode: 'id', value: ORDER_UPDATE_EN },
		templateVariablesInput: 'json',
		templateVariablesJson:
			"={{ $fromAI('template_variables', 'Every variable of the template by name', 'json') }}",
	},
};

const args = {
	phone_number: '+44 20 7946 0018',
	template_variables: {
		first_name: 'Ada',
		order_number: 'A-1042',
		order_status: 'on its way',
		order_total: '42.50',
	},
};

const sends = () => service.requests.filter((r) => r.path === '/api/v1/events');

/** The service's 201 as the contract allows it: the request repeated, plus the fields given. */
function answering(extra: Record<string, unknown>) {
	service.injectFaults({
		path: '/api/v1/events',
		status: 201,
		body: {
			id: 'cmsg_verdict_1',
			event_type: 'send_template_message',
			contact: { phone_number: '+442079460018' },
			template_message: { chat_template_id: ORDER_UPDATE_EN },
			...extra,
		},
	});
}

async function callOnce(path: ToolPath, tool: Partial<ToolNode> = {}) {
	const result = await runAgent({
		tools: [{ ...sendOrderUpdate, ...tool }],
		calls: [{ tool: 'Send_order_update', args }],
		baseUrl: service.url,
		apiKey: API_KEY,
		path,
	});
	expect(result.error).toBeUndefined();
	expect(result.answers[0].thrown).toBeUndefined();
	const [json] = result.parsed[0] as Array<Record<string, unknown>>;
	return json;
}

function expectQueued(json: Record<string, unknown>) {
	expect(json).toMatchObject({ queued: true, status: 'queued', id: 'cmsg_verdict_1' });
	for (const failureWord of ['error', 'problem', 'nextStep', 'outcome', 'argument'])
		expect(json).not.toHaveProperty(failureWord);
}

const paths: ToolPath[] = ['tool wrapper', 'engine requests'];

describe.each(paths)("run by the agent through n8n-core's %s", (path) => {
	test('a 201 with "error": null is reported to the model as queued, the error field kept as the service wrote it', async () => {
		answering({ error: null });
		const json = await callOnce(path);
		expectQueued(json);
		expect(json.fromService).toEqual({ error: null });
		expect(sends()).toHaveLength(1);
	});

	test('with Retry On Fail, a 201 with "error": "" is sent once, not again', async () => {
		answering({ error: '' });
		const json = await callOnce(path, { retryOnFail: true, maxTries: 3, waitBetweenTries: 0 });
		expectQueued(json);
		expect(sends()).toHaveLength(1);
	});
});

/**
 * What docs/failure-semantics.md says makes a 2xx a failure: a status word, success: false, an
 * error that reports something (an empty list or object, like null or "", reports none).
 */
function answerSaysFailure(extra: Record<string, unknown>): boolean {
	const { status, success, error } = extra;
	return (
		(typeof status === 'string' &&
			/^(error|errored|fail|failed|failure|rejected|refused|invalid|denied|unauthori[sz]ed|forbidden)$/i.test(
				status.trim(),
			)) ||
		success === false ||
		(typeof error === 'string' && error.trim() !== '') ||
		(error !== null && typeof error === 'object' && Object.keys(error).length > 0)
	);
}

const NAMES_LIKE_THE_NODES = [
	'error',
	'status',
	'queued',
	'outcome',
	'problem',
	'nextStep',
	'argument',
	'success',
	'data',
	'answered',
	'sent',
	'accepted',
	'fromService',
	'statusCode',
	'retries',
];

test('property: whatever fields the 201 has, the model reads queued exactly when the answer confirms the send', async () => {
	const value = fc.oneof(
		fc.constantFrom(null, '', 'failed', 'queued', 'error', false, true, 0, {}, []),
		fc.jsonValue({ maxDepth: 1 }).map((v) => JSON.parse(JSON.stringify(v)) as unknown),
	);
	const extra = fc.dictionary(fc.constantFrom(...NAMES_LIKE_THE_NODES), value, {
		minKeys: 1,
		maxKeys: 4,
	});
	await fc.assert(
		fc.asyncProperty(extra, fc.constantFrom(...paths), async (given, path) => {
			service.clearRequests();
			service.clearFaults();
			answering(given);
			const json = await callOnce(path);
			if (answerSaysFailure(given)) {
				expect(json).toMatchObject({
					problem: expect.stringMatching(/answered 201 but not as documented/),
					outcome: 'may have been sent',
					nextStep: expect.stringMatching(/do not call this tool again/),
				});
				expect(json).not.toHaveProperty('queued');
			} else {
				expectQueued(json);
				// Every field the answer had is still there, at the top or under fromService.
				for (const [name, sent] of Object.entries(given)) {
					const shown = Object.prototype.hasOwnProperty.call(json.fromService ?? {}, name)
						? (json.fromService as Record<string, unknown>)[name]
						: json[name];
					expect(shown).toEqual(sent);
				}
			}
			expect(sends()).toHaveLength(1);
		}),
		// 30 runs: the defect put back fails within the first few ("error": null comes early).
		{ numRuns: 30 },
	);
});
