import { startStandInService, type StandInService } from '../../../sandbox/server';

/* The fault queue: answers in place of the service, delays, and connection resets. */

let service: StandInService;

beforeAll(async () => {
	service = await startStandInService();
});
afterAll(async () => {
	await service.close();
});
beforeEach(() => {
	service.clearRequests();
	service.clearFaults();
});

const send = {
	event_type: 'send_template_message',
	contact: { phone_number: '+14155550123' },
	template_message: { chat_template_id: 'wat_1' },
};

function post(path: string, body: unknown, target: StandInService = service): Promise<Response> {
	return fetch(`${target.url}${path}`, {
		method: 'POST',
		headers: { authorization: target.apiKey, 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
}
const sendMessage = (target?: StandInService) => post('/api/v1/events', send, target);
const createContacts = () => post('/subscribers', [{ phone_number: '+14155550123' }]);

async function control(method: string, path: string, body?: unknown): Promise<Response> {
	return fetch(`${service.url}/_sandbox${path}`, {
		method,
		headers: { 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
}

/** Waits, without a deadline of its own, until the stand-in has read a request. */
async function recorded(target: StandInService, count: number): Promise<void> {
	while (target.requests.length < count) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe('status faults', () => {
	it('answers 429 with Retry-After and its reason, unprocessed, then serves normally', async () => {
		service.injectFaults({ status: 429, retryAfter: 7 });
		const faulted = await sendMessage();
		expect(faulted.status).toBe(429);
		expect(faulted.headers.get('retry-after')).toBe('7');
		expect(faulted.headers.get('x-message-id')).toBeNull();
		expect(await faulted.json()).toEqual({ message: 'Too Many Requests' });

		const normal = await sendMessage();
		expect(normal.status).toBe(201);
		expect(service.requests.map((r) => [r.status, r.faulted])).toEqual([
			[429, true],
			[201, undefined],
		]);
		expect(service.requests[0].body).toEqual(send);
		expect(service.acceptedSends()).toEqual([service.requests[1]]);
	});

	it('answers a given JSON body, or raw text with its content type', async () => {
		service.injectFaults([
			{ status: 422, body: { message: 'Parameter Error', code: 'missing_variables' } },
			{ status: 503, rawBody: '<html>down for maintenance</html>', contentType: 'text/html' },
			{ status: 500, retryAfter: 'Wed, 21 Oct 2065 07:28:00 GMT' },
		]);
		const first = await sendMessage();
		expect(first.status).toBe(422);
		expect(await first.json()).toEqual({ message: 'Parameter Error', code: 'missing_variables' });

		const second = await sendMessage();
		expect(second.status).toBe(503);
		expect(second.headers.get('content-type')).toBe('text/html');
		expect(await second.text()).toBe('<html>down for maintenance</html>');

		const third = await sendMessage();
		expect(third.status).toBe(500);
		expect(third.headers.get('retry-after')).toBe('Wed, 21 Oct 2065 07:28:00 GMT');
		expect(await third.json()).toEqual({ message: 'Internal Server Error' });
		expect(service.acceptedSends()).toEqual([]);
	});

	it('hits as many requests as its count, then lets them through', async () => {
		service.injectFaults({ status: 502, count: 2 });
		const statuses = [];
		for (let i = 0; i < 3; i++) statuses.push((await sendMessage()).status);
		expect(statuses).toEqual([502, 502, 201]);
		expect(service.pendingFaults()).toEqual([]);
	});

	it('hits only its path when given one', async () => {
		service.injectFaults({ status: 500, path: '/subscribers' });
		expect((await sendMessage()).status).toBe(201);
		expect(service.pendingFaults()).toHaveLength(1);
		expect((await createContacts()).status).toBe(500);
		expect((await createContacts()).status).toBe(201);
	});

	it('answers in place of auth: a fault hits a request with a wrong key too', async () => {
		service.injectFaults({ status: 503 });
		const response = await fetch(`${service.url}/api/v1/events`, {
			method: 'POST',
			headers: { authorization: 'wrong', 'content-type': 'application/json' },
			body: JSON.stringify(send),
		});
		expect(response.status).toBe(503);
		expect(service.requests[0]).toMatchObject({ authorized: false, faulted: true });
	});

	it('refuses faults that make no sense', () => {
		expect(() => service.injectFaults({})).toThrow(
			/at least one of status, delayMs, reset: true, redirect, drip: true, meanwhile or answer/,
		);
		expect(() => service.injectFaults({ redirect: 'https://x.example', status: 200 })).toThrow(
			/3xx status with redirect/,
		);
		expect(() => service.injectFaults({ drip: true, status: 500 })).toThrow(/cannot be combined/);
		expect(() => service.injectFaults({ dripIntervalMs: 10 })).toThrow(/only for drip/);
		expect(() => service.injectFaults({ status: 500, reset: true })).toThrow(/cannot be combined/);
		expect(() => service.injectFaults({ status: 1000 })).toThrow();
		expect(() =>
			service.injectFaults({ status: 500, meanwhile: [{ method: 'DELETE', path: '/x' }] }),
		).toThrow(/not processed/);
		expect(() => service.injectFaults({ body: { a: 1 } })).toThrow(/required when a body/);
		expect(service.pendingFaults()).toEqual([]);
	});
});

describe('delays', () => {
	it('answers normally after the delay', async () => {
		service.injectFaults({ delayMs: 20 });
		const response = await sendMessage();
		expect(response.status).toBe(201);
		expect(service.acceptedSends()).toHaveLength(1);
	});

	it('delays a status fault too', async () => {
		service.injectFaults({ delayMs: 20, status: 504 });
		expect((await sendMessage()).status).toBe(504);
	});

	it('holds the answer while the delay runs', async () => {
		const held = await startStandInService();
		try {
			held.injectFaults({ delayMs: 600_000 });
			let settled = false;
			const pending = sendMessage(held).then(
				() => (settled = true),
				() => (settled = true),
			);
			await recorded(held, 1);
			// Read, not answered: the request sits in the delay, undecided.
			expect(held.requests[0].status).toBe(0);
			expect(settled).toBe(false);
			await held.close();
			await pending;
		} finally {
			await held.close();
		}
	});
});

describe('connection resets', () => {
	it('processes the request, then destroys the socket: the client sees an error', async () => {
		service.injectFaults({ reset: true });
		await expect(sendMessage()).rejects.toThrow();
		expect(service.requests).toHaveLength(1);
		const [request] = service.requests;
		expect(request).toMatchObject({ status: 201, reset: true, body: send });
		expect(request.faulted).toBeUndefined();
		expect(request.messageId).toMatch(/^cmsg_/);
		// The send went through although the client never heard so: a retry would duplicate it.
		expect(service.acceptedSends()).toEqual([request]);

		expect((await sendMessage()).status).toBe(201);
		expect(service.acceptedSends()).toHaveLength(2);
	});

	it('does not count a reset invalid request as accepted', async () => {
		service.injectFaults({ reset: true });
		await expect(post('/api/v1/events', { event_type: 'nope' })).rejects.toThrow();
		expect(service.requests[0]).toMatchObject({ status: 422, reset: true });
		expect(service.acceptedSends()).toEqual([]);
	});
});

describe('redirects', () => {
	it('answers 302 with the Location by default, unprocessed, and does not follow anything itself', async () => {
		service.injectFaults({ redirect: 'https://elsewhere.example/api/v1/events' });
		const response = await fetch(`${service.url}/api/v1/events`, {
			method: 'POST',
			redirect: 'manual',
			headers: { authorization: service.apiKey, 'content-type': 'application/json' },
			body: JSON.stringify(send),
		});
		expect(response.status).toBe(302);
		expect(response.headers.get('location')).toBe('https://elsewhere.example/api/v1/events');
		expect(service.requests[0]).toMatchObject({ status: 302, faulted: true });
		expect(service.acceptedSends()).toEqual([]);
	});

	it.each([301, 303, 307, 308])('answers %i when asked', async (status) => {
		service.injectFaults({ redirect: '/elsewhere', status });
		const response = await fetch(`${service.url}/api/v1/events`, {
			method: 'POST',
			redirect: 'manual',
			body: '{}',
		});
		expect(response.status).toBe(status);
		expect(response.headers.get('location')).toBe('/elsewhere');
	});
});

describe('drip', () => {
	it('processes the request, sends the headers at once, then the body a byte per interval', async () => {
		service.injectFaults({ drip: true, dripIntervalMs: 5 });
		const response = await sendMessage();
		// The headers came before the body: the status and the message id are there already.
		expect(response.status).toBe(201);
		expect(response.headers.get('x-message-id')).toMatch(/^cmsg_/);
		const reader = response.body!.getReader();
		const chunks: number[] = [];
		for (let next = await reader.read(); !next.done; next = await reader.read())
			chunks.push(next.value.length);
		// One byte at a time, and the whole answer in the end.
		expect(Math.max(...chunks)).toBe(1);
		expect(chunks.length).toBe(Number(response.headers.get('content-length')));
		expect(service.acceptedSends()).toHaveLength(1);
	});

	it('stops dripping when the client goes away', async () => {
		service.injectFaults({ drip: true, dripIntervalMs: 5 });
		const aborted = new AbortController();
		const response = await fetch(`${service.url}/api/v1/events`, {
			method: 'POST',
			signal: aborted.signal,
			headers: { authorization: service.apiKey, 'content-type': 'application/json' },
			body: JSON.stringify(send),
		});
		expect(response.status).toBe(201);
		aborted.abort();
		// The stand-in still serves the next request normally.
		expect((await sendMessage()).status).toBe(201);
	});
});

describe('fault control API', () => {
	it('queues, lists and clears faults over HTTP', async () => {
		const queued = await control('POST', '/faults', {
			faults: [{ status: 429, retryAfter: '1', count: 3, path: '/api/v1/events' }, { reset: true }],
		});
		expect(queued.status).toBe(201);
		const listed = await (await control('GET', '/faults')).json();
		expect(listed).toEqual([
			{ status: 429, retryAfter: '1', count: 3, path: '/api/v1/events', remaining: 3 },
			{ reset: true, count: 1, remaining: 1 },
		]);

		expect((await sendMessage()).status).toBe(429);
		const afterOne: any = await (await control('GET', '/faults')).json();
		expect(afterOne[0].remaining).toBe(2);

		const cleared = await control('DELETE', '/faults');
		expect(await cleared.json()).toEqual({ cleared: 2 });
		expect((await sendMessage()).status).toBe(201);
	});

	it('answers 400 naming the field for an invalid fault', async () => {
		const response = await control('POST', '/faults', { faults: [{ status: 'soon' }] });
		expect(response.status).toBe(400);
		const body: any = await response.json();
		expect(Object.keys(body.errors)).toEqual(['faults[0].status']);
		expect(service.pendingFaults()).toEqual([]);
	});

	it('answers 400 for a control body that is not JSON', async () => {
		const response = await fetch(`${service.url}/_sandbox/faults`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: '{',
		});
		expect(response.status).toBe(400);
		expect(await response.json()).toEqual({ message: 'Body is not JSON' });
	});
});

describe('meanwhile', () => {
	it("makes another client's requests after this one is processed and before it is answered", async () => {
		const list = () =>
			fetch(`${service.url}/api/v1/medias?page=1&per=1000`, {
				headers: { authorization: service.apiKey },
			}).then(
				async (answer) => ((await answer.json()) as { medias: Array<{ id: number }> }).medias,
			);
		const before = await list();
		service.injectFaults({
			path: '/api/v1/medias',
			meanwhile: [
				{
					method: 'POST',
					path: '/api/v1/medias',
					body: {
						media: { data: 'aGk=', filename: 'meanwhile.txt', content_type: 'text/plain' },
					},
				},
				{ method: 'DELETE', path: `/api/v1/medias/${before[0].id}` },
			],
		});
		// This answer is cut before the other client's requests: it shows the list as it was.
		expect((await list()).map((media) => media.id)).toEqual(before.map((media) => media.id));
		const after = await list();
		expect(after.map((media) => media.id)).not.toContain(before[0].id);
		expect(after).toHaveLength(before.length);
		expect(service.requests.filter((request) => request.meanwhile)).toMatchObject([
			{ method: 'POST', status: 201 },
			{ method: 'DELETE', status: 204 },
		]);
	});
});

describe('answer as told', () => {
	const told = { status: 201, body: { id: 7, status: 'queued', error: null, extra: [1] } };

	it('processes an accepted request, then answers the given status and body in its place', async () => {
		service.injectFaults({ path: '/api/v1/events', answer: told });
		const answered = await sendMessage();
		expect(answered.status).toBe(201);
		expect(answered.headers.get('content-type')).toMatch(/^application\/json/);
		// The service's own headers stay: the message it accepted is still named.
		expect(answered.headers.get('x-message-id')).toMatch(/^cmsg_/);
		expect(await answered.json()).toEqual(told.body);
		expect(service.acceptedSends('/api/v1/events')).toHaveLength(1);
	});

	it('keeps the refusal of a request that breaks the contract, and answers the next one as told', async () => {
		service.injectFaults({ path: '/api/v1/events', answer: told, count: 2 });
		const refused = await post('/api/v1/events', { ...send, unknown_field: 1 });
		expect(refused.status).toBe(422);
		expect(service.requests[0].contractViolation).toBeDefined();
		expect(await (await sendMessage()).json()).toEqual(told.body);
	});

	it('answers as told about an object the stand-in does not hold: only the checks refuse', async () => {
		service.injectFaults({ path: '/api/v1/orders/wa_ord_unknown', answer: told });
		const answered = await fetch(`${service.url}/api/v1/orders/wa_ord_unknown`, {
			headers: { authorization: service.apiKey },
		});
		expect(answered.status).toBe(201);
		expect(await answered.json()).toEqual(told.body);
	});

	it('refuses an answer with status, reset or drip (they answer without it)', () => {
		for (const other of [{ status: 200 }, { reset: true }, { drip: true }]) {
			expect(() => service.injectFaults({ answer: told, ...other })).toThrow(/answer/);
		}
	});
});
