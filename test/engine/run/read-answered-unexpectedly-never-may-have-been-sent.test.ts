/*
 * A read changes nothing at the service, so whatever its answer, its failure never says "may have
 * been sent" (which sends the user to look for a message that cannot have gone out). Order → Get
 * and Contact → Get answered 2xx with an answer the node does not take (another object, a shape it
 * cannot read, a web page) ended "… [item 0] — may have been sent". Each is the read's own
 * failure: not sent, nothing changed, safe to run again.
 */
import fc from 'fast-check';

import { SEEDED_ORDERS } from '../../../sandbox/service/orders';
import { resourceRunner } from '../../helpers/resourceRuns';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'read-answered-unexpectedly-key-51d0';
const service = useStandInService({ apiKey: API_KEY });

const reads: Array<[string, string, Record<string, unknown>]> = [
	['Order → Get', 'order', { operation: 'get', orderId: SEEDED_ORDERS.paid }],
	['Contact → Get', 'contact', { operation: 'get', phoneNumber: '+14155550123' }],
];

/** 2xx answers no read takes: another object, nothing it can read, a web page, a failure sign. */
const untakenAnswers = fc.record({
	status: fc.constantFrom(200, 201, 203),
	body: fc.oneof(
		fc.constant({ id: 'wa_ord_someone_else', phone_number: '+14155550999' }),
		fc.constant({}),
		fc.constant([]),
		fc.constant('<html><body>Sign in</body></html>'),
		fc.constant({ status: 'error', message: 'no' }),
		fc.constant(null),
	),
});

jest.setTimeout(60_000);

test.each(reads)(
	'%s answered 2xx with an answer it does not take: never "may have been sent"',
	async (_read, resource, parameters) => {
		const run = resourceRunner(resource, service, API_KEY);
		await fc.assert(
			fc.asyncProperty(untakenAnswers, fc.boolean(), async (answer, continueOnFail) => {
				// The read's one request gets the answer.
				service.injectFaults(answer);
				const result = await run(parameters, [{}], { continueOnFail });
				const said = continueOnFail
					? JSON.stringify(result.output)
					: `${result.error?.message} ${result.error?.description}`;
				if (continueOnFail) {
					expect(result.output?.map((item) => item.pairedItem)).toEqual([{ item: 0 }]);
				}
				// Taken as the object asked for is fine too; a failure says "not sent", nothing changed.
				if (said.includes('error')) expect(said).toMatch(/not sent/);
				expect(said).not.toMatch(/may have been/);
			}),
			{ numRuns: 12 },
		);
	},
);
