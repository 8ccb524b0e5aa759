import type { StandInService } from '../../sandbox/server';
import { runChatMessaging } from './engineHarness';

/*
 * What every resource's fault tests share: running the node on one resource against the file's
 * stand-in, and reading the error a run stopped with.
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
