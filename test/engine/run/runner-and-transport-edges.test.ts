/*
 * Adversarial pass over the runners (nodes/ChatMessaging/actions/run/) and the transport
 * (nodes/shared/transport/), through n8n's real engine and real HTTP to the stand-in service.
 *
 * Covered:
 * - read-once parameters (runParameters.ts): expressions that reach the item, or give a new value
 *   at every evaluation, in ways the "same for every item" test did not recognise (a unicode escape
 *   standing for `$`, an escaped `\}}` that n8n reads as part of the code, an array's randomItem()),
 *   proved by the phone numbers and values the stand-in received, and by n8n's evaluator's counts;
 * - the API key in error texts (answeredFailures.ts, requestLoop.ts): a service or proxy that
 *   echoes the key near the point where an error text is cut short;
 * - suspicions checked and ruled out (see the "SUSPICION RULED OUT" tests): Retry-After in the past,
 *   fractional and absurdly large values, a 2xx with an unexpected body, a 5xx without Retry-After,
 *   a reset after the body was written, a parallel stop report, Continue On Fail pairing, lists whose
 *   pages repeat or lie about their counts, IDs of "..".
 *
 * Every duplicate is counted by the stand-in (what it received), never inferred from timing.
 */
import { runChatMessaging } from '../../helpers/engineHarness';
import { probeRun as runProbe } from '../../helpers/readOnceProbe';
import { useStandInService } from '../../helpers/standInFixture';

jest.setTimeout(30_000);

const API_KEY = 'adversarial-runners-key-SECRET-7c41d9e2b6a0';
const service = useStandInService({ apiKey: API_KEY });

const EVENTS = '/api/v1/events';
const phoneOf = (index: number) => `+1415555${1000 + index}`;
const people = (count: number) =>
	Array.from({ length: count }, (_, index) => ({ phone: phoneOf(index), name: `P${index}` }));

const sendTemplate = (phoneNumber: string, extra: Record<string, unknown> = {}) => ({
	resource: 'message',
	operation: 'sendTemplate',
	phoneNumber,
	templateId: 'wat_welcome',
	...extra,
});

async function send(
	items: object[],
	parameters: Record<string, unknown>,
	continueOnFail = false,
): ReturnType<typeof runChatMessaging> {
	return await runChatMessaging({
		items,
		parameters: parameters as never,
		baseUrl: service.url,
		apiKey: API_KEY,
		continueOnFail,
	});
}

const sentPhones = () =>
	service
		.acceptedSends(EVENTS)
		.map((request) => (request.body as { contact: { phone_number: string } }).contact.phone_number);

/** The probe's values for four items, and how often n8n evaluated the parameter. */
const probeRun = (value: string) => runProbe(people(4), value);

describe('read-once parameters: what reaches the item is read per item', () => {
	// Was: runParameters.ts:48 (isItemIndependentExpression) looked for `$` names only; JavaScript reads
	// `\u0024json` as `$json`, so the phone number was read from item 0 and all four messages went
	// to item 0's contact.
	test('Phone Number {{ \\u0024json.phone }}: each item is sent to its own number', async () => {
		const result = await send(people(4), sendTemplate('={{ \\u0024json.phone }}'));
		expect(result.error).toBeUndefined();
		expect(sentPhones()).toEqual(people(4).map((person) => person.phone));
	});

	// Was: runParameters.ts:47-48 split expressions at the first `}}`, but n8n reads `\}}` as part of the
	// code (splitExpression): the `$json` after it was taken for text and the phone number was read
	// from item 0 only.
	test('Phone Number with an escaped \\}} before $json: each item is sent to its own number', async () => {
		const result = await send(people(4), sendTemplate('={{ "\\}}".slice(0, 0) + $json.phone }}'));
		expect(result.error).toBeUndefined();
		expect(sentPhones()).toEqual(people(4).map((person) => person.phone));
	});

	// Was: runParameters.ts:40 (CHANGES_EACH_TIME) matched `random` as a whole word only, so n8n's array
	// extension randomItem() (a new pick at every evaluation) was evaluated once and every item got
	// item 0's pick.
	test('randomItem(): evaluated for every item, as n8n would', async () => {
		const run = await probeRun('={{ ["Hi", "Hello", "Hey", "Howdy"].randomItem() }}');
		expect(run.evaluations).toBe(4);
	});

	// Was: as above, for the extensions and Intl formats that read the clock (diffToNow, isInLast,
	// toRelative, Intl.DateTimeFormat().format()): the design reads the clock per item ($now is).
	test.each([
		['diffToNow', '={{ "2020-01-01".toDateTime().diffToNow("seconds") !== 0 }}'],
		['toRelative', '={{ "2020-01-01".toDateTime().toRelative().length > 0 }}'],
		['Intl.DateTimeFormat().format()', '={{ new Intl.DateTimeFormat("en").format().length > 0 }}'],
	])('%s (reads the clock): evaluated for every item', async (_case, value) => {
		const run = await probeRun(value);
		expect(run.values).toEqual([true, true, true, true]);
		expect(run.evaluations).toBe(4);
	});

	test('SUSPICION RULED OUT: $execution.resumeUrl, $prevNode and $jmespath of all items are the same for every item, read once', async () => {
		for (const value of [
			'={{ $execution.resumeUrl }}',
			'={{ $prevNode.name }}',
			'={{ $jmespath($input.all(), "[0].json.phone") }}',
		]) {
			const run = await probeRun(value);
			expect(new Set(run.values).size).toBe(1);
			expect(run.evaluations).toBe(1);
		}
	});

	test('SUSPICION RULED OUT: $input.item, ($json), $items(), $node[...] and $position are read per item', async () => {
		for (const value of [
			'={{ $input["item"].json.phone }}',
			'={{ ($json).phone }}',
			'={{ $items("Input")[$position].json.phone }}',
			"={{ $('Input').all()[$position].json.phone }}",
			'={{ `${$json.phone}` }}',
		]) {
			const run = await probeRun(value);
			expect(run.values).toEqual(people(4).map((person) => person.phone));
		}
	});
});

describe('the API key never appears, even where an error text is cut short', () => {
	const keyPrefix = API_KEY.slice(0, 16);

	// Was: failures.ts:82 (serviceMessage) cut the service's text to 300 characters before requestLoop.ts:237-238
	// cut the key out, so a key that straddled the cut survived in part (all but its last characters).
	test('a 400 whose text echoes the key at character 280: no part of the key in the error', async () => {
		service.injectFaults({ status: 400, rawBody: `${'x'.repeat(280)}${API_KEY}`, path: EVENTS });
		const result = await send(people(1), sendTemplate('={{ $json.phone }}'));
		expect(result.error?.message).toContain('400');
		expect(result.everything()).not.toContain(keyPrefix);
	});

	// Was: failures.ts:190 (describeRedirect) cut the Location to 200 characters before the key was cut
	// out, so the first characters of an echoed key stayed in the message.
	test('a redirect whose Location carries the key at character 180: no part of the key in the error', async () => {
		const location = `https://elsewhere.invalid/${'p'.repeat(154)}${API_KEY}`;
		service.injectFaults({ status: 307, redirect: location, path: EVENTS });
		const result = await send(people(1), sendTemplate('={{ $json.phone }}'), true);
		expect(result.output?.[0].json.outcome).toBe('not sent');
		expect(result.everything()).not.toContain(keyPrefix);
	});
});

describe('suspicions ruled out: nothing re-sent blindly, every report true', () => {
	test('SUSPICION RULED OUT: a 503 without Retry-After and a 2xx with an unexpected body are not re-sent', async () => {
		service.injectFaults([
			{ status: 503, path: EVENTS },
			// 203: a 2xx no source names for the events endpoint.
			{ status: 203, body: { unexpected: true }, path: EVENTS },
		]);
		const result = await send(people(2), sendTemplate('={{ $json.phone }}'), true);
		expect(result.output?.map((item) => item.json.outcome)).toEqual([
			'may have been sent',
			'may have been sent',
		]);
		expect(service.requests.filter((request) => request.path === EVENTS)).toHaveLength(2);
	});

	test('SUSPICION RULED OUT: a reset after the body was written is "may have been sent", sent once', async () => {
		service.injectFaults({ reset: true, path: EVENTS });
		const result = await send(people(1), sendTemplate('={{ $json.phone }}'), true);
		expect(result.output?.[0].json.outcome).toBe('may have been sent');
		expect(service.requests.filter((request) => request.path === EVENTS)).toHaveLength(1);
	});

	test('SUSPICION RULED OUT: Retry-After in the past (HTTP date) and fractional are retried within Retries When Rate Limited', async () => {
		service.injectFaults([
			{ status: 429, retryAfter: 'Sun, 06 Nov 1994 08:49:37 GMT', path: EVENTS },
			{ status: 429, retryAfter: '0.01', path: EVENTS },
		]);
		const result = await send(people(1), sendTemplate('={{ $json.phone }}'));
		expect(result.error).toBeUndefined();
		expect(result.output?.[0].json.retries).toBe(2);
		expect(service.acceptedSends(EVENTS)).toHaveLength(1);
	});

	test('SUSPICION RULED OUT: an absurd Retry-After is not waited for; the item fails "not sent" at once', async () => {
		service.injectFaults({ status: 429, retryAfter: '99999999999', count: 5, path: EVENTS });
		const result = await send(people(1), sendTemplate('={{ $json.phone }}'), true);
		expect(result.output?.[0].json.outcome).toBe('not sent');
		expect(String(result.output?.[0].json.description)).toContain('Maximum Total Wait');
		expect(service.requests.filter((request) => request.path === EVENTS)).toHaveLength(1);
	});

	test('SUSPICION RULED OUT: Continue On Fail with an expression error, a 429 beyond budget and a 500 in parallel: every item once, in order, paired', async () => {
		service.injectFaults([
			{ status: 500, path: EVENTS },
			{ status: 429, retryAfter: '9999', path: EVENTS },
		]);
		const items = [...people(3), { phone: null }, ...people(6).slice(3)];
		const result = await send(
			items,
			sendTemplate('={{ $json.phone.toString() }}', { options: { requestsInParallel: 1 } }),
			true,
		);
		expect(result.output).toHaveLength(items.length);
		expect(result.output?.map((item) => item.pairedItem)).toEqual(
			items.map((_item, index) => ({ item: index })),
		);
		const outcomes = result.output?.map((item) => item.json.outcome);
		expect(outcomes?.slice(0, 4)).toEqual([
			'may have been sent',
			'not sent',
			undefined,
			'not sent',
		]);
		expect(service.acceptedSends(EVENTS)).toHaveLength(items.length - 3);
	});

	test('SUSPICION RULED OUT: an ID of ".." is refused before anything is sent', async () => {
		const result = await send([{}], {
			resource: 'broadcast',
			operation: 'cancel',
			broadcastId: '..',
		});
		expect(result.error).toBeDefined();
		expect(service.requests).toHaveLength(0);
	});
});
