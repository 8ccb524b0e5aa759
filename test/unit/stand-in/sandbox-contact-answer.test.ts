import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { useStandInService } from '../../helpers/standInFixture';

/*
 * The stand-in playing the contact (POST /_sandbox/contact/answer): it finds the link in the newest
 * accepted template message, opens it, and presses only a button the page offers, posting the
 * page's form to the page's own address. A tiny page server stands in for n8n here; the real one
 * is in test/e2e/send-and-wait.test.ts.
 */

const API_KEY = 'contact-answer-key-SECRET-3f9a';
const service = useStandInService({ apiKey: API_KEY });

let pages: Server;
let pagesUrl = '';
const received: Array<{ method: string; url: string; body: string; type?: string }> = [];

beforeAll(async () => {
	pages = createServer((request, response) => {
		let body = '';
		request.on('data', (chunk: Buffer) => (body += chunk.toString()));
		request.on('end', () => {
			received.push({
				method: request.method ?? '',
				url: request.url ?? '',
				body,
				type: request.headers['content-type'],
			});
			response.writeHead(200, { 'content-type': 'text/html' });
			response.end(
				request.method === 'POST'
					? '<p>Thank you &amp; bye</p>'
					: '<style>p{}</style><p>Approve &lt;it&gt;?</p><form method="post"><button name="answer" value="approve">Yes</button></form>',
			);
		});
	});
	await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
	pagesUrl = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;
});

afterAll(async () => {
	await new Promise((resolve) => pages.close(resolve));
});

beforeEach(() => {
	received.length = 0;
});

async function send(phone: string, values: Record<string, string>) {
	const answer = await fetch(`${service.url}/api/v1/events`, {
		method: 'POST',
		headers: { Authorization: API_KEY, 'content-type': 'application/json' },
		body: JSON.stringify({
			event_type: 'send_template_message',
			contact: { phone_number: phone },
			template_message: { chat_template_id: 'wat_7e6d5c4b3a291807', liquid_values: values },
		}),
	});
	expect(answer.status).toBe(201);
}

async function answerAs(body: object) {
	const answer = await fetch(`${service.url}/_sandbox/contact/answer`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
	return { status: answer.status, body: (await answer.json()) as any };
}

test('opens the link in the newest message to that number and presses the button the page offers', async () => {
	await send('+14155550123', { amount: '1', order_number: 'A', approval_link: `${pagesUrl}/old` });
	await send('+442079460018', {
		amount: '2',
		order_number: 'B',
		approval_link: `${pagesUrl}/other`,
	});
	await send('+14155550123', {
		amount: '3',
		order_number: 'C',
		approval_link: `${pagesUrl}/new?s=1`,
	});

	const { status, body } = await answerAs({ phoneNumber: '14155550123', action: 'approve' });
	expect(status).toBe(200);
	expect(body.link).toBe(`${pagesUrl}/new?s=1`);
	expect(body.opened).toEqual({
		status: 200,
		text: 'Approve <it>? Yes',
		buttons: ['approve'],
		hasForm: true,
	});
	expect(body.pressed).toEqual([
		{ status: 200, text: 'Thank you & bye', buttons: [], hasForm: false },
	]);
	expect(received).toEqual([
		{ method: 'GET', url: '/new?s=1', body: '', type: undefined },
		{
			method: 'POST',
			url: '/new?s=1',
			body: 'answer=approve',
			type: 'application/x-www-form-urlencoded',
		},
	]);
});

test('"open" only opens; a button the page does not offer is not pressed', async () => {
	await send('+14155550123', { amount: '1', order_number: 'A', approval_link: `${pagesUrl}/p` });
	expect((await answerAs({ action: 'open' })).status).toBe(200);
	const refused = await answerAs({ action: 'disapprove' });
	expect(refused.status).toBe(409);
	expect(received.map((request) => request.method)).toEqual(['GET', 'GET']);
});

test('a URL button: the link start is completed by the variable, as the phone does', async () => {
	await send('+14155550123', { amount: '1', order_number: 'A', approval_link: 'x/y?signature=9' });
	const { body } = await answerAs({
		variable: 'approval_link',
		linkStart: `${pagesUrl}/webhook-waiting/`,
		action: 'open',
	});
	expect(body.link).toBe(`${pagesUrl}/webhook-waiting/x/y?signature=9`);
});

test('no message, no link, or a request it cannot read: said so, nothing opened', async () => {
	expect((await answerAs({ phoneNumber: '+19995550100', action: 'open' })).status).toBe(404);
	await send('+14155550123', { amount: '1', order_number: 'A', approval_link: 'not a link' });
	expect((await answerAs({ action: 'open' })).status).toBe(404);
	expect((await answerAs({ action: 'text' })).status).toBe(400);
	expect((await answerAs({ action: 'approve', extra: true })).status).toBe(400);
	expect(received).toEqual([]);
});
