/*
 * Retry On Fail together with Continue On Fail, on an operation that changes something: the node
 * refuses before any request (actions/run/retryOnFail.ts) and answers each item with the refusal,
 * `error` at the top as Continue On Fail's items have it. n8n-core's WorkflowExecute runs a node
 * again whenever its first output item has a top-level `error` (checkFailure), up to Max Tries
 * (2 to 5) with Wait Between Tries (at most 5 s) between: so the refusal, which can never pass, is
 * run Max Tries times. Settled here as what it is: each try is refused before any request, so
 * nothing is ever sent, every item comes out once, and the cost is bounded by n8n's limits (at most
 * four waits of at most 5 s). The node cannot stop it without dropping `error` from the item, which
 * is what the error output and every workflow that reads a failed item rely on
 * (docs/failure-semantics.md).
 */
import { ChatMessaging } from '../../../nodes/ChatMessaging/ChatMessaging.node';
import { runChatMessaging } from '../../helpers/engineHarness';
import { orderUpdateSend } from '../../helpers/orderUpdateSend';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'retry-on-fail-refusal-runs-key-0c4d';
const service = useStandInService({ apiKey: API_KEY });

afterEach(() => jest.restoreAllMocks());

test.each([2, 3])(
	'Max Tries %i: the refusal runs Max Tries times, sends nothing, each item once "not sent"',
	async (maxTries) => {
		const runs = jest.spyOn(ChatMessaging.prototype, 'execute');
		const result = await runChatMessaging({
			items: [{ phone: '+14155550101' }, { phone: '+14155550102' }],
			parameters: orderUpdateSend() as never,
			baseUrl: service.url,
			apiKey: API_KEY,
			continueOnFail: true,
			settings: { retryOnFail: true, maxTries, waitBetweenTries: 1 },
		});
		expect(runs).toHaveBeenCalledTimes(maxTries);
		expect(service.requests).toEqual([]);
		expect(result.output?.map((item) => [item.pairedItem, item.json.outcome])).toEqual([
			[{ item: 0 }, 'not sent'],
			[{ item: 1 }, 'not sent'],
		]);
	},
);
