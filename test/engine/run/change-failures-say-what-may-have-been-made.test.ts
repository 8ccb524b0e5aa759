/*
 * A change the service may have carried out is told as what it is. Was: every request that got no
 * answer it could take (a 5xx, a reset after the request was written, a 302 or 303) said "The
 * message may have been sent … Check the conversation or the delivery webhooks", whatever the
 * operation: a refund, a deleted media item or an archived template was told to look for a message
 * that was never written. The outcome stays "may have been sent" (workflows read it); the words say
 * what may have been made and where to look. Every operation that changes something but sends no
 * message, from the shared table of valid parameters, so one added later is covered too.
 */
import { useStandInService } from '../../helpers/standInFixture';
import { runChatMessaging } from '../../helpers/engineHarness';
import { templateReadFirst } from '../../helpers/templateRuns';
import { operations } from '../../helpers/validOperations';

const API_KEY = 'change-words-key-5e1a';
const service = useStandInService({ apiKey: API_KEY });

/** The operations whose request sends a message to a contact: their words are about that message. */
const SENDS_A_MESSAGE = [
	'message → sendTemplate',
	'aiAgent → connectContact',
	'broadcast → launch',
];

/** Faults after which the service may have acted: it failed, or the answer was lost or pointed away. */
const FAULTS: Array<[string, object]> = [
	['a 500', { status: 500 }],
	['a reset after the request was written', { reset: true }],
	['a 303 See Other', { redirect: 'https://elsewhere.example/result', status: 303 }],
];

async function failedOnce(
	operation: (typeof operations)[string],
	fault: object,
): Promise<Record<string, unknown>> {
	const { parameters } = operation;
	service.clearFaults();
	service.clearRequests();
	// A template change reads its template first: that read passes, so the fault meets the change.
	service.injectFaults([...templateReadFirst(operation), fault as never]);
	const result = await runChatMessaging({
		items: [{}],
		parameters: parameters as never,
		baseUrl: service.url,
		apiKey: API_KEY,
		continueOnFail: true,
	});
	expect(result.error).toBeUndefined();
	expect(result.output).toHaveLength(1);
	return result.output![0].json;
}

const changes = Object.entries(operations).filter(
	([name, operation]) => operation.method === 'change' && !SENDS_A_MESSAGE.includes(name),
);

describe.each(FAULTS)('after %s', (_fault, fault) => {
	test.each(changes)(
		'%s: "may have been made", not a message to look for',
		async (_name, operation) => {
			const json = await failedOnce(operation, fault);
			expect(json.outcome).toBe('may have been sent');
			expect(json.description).toMatch(/may have been made/);
			expect(json.description).not.toMatch(/message may have been sent|delivery webhooks/i);
			// Never repeated: the one change went (after its template's read, where it reads one).
			expect(service.requests).toHaveLength(1 + templateReadFirst(operation).length);
		},
	);

	test.each(SENDS_A_MESSAGE)('%s: the message may have been sent', async (name) => {
		const json = await failedOnce(operations[name], fault);
		expect(json.outcome).toBe('may have been sent');
		expect(json.description).toMatch(/^The message may have been sent/);
		expect(service.requests).toHaveLength(1);
	});
});
