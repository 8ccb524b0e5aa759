/*
 * Optional fields and filters are sent only when the user set them (the vendor's own node sent
 * `escalated=false`, `tags: [""]`, `contacts: []` beside `audience_id: ""`). Each operation runs with
 * only what a user must set, and nothing it sends holds an empty value: no empty text, list or
 * object, no null, no `false` that nobody chose; a list sends no query beyond paging.
 */
import { useStandInService } from '../../helpers/standInFixture';
import { runChatMessaging } from '../../helpers/engineHarness';
import { ADA, operations } from '../../helpers/validOperations';

const API_KEY = 'only-set-fields-key-0c2d';
const service = useStandInService({ apiKey: API_KEY });

/** Where in a body an empty or unchosen value sits, as a path. */
function emptyValues(value: unknown, path = 'body'): string[] {
	if (value === null) return [path];
	if (value === '' || value === false) return [path];
	if (Array.isArray(value))
		return value.length === 0
			? [path]
			: value.flatMap((inner, index) => emptyValues(inner, `${path}[${index}]`));
	if (typeof value === 'object') {
		const entries = Object.entries(value as Record<string, unknown>);
		return entries.length === 0
			? [path]
			: entries.flatMap(([key, inner]) => emptyValues(inner, `${path}.${key}`));
	}
	return [];
}

const cases = Object.entries(operations).map(
	([name, { method, parameters }]) => [name, method, parameters] as const,
);

test.each(cases)('%s sends nothing the user did not set', async (_name, method, parameters) => {
	await runChatMessaging({
		items: [{ phone: ADA }],
		parameters: parameters as never,
		baseUrl: service.url,
		apiKey: API_KEY,
	});
	expect(service.requests.length).toBeGreaterThan(0);
	for (const request of service.requests) {
		// The v1 Send Template's documented default: `liquid_values: {}` when no variable is given
		// (the contract requires the object for Connect to AI Agent; an empty one means "none").
		const allowed = (path: string) => /\.liquid_values$/.test(path);
		expect({
			path: request.path,
			empty: emptyValues(request.body).filter((path) => !allowed(path)),
		}).toEqual({ path: request.path, empty: [] });
		if (method === 'GET') {
			const extra = Object.keys(request.query).filter((key) => !['page', 'per'].includes(key));
			expect({ path: request.path, query: extra }).toEqual({ path: request.path, query: [] });
		}
	}
});
