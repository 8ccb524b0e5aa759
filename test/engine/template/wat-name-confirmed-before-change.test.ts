/*
 * A template's name may begin `wat_` as its ids do (names are lower case, digits and `_`), and the
 * service reads a name where the id goes, answering the oldest template of that name in whatever
 * language. A change (Update, Archive, Pause, Submit for Approval) took a Template ID of the `wat_`
 * form as an id without reading it: given such a name, the change landed on a template the service
 * picked. Now every change reads the template first and goes only when the answer is that very
 * template, whatever the form of its id (text, a JSON integer, with or without `wat_`).
 *
 * The stand-in takes changes by id only, so it cannot show this; a small server here reads a name
 * wherever an id goes, on every path, as the service may.
 */
import fc from 'fast-check';

import { runChatMessaging } from '../../helpers/engineHarness';
import { localHost, type HostAnswer } from '../../helpers/localHost';
import { operations } from '../../helpers/validOperations';

jest.setTimeout(60_000);

const API_KEY = 'wat-name-confirmed-key-SECRET-5d20';
const TEMPLATES = '/api/v1/whats_app_templates';

interface Template {
	id: string | number;
	template_name: string;
	language: string;
	category: string;
	status: string;
	components: object[];
}

let templates: Template[] = [];
const requests: Array<{ method: string; path: string }> = [];

/** By id, else the oldest of that name: the service's reading of the place an id goes. */
const find = (idOrName: string) =>
	templates.find((t) => String(t.id) === idOrName) ??
	templates.find((t) => t.template_name === idOrName);

const STATUS_AFTER: Record<string, string> = {
	archive: 'archived',
	pause: 'paused',
	submit: 'pending',
};

/** By id or by name, on every path: the template answered, or 404. */
function answerAsTheServiceMay(method: string, path: string, text: string): HostAnswer {
	const answer = (status: number, body: unknown) => ({ status, body: JSON.stringify(body) });
	const match = new RegExp(`^${TEMPLATES}/([^/?]+)(?:/(archive|pause|submit))?$`).exec(path);
	const template = match ? find(decodeURIComponent(match[1])) : undefined;
	if (template === undefined) return answer(404, { error: 'not found' });
	if (method === 'GET' && match?.[2] === undefined) return answer(200, template);
	if (method === 'PATCH') {
		const changed = { ...template };
		if (match?.[2] !== undefined) changed.status = STATUS_AFTER[match[2]];
		const asked = text === '' ? {} : (JSON.parse(text) as { whats_app_template?: object });
		Object.assign(changed, asked.whats_app_template ?? {});
		return answer(200, changed);
	}
	return answer(404, { error: 'not found' });
}

const host = localHost(({ method = '', url = '', body }) => {
	requests.push({ method, path: url });
	return answerAsTheServiceMay(method, url, body);
});

const template = (id: string | number, name: string, status: string): Template => ({
	id,
	template_name: name,
	language: 'en',
	category: 'UTILITY',
	status,
	components: [
		{ id: 1, component_type: 'body', data_type: 'text', value: 'Your order shipped.', index: 0 },
	],
});

const CHANGES = [
	'template → update',
	'template → archive',
	'template → pause',
	'template → submitForApproval',
] as const;
/** A template each change may start from: Submit takes a draft, the others an approved one. */
const startingStatus = (name: string) =>
	name === 'template → submitForApproval' ? 'draft' : 'approved';

const run = async (name: string, templateId: string) =>
	await runChatMessaging({
		items: [{}],
		parameters: { ...operations[name].parameters, templateId } as never,
		baseUrl: host.url,
		apiKey: API_KEY,
		typeVersion: 1,
	});

const changes = () => requests.filter((r) => r.method === 'PATCH');

describe.each(CHANGES)('%s', (name) => {
	beforeEach(() => {
		requests.length = 0;
		// The one template whose NAME is wat_spring_sale; its id is another.
		templates = [template('wat_0a1b2c3d4e5f6071', 'wat_spring_sale', startingStatus(name))];
	});

	test('a wat_ Template ID that is a template name: read first, refused, nothing changed', async () => {
		const result = await run(name, 'wat_spring_sale');
		expect(changes()).toEqual([]);
		expect(requests).toEqual([{ method: 'GET', path: `${TEMPLATES}/wat_spring_sale` }]);
		expect(result.error?.message).toMatch(/another template, wat_0a1b2c3d4e5f6071/);
	});

	test("the template's own wat_ id: read first, and it goes", async () => {
		const result = await run(name, 'wat_0a1b2c3d4e5f6071');
		expect(result.error).toBeUndefined();
		expect(requests[0]).toEqual({ method: 'GET', path: `${TEMPLATES}/wat_0a1b2c3d4e5f6071` });
		expect(changes()).toHaveLength(1);
	});
});

test('property: a change goes exactly when the read answers the id asked, whatever its form', async () => {
	const name = fc.stringMatching(/^wat_[a-z0-9_]{1,12}$/);
	const id = fc.oneof(
		fc.stringMatching(/^wat_[0-9a-f]{16}$/),
		fc.integer({ min: 1, max: 2 ** 40 }),
		fc.stringMatching(/^template_prefix_id_[0-9]{1,4}$/),
	);
	await fc.assert(
		fc.asyncProperty(
			fc.constantFrom(...CHANGES),
			id,
			name,
			fc.boolean(),
			async (change, templateId, templateName, byName) => {
				fc.pre(String(templateId) !== templateName);
				requests.length = 0;
				templates = [template(templateId, templateName, startingStatus(change))];
				const asked = byName ? templateName : String(templateId);
				const result = await run(change, asked);
				expect(requests[0]).toEqual({
					method: 'GET',
					path: `${TEMPLATES}/${encodeURIComponent(asked)}`,
				});
				if (byName) {
					expect(changes()).toEqual([]);
					expect(result.error?.message).toContain(`another template, ${templateId}`);
				} else {
					expect(result.error).toBeUndefined();
					expect(changes()).toHaveLength(1);
					expect(result.output?.[0].json.id).toStrictEqual(templateId);
				}
			},
		),
		{ numRuns: 24 },
	);
});
