import { createHash } from 'node:crypto';
import { MAX_BODY_BYTES } from '../../../sandbox/http';
import { startStandInService, type StandInService } from '../../../sandbox/server';
import { callStandIn } from '../../helpers/standInCalls';

/*
 * The account side (contacts, conversations, orders, media) as the running stand-in serves it over
 * HTTP: its endpoints in the table, close_conversation on the events endpoint, the base64 upload
 * above the general body limit, the direct upload's PUT as raw bytes without the API key, and
 * media links that are http(s) on the stand-in and fetchable without the key. The handlers
 * themselves are tested without HTTP in sandbox-account-side-*.test.ts.
 */

const PNG = Buffer.from(
	'89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489',
	'hex',
);
let service: StandInService;

beforeEach(async () => {
	service = await startStandInService();
});
afterEach(() => service.close());

/** A call to this test's stand-in, with its API key. */
const call = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
	callStandIn(service, method, path, body, headers);

describe('the service table', () => {
	it('lists every account-side endpoint and close_conversation beside the send side', () => {
		expect(service.endpoints).toEqual(
			expect.arrayContaining([
				'POST /api/v1/contacts',
				'POST /api/v1/contacts/bulk_update_communication_preferences',
				'GET /api/v1/contacts/:phone',
				'PATCH /api/v1/contacts/:phone',
				'GET /api/v1/conversations',
				'PATCH /api/v1/conversations/:id',
				'POST /api/v1/orders',
				'GET /api/v1/orders/:id',
				'POST /api/v1/orders/:id/refunds',
				'GET /api/v1/medias',
				'POST /api/v1/medias',
				'DELETE /api/v1/medias/:id',
				'POST /api/v1/medias/direct_uploads',
				'POST /api/v1/medias/finalize',
				'PUT /uploads/:token (no API key)',
				'GET /media/:key/:filename (no API key)',
			]),
		);
		const events = service.endpoints.find((endpoint) =>
			endpoint.startsWith('POST /api/v1/events '),
		);
		expect(events).toMatch(/event_type .*send_broadcast.*close_conversation/);
	});
});

describe('contacts, conversations and orders over HTTP', () => {
	it('upserts, gets with a %2B number, patches, and needs the key', async () => {
		const created = await call('POST', '/api/v1/contacts', {
			phone_number: '+4915112345678',
			name: 'Mia',
		});
		expect(created).toMatchObject({
			status: 201,
			body: { phone_number: '+4915112345678', name: 'Mia' },
		});
		const got = await call('GET', '/api/v1/contacts/%2B4915112345678');
		expect(got).toMatchObject({ status: 200, body: created.body });
		const patched = await call('PATCH', '/api/v1/contacts/%2B4915112345678', { tags: ['vip'] });
		expect(patched).toMatchObject({ status: 200, body: { name: 'Mia', tags: ['vip'] } });
		expect(
			(
				await call('GET', '/api/v1/contacts/%2B4915112345678', undefined, {
					authorization: 'wrong',
				})
			).status,
		).toBe(401);
	});

	it('answers close_conversation on the events endpoint, and still refuses unknown event types', async () => {
		const closed = await call('POST', '/api/v1/events', {
			event_type: 'close_conversation',
			contact: { name: 'Ada Lovelace', phone_number: '+14155550123' },
		});
		expect(closed).toMatchObject({ status: 200, body: {} });
		const unknown = await call('POST', '/api/v1/events', { event_type: 'close_everything' });
		expect(unknown.status).toBe(422);
		expect(unknown.body.errors.event_type[0]).toContain("'close_conversation'");
	});

	it('creates an order and gets it back', async () => {
		const order = {
			id: 'ref-1',
			type: 'digital_goods',
			contact: { phone_number: '+14155550123' },
			items: [{ name: 'Guide', amount: 1200, quantity: 1 }],
		};
		const created = await call('POST', '/api/v1/orders', order);
		expect(created.status).toBe(201);
		expect((await call('GET', `/api/v1/orders/${created.body.id}`)).body).toMatchObject({
			id: created.body.id,
		});
	});
});

describe('media over HTTP', () => {
	const checksum = (bytes: Buffer) => createHash('md5').update(bytes).digest('base64');

	it('takes a base64 body above the general limit, and still refuses one elsewhere', async () => {
		const big = Buffer.alloc(MAX_BODY_BYTES, 7); // base64 makes the body about 6.7 MiB
		const uploaded = await call('POST', '/api/v1/medias', {
			media: {
				data: big.toString('base64'),
				filename: 'catalogue.pdf',
				content_type: 'application/pdf',
			},
		});
		expect(uploaded.status).toBe(201);
		const recorded = service.requests.at(-1)!;
		expect(recorded.bodyBytes).toBeGreaterThan(MAX_BODY_BYTES);
		const tooLarge = await call('POST', '/api/v1/contacts', {
			phone_number: '+14155550123',
			name: 'x'.repeat(MAX_BODY_BYTES),
		});
		expect(tooLarge).toMatchObject({ status: 413, body: { message: 'Payload Too Large' } });
	});

	it('links each item over http(s) on the stand-in: the bytes, without the key, until removed', async () => {
		const uploaded = await call('POST', '/api/v1/medias', {
			media: { data: PNG.toString('base64'), filename: 'logo.png', content_type: 'image/png' },
		});
		const link: string = uploaded.body.media_url;
		expect(link.startsWith(`${service.url}/media/`)).toBe(true);
		const file = await fetch(link);
		expect(file.status).toBe(200);
		expect(file.headers.get('content-type')).toBe('image/png');
		expect(Buffer.from(await file.arrayBuffer()).equals(PNG)).toBe(true);
		expect((await call('DELETE', `/api/v1/medias/${uploaded.body.id}`)).status).toBe(204);
		expect((await fetch(link)).status).toBe(404);
	});

	it('reserves, takes the raw PUT without the key (logging only its size), and finalizes', async () => {
		const reserved = await call('POST', '/api/v1/medias/direct_uploads', {
			blob: {
				filename: 'logo.png',
				byte_size: PNG.length,
				checksum: checksum(PNG),
				content_type: 'image/png',
			},
		});
		expect(reserved.status).toBe(200);
		const { direct_upload, signed_id } = reserved.body;
		const put = await fetch(new URL(direct_upload.url, service.url), {
			method: 'PUT',
			headers: direct_upload.headers,
			body: PNG,
		});
		expect(put.status).toBe(204);
		const logged = service.requests.at(-1)!;
		expect(logged).toMatchObject({
			method: 'PUT',
			authorized: false,
			bodyBytes: PNG.length,
			status: 204,
		});
		expect(logged.body).toBeUndefined();
		const finalized = await call('POST', '/api/v1/medias/finalize', { signed_id });
		expect(finalized.status).toBe(201);
		const file = await fetch(finalized.body.media_url);
		expect(Buffer.from(await file.arrayBuffer()).equals(PNG)).toBe(true);
	});

	it('keeps the key check on every other account-side endpoint', async () => {
		for (const [method, path] of [
			['GET', '/api/v1/medias'],
			['POST', '/api/v1/medias/direct_uploads'],
			['GET', '/api/v1/conversations'],
		]) {
			const answer = await fetch(`${service.url}${path}`, {
				method,
				headers: { 'content-type': 'application/json' },
				body: method === 'GET' ? undefined : '{}',
			});
			expect(answer.status).toBe(401);
		}
	});
});
