import type { StandInService } from '../../sandbox/server';
import { runChatMessaging } from './engineHarness';

/*
 * What every resource's tests share: running the node on one resource against the file's
 * stand-in, reading the error a run stopped with or the output of a run that succeeded, and asking
 * the stand-in itself what it keeps.
 */

export interface RunExtras {
	continueOnFail?: boolean;
	timezone?: string;
	/** The node's Options collection, when the test sets one. */
	options?: Record<string, unknown>;
}

/** Runs the Chat Messaging node (version 1) on `resource` with these parameters and input items. */
export function resourceRunner(resource: string, service: StandInService, apiKey: string) {
	return async (parameters: Record<string, unknown>, items: object[], extra: RunExtras = {}) =>
		await runChatMessaging({
			items,
			parameters: {
				resource,
				...parameters,
				...(extra.options ? { options: extra.options } : {}),
			} as never,
			baseUrl: service.url,
			apiKey,
			continueOnFail: extra.continueOnFail,
			timezone: extra.timezone,
		});
}

/** The error a run stopped with (the test fails if it did not stop): message and description. */
export function failureOf(result: { error?: unknown }): { message: string; description: string } {
	const error = result.error as { message: string; description?: string } | undefined;
	expect(error).toBeDefined();
	return { message: error!.message, description: error!.description ?? '' };
}

/** Runs like resourceRunner, with one empty item unless given, and asserts the run succeeded: its output items. */
export function succeedingResourceRunner(
	resource: string,
	service: StandInService,
	apiKey: string,
) {
	const run = resourceRunner(resource, service, apiKey);
	return async (
		parameters: Record<string, unknown>,
		items: object[] = [{}],
		extra: RunExtras = {},
	) => {
		const result = await run(parameters, items, extra);
		expect(result.error).toBeUndefined();
		return result.output!;
	};
}

/** The stand-in's own answer to a GET, asked directly (not through the node): must be a 200. */
export function standInReader(service: StandInService, apiKey: string) {
	return async (pathAndQuery: string): Promise<any> => {
		const answer = await fetch(`${service.url}${pathAndQuery}`, {
			headers: { Authorization: apiKey },
		});
		expect(answer.status).toBe(200);
		return await answer.json();
	};
}
