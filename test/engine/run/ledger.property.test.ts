/*
 * The ledger (invariants): for any mix of items (valid, invalid inputs, a service fault injected
 * for a send), with and without Continue On Fail, what the node reports as accepted is
 * exactly what the stand-in received and accepted, and with Continue On Fail every input item comes
 * out exactly once, paired with itself. Send Template and Connect to AI Agent, version 2 (the
 * template read first, the variables mapped automatically from each item), through n8n's engine and the stand-in
 * over real HTTP, one send at a time so that a stopped run's accepted items are those before it.
 * The faults are of both kinds: answered without processing (a refusal, throttling, a redirect) and
 * processed before the answer was lost or replaced (a reset, a proxy's 502, a 303, a 200 that is not
 * the promised answer), so a verdict read from a status alone would show here.
 */
import fc from 'fast-check';

import { useStandInService } from '../../helpers/standInFixture';
import { runChatMessaging } from '../../helpers/engineHarness';
import { autoMapped, picked } from '../../helpers/savedParameters';
import {
	expectProcessedAsReported,
	ledgerFaults,
	processedRequests,
} from '../../helpers/ledgerFaults';

const API_KEY = 'ledger-property-key';
const service = useStandInService({ apiKey: API_KEY });
const EVENTS = '/api/v1/events';
const FEEDBACK_REQUEST = 'wat_b425364758697a8b'; // one variable: first_name

type Kind = 'valid' | 'bad phone' | 'no variable';
const faultSpecs = ledgerFaults(EVENTS, { status: 200, body: {} });
type Fault = keyof typeof faultSpecs;

const item = fc.record({
	kind: fc.constantFrom<Kind>('valid', 'valid', 'bad phone', 'no variable'),
	fault: fc.constantFrom<Fault>('none', ...Object.keys(faultSpecs)),
});

const phoneOf = (index: number) => `+1415555${String(2000 + index)}`;

function inputOf(plan: { kind: Kind }, index: number): Record<string, unknown> {
	if (plan.kind === 'bad phone') return { phone: 'call me maybe', first_name: `P${index}` };
	if (plan.kind === 'no variable') return { phone: phoneOf(index) };
	return { phone: phoneOf(index), first_name: `P${index}` };
}

/** The phone numbers the stand-in accepted a send for, in the order it received them. */
/** The per-item sends, each with its contact and variables taken from the item. */
const operations = {
	'Send Template': {
		resource: 'message',
		operation: 'sendTemplate',
		contactFields: 'autoMapInputData',
		additionalFields: {},
	},
	'Connect to AI Agent': {
		resource: 'aiAgent',
		operation: 'connectContact',
		phoneNumber: '={{ $json.phone }}',
		aiAgentId: 'aiflw_sales',
		additionalFields: {},
	},
};

/**
 * The phone numbers the service processed a send for, in the order it received them: those it
 * accepted, and those it processed before something else answered (a proxy's 502, a 303).
 */
const acceptedByService = () =>
	processedRequests(service.requests, EVENTS).map(
		(request) => (request.body as { contact: { phone_number: string } }).contact.phone_number,
	);

test('what the node reports as accepted is exactly what the service accepted; each item comes out once', async () => {
	await fc.assert(
		fc.asyncProperty(
			fc.array(item, { minLength: 1, maxLength: 6 }),
			fc.boolean(),
			fc.constantFrom(...(Object.keys(operations) as Array<keyof typeof operations>)),
			async (plans, continueOnFail, operation) => {
				service.clearRequests();
				service.clearFaults();
				// One fault (or none) per send, in the order the sends are made: only valid items send.
				for (const plan of plans) {
					if (plan.kind !== 'valid') continue;
					const spec = faultSpecs[plan.fault];
					service.injectFaults(
						spec === undefined ? { delayMs: 0, path: EVENTS } : { ...spec, path: EVENTS },
					);
				}
				const result = await runChatMessaging({
					items: plans.map(inputOf),
					parameters: {
						...operations[operation],
						template: picked(FEEDBACK_REQUEST, 'id'),
						templateVariablesInput: 'mapper',
						templateVariablesMapped: autoMapped,
						options: { requestsInParallel: 1 },
					} as never,
					baseUrl: service.url,
					apiKey: API_KEY,
					typeVersion: 2,
					continueOnFail,
				});
				const accepted = acceptedByService();

				if (result.error === undefined) {
					const output = result.output ?? [];
					expect(output.map((out) => out.pairedItem)).toEqual(plans.map((_, i) => ({ item: i })));
					output.forEach((out, i) => {
						const phone = phoneOf(i);
						const received = accepted.filter((number) => number === phone).length;
						if (out.json.outcome === undefined) {
							// Reported accepted (Send Template says queued): the service took it, once.
							expect(out.json.error).toBeUndefined();
							expect(out.json.phoneNumber).toBe(phone);
							if (operation === 'Send Template') expect(out.json.queued).toBe(true);
						}
						// Only "may have been sent" may stand for either; a connection reset after the
						// service processed the send is one.
						expectProcessedAsReported(out.json.outcome, received);
					});
					// Nothing the service took is unaccounted for, and nothing was taken twice.
					const itemPhones = plans.map((_, i) => phoneOf(i));
					expect(accepted.every((phone) => itemPhones.includes(phone))).toBe(true);
					expect(new Set(accepted).size).toBe(accepted.length);
					if (!continueOnFail) {
						expect(output.every((out) => out.json.outcome === undefined)).toBe(true);
					}
					return;
				}
				// Stopped without Continue On Fail: every input is checked before any request, so an
				// invalid item means nothing was sent; otherwise the sends accepted are those before the
				// stop (and the stopping one, when its connection broke after the service processed it).
				expect(continueOnFail).toBe(false);
				if (plans.some((plan) => plan.kind !== 'valid')) expect(accepted).toEqual([]);
				else expect(accepted).toEqual(plans.slice(0, accepted.length).map((_, i) => phoneOf(i)));
			},
		),
		{ numRuns: 40 },
	);
}, 60_000);
