import type { IDataObject } from 'n8n-workflow';

import type { FaultSpec } from '../../sandbox/faults';
import type { StandInService } from '../../sandbox/server';
import { runChatMessaging } from './engineHarness';

/**
 * One Chat Messaging node run with Continue On Fail against the stand-in, with `faults` (if any) in
 * force for this run alone: every failure must come out as an item, so the run itself never stops,
 * and what comes back is each output item's JSON, in order.
 */
export async function outcomesWithContinueOnFail(
	service: StandInService,
	apiKey: string,
	run: {
		items: object[];
		parameters: object;
		faults?: FaultSpec | FaultSpec[];
		/** The node's version; 1 unless said. */
		typeVersion?: number;
	},
): Promise<IDataObject[]> {
	service.clearFaults();
	if (run.faults !== undefined) service.injectFaults(run.faults);
	const result = await runChatMessaging({
		items: run.items,
		parameters: run.parameters as never,
		baseUrl: service.url,
		apiKey,
		continueOnFail: true,
		...(run.typeVersion !== undefined && { typeVersion: run.typeVersion }),
	});
	service.clearFaults();
	expect(result.error).toBeUndefined();
	return result.output!.map((item) => item.json);
}
