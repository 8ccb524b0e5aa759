/*
 * Template → Create, asked "does the editor offer what the run then refuses?". Every text field
 * of a template says variables are written {{name}} or {{name | example: 'value'}}, and WhatsApp's
 * review wants an example for a variable in a URL button above all. The URL button's check refused
 * any space in the link, so the example form, with its spaces inside the braces, was refused as
 * "must be a public http(s) URL". Spaces inside a variable are the variable's; the link around it is
 * still checked whole, and sent as written.
 */
import fc from 'fast-check';

import { runChatMessaging } from '../../helpers/engineHarness';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'adv4-url-button-key-51e0';
const service = useStandInService({ apiKey: API_KEY });

let created = 0;
async function createWithUrl(url: string) {
	service.clearRequests();
	created++;
	return await runChatMessaging({
		items: [{}],
		parameters: {
			resource: 'template',
			operation: 'create',
			templateName: `track_order_${created}`,
			language: 'en',
			category: 'UTILITY',
			headerType: 'none',
			bodyText: "Your order {{order_number | example: 'A-1042'}} has shipped.",
			buttons: { url: [{ url }] },
		} as never,
		baseUrl: service.url,
		apiKey: API_KEY,
	});
}

const sentUrl = () => {
	const body = service.requests[0]?.body as
		| { whats_app_template: { components_attributes: Array<{ sub_type?: string; value: string }> } }
		| undefined;
	return body?.whats_app_template.components_attributes.find(
		(component) => component.sub_type === 'url',
	)?.value;
};

test('a URL button ending with a variable and its example, spaced as the fields show it, is sent as written', async () => {
	await fc.assert(
		fc.asyncProperty(
			fc.stringMatching(/^[a-z][a-z_]{0,11}$/),
			fc.stringMatching(/^[A-Z]-[0-9]{1,6}$/),
			fc.constantFrom(' ', '  '),
			async (name, example, space) => {
				const url = `https://shop.example.com/track/{{${space}${name}${space}|${space}example:${space}'${example}'${space}}}`;
				const result = await createWithUrl(url);
				expect(result.error).toBeUndefined();
				expect(sentUrl()).toBe(url);
			},
		),
		{ numRuns: 10 },
	);
});

test('SUSPICION RULED OUT: a space outside the braces, or a link that is no URL, is still refused', async () => {
	for (const url of [
		'https://shop.example.com/my orders/{{order}}',
		"shop.example.com/{{order | example: 'A-1'}}",
		"https://{{host | example: 'a.example'}}/x",
	]) {
		const result = await createWithUrl(url);
		expect((result.error as Error).message).toMatch(/must be a public http\(s\) URL/);
		expect(service.requests).toHaveLength(0);
	}
});
