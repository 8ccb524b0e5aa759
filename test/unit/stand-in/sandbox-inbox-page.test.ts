import { useStandInService } from '../../helpers/standInFixture';

/*
 * The stand-in's inbox page (GET /_sandbox/inbox, issue 36): with npm start nobody receives the
 * messages on a phone, so the page lists, per number, every template message the stand-in
 * accepted, with its values, a link as a link, newest first; a refused send is not in it.
 */

const API_KEY = 'inbox-page-key-7a2c';
const service = useStandInService({ apiKey: API_KEY });

const REFUND_APPROVAL = 'wat_7e6d5c4b3a291807';
const WELCOME = 'wat_1b2c3d4e5f607182';

async function send(
	phone: string,
	values: Record<string, string>,
	key = API_KEY,
	templateId = REFUND_APPROVAL,
) {
	const answer = await fetch(`${service.url}/api/v1/events`, {
		method: 'POST',
		headers: { Authorization: key, 'content-type': 'application/json' },
		body: JSON.stringify({
			event_type: 'send_template_message',
			contact: { phone_number: phone },
			template_message: { chat_template_id: templateId, liquid_values: values },
		}),
	});
	return answer.status;
}

test('the inbox lists each number with the messages it received, links clickable, newest first', async () => {
	expect(await send('+14155550123', { first_name: 'Ada' })).toBeLessThan(300);
	expect(
		await send('+14155550123', { approval_link: 'http://127.0.0.1:5678/webhook-waiting/7?x=<y>' }),
	).toBeLessThan(300);
	expect(await send('+442079460958', { first_name: '<b>Bob</b>' })).toBeLessThan(300);
	expect(await send('+491701234567', { first_name: 'Refused' }, 'wrong-key')).toBe(401);

	const page = await fetch(`${service.url}/_sandbox/inbox`);
	expect(page.status).toBe(200);
	expect(page.headers.get('content-type')).toMatch(/^text\/html/);
	const html = await page.text();

	expect(html).toContain('<h2>+14155550123</h2>');
	expect(html).toContain('<h2>+442079460958</h2>');
	expect(html).not.toContain('+491701234567');
	expect(html).toContain(
		'<a href="http://127.0.0.1:5678/webhook-waiting/7?x=&lt;y&gt;" target="_blank" rel="noopener">',
	);
	// What a message carries is shown as text, never as markup.
	expect(html).toContain('&lt;b&gt;Bob&lt;/b&gt;');
	expect(html).not.toContain('<b>Bob</b>');
	// Newest first within a number.
	const ada = html.indexOf('+14155550123');
	expect(html.indexOf('approval_link', ada)).toBeLessThan(html.indexOf('first_name', ada));
	expect(html).not.toContain(API_KEY);
});

test('the number that received the newest message comes first, and each message names its template', async () => {
	expect(await send('+442079460958', { first_name: 'Ada' }, API_KEY, WELCOME)).toBeLessThan(300);
	expect(await send('+14155550123', { first_name: 'Bob' }, API_KEY, WELCOME)).toBeLessThan(300);
	expect(
		await send('+14155550123', { approval_link: 'http://127.0.0.1:5678/webhook-waiting/9' }),
	).toBeLessThan(300);

	const html = await (await fetch(`${service.url}/_sandbox/inbox`)).text();
	// +1… received the newest message (the refund link), so it is at the top, not the bottom.
	const newest = html.indexOf('<h2>+14155550123</h2>');
	expect(newest).toBeGreaterThan(-1);
	expect(newest).toBeLessThan(html.indexOf('<h2>+442079460958</h2>'));
	expect(html.indexOf('approval_link', newest)).toBeLessThan(html.indexOf('Bob', newest));
	// The template by the name a person picked it by, its id as a detail.
	expect(html).toContain(`template welcome (en) · ${WELCOME}`);
	expect(html).toContain(`template refund_approval (en) · ${REFUND_APPROVAL}`);
});

test('a template renamed while the stand-in runs is shown by its name now', async () => {
	const renamed = await fetch(`${service.url}/api/v1/whats_app_templates/${WELCOME}`, {
		method: 'PATCH',
		headers: { Authorization: API_KEY, 'content-type': 'application/json' },
		body: JSON.stringify({ whats_app_template: { template_name: 'welcome_back' } }),
	});
	expect(renamed.status).toBe(200);
	expect(await send('+14155550123', { first_name: 'Ada' }, API_KEY, WELCOME)).toBeLessThan(300);
	const html = await (await fetch(`${service.url}/_sandbox/inbox`)).text();
	expect(html).toContain(`template welcome_back (en) · ${WELCOME}`);
});

test('a template the catalogue does not know is shown by the id it was sent with', async () => {
	expect(await send('+14155550123', { x: 'y' }, API_KEY, 'wat_not_in_catalogue')).toBeLessThan(300);
	const html = await (await fetch(`${service.url}/_sandbox/inbox`)).text();
	expect(html).toContain('template wat_not_in_catalogue');
});

test('an empty inbox says how to fill it', async () => {
	const html = await (await fetch(`${service.url}/_sandbox/inbox`)).text();
	expect(html).toMatch(/No messages yet/);
});
