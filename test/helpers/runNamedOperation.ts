import { runChatMessaging } from './engineHarness';
import { operations } from './validOperations';

/*
 * One of the valid operations (validOperations.ts), by its name, run once on one empty item against
 * a stand-in: for tests that only change what the service answers.
 */
export async function runNamedOperation(name: string, service: { url: string }, apiKey: string) {
	const result = await runChatMessaging({
		items: [{}],
		parameters: operations[name].parameters as never,
		baseUrl: service.url,
		apiKey,
	});
	expect(result.error).toBeUndefined();
	expect(result.output).toHaveLength(1);
	return result.output![0].json;
}
