/*
 * Message → Send Template and Wait for Response in n8n's engine, against the stand-in: what is sent
 * (the signed response link in the chosen variable), that the execution waits (and until when),
 * the item it leaves waiting, and every refusal before a send. Pressing the link needs n8n's
 * waiting-webhook server: test/e2e/send-and-wait.test.ts does that in a real n8n.
 */
import { ExecuteContext } from 'n8n-core';

import { runChatMessaging } from '../../helpers/engineHarness';
import { mappedBelow, picked } from '../../helpers/savedParameters';
import { REFUND_APPROVAL_TEMPLATE, refundApprovalTemplate } from '../../helpers/refundApproval';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'send-and-wait-key-SECRET-7c21';
const service = useStandInService({ apiKey: API_KEY });

const REFUND_APPROVAL = REFUND_APPROVAL_TEMPLATE;
const ORDER_UPDATE = 'wat_1a2b3c4d5e6f7081';
/** The harness's execution and node: n8n signs /webhook-waiting/<execution>/<node id>. */
const LINK =
	/^http:\/\/127\.0\.0\.1:5678\/webhook-waiting\/engine-test-execution\/chat\?wait=1&signature=[0-9a-f]{64}$/;

const VERSION_2 = refundApprovalTemplate();

function run(
	parameters: Record<string, unknown>,
	options: { items?: object[]; typeVersion?: number; continueOnFail?: boolean } = {},
) {
	return runChatMessaging({
		items: options.items ?? [{ customer: 'Ada' }],
		parameters: {
			resource: 'message',
			operation: 'sendAndWait',
			phoneNumber: '+14155550123',
			responseLinkVariable: 'approval_link',
			...(options.typeVersion === 1 ? {} : VERSION_2),
			...parameters,
		} as never,
		baseUrl: service.url,
		apiKey: API_KEY,
		typeVersion: options.typeVersion ?? 2,
		continueOnFail: options.continueOnFail,
	});
}

const sends = () => service.acceptedSends('/api/v1/events');
const sentValues = (index = 0) =>
	(sends()[index].body as { template_message: { liquid_values: Record<string, string> } })
		.template_message.liquid_values;

test('sends the picked template with the signed link in the chosen variable, then waits with the input item', async () => {
	const before = Date.now();
	const result = await run({});
	expect(result.error).toBeUndefined();
	expect(sends()).toHaveLength(1);
	expect(sentValues()).toEqual({
		amount: '40.00 EUR',
		order_number: 'A-7',
		approval_link: expect.stringMatching(LINK),
	});
	// Without Limit Wait Time, n8n's "indefinitely".
	expect(result.run.waitTill?.getTime()).toBe(new Date('3000-01-01T00:00:00.000Z').getTime());
	expect(result.run.status).toBe('waiting');
	expect(Date.now()).toBeGreaterThanOrEqual(before);
	const [waiting] = result.output!;
	expect(waiting.json).toEqual({
		customer: 'Ada',
		answered: false,
		// The event the answer's Location points at, not the message's own id.
		event_id: expect.stringMatching(/^evt_/),
	});
	expect(waiting.pairedItem).toEqual({ item: 0 });
	// What n8n resumes with when the wait ends unanswered: the item that says nobody answered.
	const stack = result.run.data.executionData!.nodeExecutionStack;
	expect(stack[0].node.name).toBe('Chat Messaging');
	expect(stack[0].data.main[0]).toEqual([waiting]);
});

test('version 1: the typed-in variables get the link beside them', async () => {
	const result = await run(
		{
			templateId: REFUND_APPROVAL,
			templateVariablesInput: 'fields',
			templateVariables: {
				variable: [
					{ name: 'amount', value: '12.00 EUR' },
					{ name: 'order_number', value: 'B-2' },
				],
			},
		},
		{ typeVersion: 1 },
	);
	expect(result.error).toBeUndefined();
	expect(sentValues()).toEqual({
		amount: '12.00 EUR',
		order_number: 'B-2',
		approval_link: expect.stringMatching(LINK),
	});
});

test('Link Start in Template: the variable gets the rest of the link, for a URL button suffix', async () => {
	const result = await run({ responseLinkStart: 'http://127.0.0.1:5678/webhook-waiting/' });
	expect(result.error).toBeUndefined();
	expect(sentValues().approval_link).toMatch(
		/^engine-test-execution\/chat\?wait=1&signature=[0-9a-f]{64}$/,
	);
});

test('a Link Start that is not the start of the link is refused before any send', async () => {
	const result = await run({ responseLinkStart: 'https://n8n.example.com/webhook-waiting/' });
	expect(result.error?.message).toMatch(
		/Link Start in Template .*is not the start of this n8n's response links/,
	);
	expect(result.error?.message).not.toMatch(/signature/);
	expect(service.requests.filter((r) => r.path === '/api/v1/events')).toHaveLength(0);
});

test('Limit Wait Time: the execution waits until the limit', async () => {
	const before = Date.now();
	const result = await run({
		options: {
			limitWaitTime: {
				values: { limitType: 'afterTimeInterval', resumeAmount: 2, resumeUnit: 'hours' },
			},
		},
	});
	expect(result.error).toBeUndefined();
	const waitTill = result.run.waitTill!.getTime();
	expect(waitTill).toBeGreaterThanOrEqual(before + 2 * 3_600_000);
	expect(waitTill).toBeLessThanOrEqual(Date.now() + 2 * 3_600_000);

	const atDate = await run({
		options: {
			limitWaitTime: {
				values: { limitType: 'atSpecifiedTime', maxDateAndTime: '2099-05-01T10:00:00+00:00' },
			},
		},
	});
	expect(atDate.run.waitTill?.toISOString()).toBe('2099-05-01T10:00:00.000Z');
});

test('a wait limit that has passed or is not a time is refused before any send', async () => {
	const passed = await run({
		options: {
			limitWaitTime: {
				values: { limitType: 'atSpecifiedTime', maxDateAndTime: '2001-01-01T00:00:00Z' },
			},
		},
	});
	expect(passed.error?.message).toMatch(/Max Date and Time .*has passed/);
	const zero = await run({
		options: { limitWaitTime: { values: { limitType: 'afterTimeInterval', resumeAmount: 0 } } },
	});
	expect(zero.error?.message).toMatch(/Limit Wait Time: Amount must be a number above 0/);
	expect(service.requests.filter((r) => r.path === '/api/v1/events')).toHaveLength(0);
});

test('a value the user gave the link variable is refused, not overwritten', async () => {
	const result = await run({
		templateVariablesMapped: mappedBelow({
			amount: '40.00 EUR',
			order_number: 'A-7',
			approval_link: 'https://example.com/mine',
		}),
	});
	expect(result.error?.message).toMatch(
		/variable "approval_link" has a value, but it receives the response link/,
	);
	expect(service.requests.filter((r) => r.path === '/api/v1/events')).toHaveLength(0);
});

test('a link variable the template does not have is refused before any send', async () => {
	const result = await run({
		template: picked(ORDER_UPDATE, 'id'),
		templateVariablesMapped: mappedBelow({
			first_name: 'Ada',
			order_number: 'A-7',
			order_status: 'shipped',
			order_total: '1.00',
		}),
	});
	expect(result.error?.message).toMatch(/approval_link/);
	expect(service.requests.filter((r) => r.path === '/api/v1/events')).toHaveLength(0);
});

test.each([
	// An expression that finds nothing: n8n itself stops a workflow whose required field is left empty.
	['={{ "" }}', /Response Link Variable is empty/],
	['approval link', /not a template variable's name/],
	['header_media', /not a template variable's name/],
])('Response Link Variable %j is refused before any send', async (name, message) => {
	const result = await run({ responseLinkVariable: name });
	expect(result.error?.message).toMatch(message);
	expect(service.requests.filter((r) => r.path === '/api/v1/events')).toHaveLength(0);
});

describe('several input items: one message and one answer per execution, so nothing is sent', () => {
	const items = [{ customer: 'Ada' }, { customer: 'Grace' }];

	test('the node fails, naming the count and the way to ask several contacts', async () => {
		const result = await run({}, { items });
		expect(result.error?.message).toBe(
			'Send Template and Wait for Response takes one item, and got 2: nothing was sent',
		);
		// Loop Over Items is safe to recommend now that each pass's link answers only its own question.
		expect((result.error as { description?: string }).description).toMatch(
			/Loop Over Items .*each contact gets a link of their own, which answers only their question/,
		);
		expect(service.requests.filter((r) => r.path === '/api/v1/events')).toHaveLength(0);
		expect(result.run.waitTill).toBeUndefined();
	});

	test('with Continue On Fail, every item comes out once saying so, and the run does not wait', async () => {
		const result = await run({}, { items, continueOnFail: true });
		expect(result.error).toBeUndefined();
		expect(result.output!.map((item) => [item.json.outcome, item.pairedItem])).toEqual([
			['not sent', { item: 0 }],
			['not sent', { item: 1 }],
		]);
		expect(result.run.waitTill).toBeUndefined();
		expect(service.requests.filter((r) => r.path === '/api/v1/events')).toHaveLength(0);
	});
});

describe('a send the service refuses: no answer can come, so the execution does not wait', () => {
	test('without Continue On Fail the node fails', async () => {
		service.injectFaults({ path: '/api/v1/events', status: 422 });
		const result = await run({});
		expect(result.error?.message).toMatch(/422/);
		expect(result.run.waitTill).toBeUndefined();
		expect(result.run.status).not.toBe('waiting');
	});

	test('with Continue On Fail the item goes on at once with the failure', async () => {
		service.injectFaults({ path: '/api/v1/events', status: 422 });
		const result = await run({}, { continueOnFail: true });
		expect(result.error).toBeUndefined();
		expect(result.output).toHaveLength(1);
		expect(result.output![0].json).toMatchObject({ outcome: 'not sent' });
		expect(result.output![0].json.answered).toBeUndefined();
		expect(result.run.waitTill).toBeUndefined();
	});
});

/** The class up ExecuteContext's chain that defines `method` (n8n-core's NodeExecutionContext). */
function contextPrototypeWith(method: string): Record<string, unknown> {
	let prototype = ExecuteContext.prototype as unknown as Record<string, unknown>;
	while (!Object.prototype.hasOwnProperty.call(prototype, method))
		prototype = Object.getPrototypeOf(prototype) as Record<string, unknown>;
	return prototype;
}

async function expectRefusedNamingTheVersion(): Promise<void> {
	const result = await run({});
	expect(result.error?.message).toBe(
		'Send Template and Wait for Response needs n8n 2.14.0 or later: nothing was sent',
	);
	expect(service.requests.filter((r) => r.path === '/api/v1/events')).toHaveLength(0);
	expect(result.run.waitTill).toBeUndefined();
}

test('an n8n without signed resume links (before 1.107): refused before any send, naming the version', async () => {
	const prototype = contextPrototypeWith('getSignedResumeUrl');
	const signed = prototype.getSignedResumeUrl;
	// That n8n's execution context simply has no such method.
	delete prototype.getSignedResumeUrl;
	try {
		await expectRefusedNamingTheVersion();
	} finally {
		prototype.getSignedResumeUrl = signed;
	}
});

test('an n8n from 1.107 to 2.13 (links checked only on request; on 1.x a second press answers again): refused before any send, naming the version', async () => {
	// Those n8n versions' execution context has this method; 2.14 removed it with resume tokens.
	const prototype = contextPrototypeWith('getSignedResumeUrl');
	prototype.setSignatureValidationRequired = () => undefined;
	try {
		await expectRefusedNamingTheVersion();
	} finally {
		delete prototype.setSignatureValidationRequired;
	}
});
