import { createHmac } from 'node:crypto';

import type { INodeParameters } from 'n8n-workflow';

import { MAX_BODY_BYTES } from '../../../nodes/ChatMessagingTrigger/ChatMessagingTrigger.node';
import { buildWebhookBody, webhookAuthHeaders, type WebhookAuth } from '../../../sandbox/webhooks';
import {
	expectWorkflowStarted,
	postWithAuth,
	triggerHarnessesClosedAfterAll,
	type PostResult,
	type TriggerHarness,
} from '../../helpers/triggerHarness';

/*
 * The trigger's edges (issue 9 points 11-16 and the adversarial pass): every call crosses a real
 * socket into the mini n8n webhook server and reaches the node through n8n-core's WebhookContext.
 * Each refusal must answer the caller with a reason, log it, and start no workflow.
 */

jest.setTimeout(60_000);

const SECRET = 'edge-test-secret-4c1d9e7a2b';
const nowSeconds = () => Math.floor(Date.now() / 1000);
const order = () => buildWebhookBody('order', 'completed');

const startHarness = triggerHarnessesClosedAfterAll();
const harness = (parameters: INodeParameters = {}, secret?: string) =>
	startHarness({ parameters, secret });

function expectRefused(result: PostResult, status: number, error: string | RegExp) {
	expect(result.call.error).toBeUndefined();
	expect(result.call.workflowData).toBeUndefined();
	expect(result.contentType).toMatch(/^application\/json/);
	expect(result.body).toEqual({ received: false, started: false, error: expect.any(String) });
	const { error: reason } = result.body as { error: string };
	if (typeof error === 'string') expect(reason).toBe(error);
	else expect(reason).toMatch(error);
	expect(result.status).toBe(status);
}

/** A refusal the workflow's owner must act on is logged above debug, with its reason. */
function expectLoggedForOwner(h: TriggerHarness, reason: RegExp) {
	const owned = h.logs.filter((entry) => entry.level === 'warn' || entry.level === 'error');
	expect(owned.map((entry) => entry.message)).toContainEqual(expect.stringMatching(reason));
}

describe('11: a secret stored with spaces around it', () => {
	const padded = `  ${SECRET}\t \n`;

	it('matches the header the caller sends without them', async () => {
		const h = await harness({ authentication: 'headerSecret' }, padded);
		expectWorkflowStarted(await postWithAuth(h, order(), { mode: 'headerSecret', secret: SECRET }));
	});

	it('signs with the same trimmed secret in HMAC mode', async () => {
		const h = await harness({ authentication: 'hmac' }, padded);
		expectWorkflowStarted(await postWithAuth(h, order(), { mode: 'hmac', secret: SECRET }));
		expectRefused(
			await postWithAuth(h, order(), { mode: 'hmac', secret: padded }),
			401,
			'signature does not match',
		);
	});
});

describe('12: a secret outside printable ASCII', () => {
	for (const [label, secret] of [
		['an accented letter', 'geheimer-schlüssel-2030-abc'],
		['an emoji', 'webhook-secret-🔑-0123456789'],
		['a control character inside', 'webhook-secret\u0007-0123456789'],
	]) {
		it(`with ${label}: every call is refused with the reason, logged, nothing started`, async () => {
			const h = await harness({ authentication: 'hmac' }, secret);
			// Correctly signed with that very secret: HMAC itself could match, the rule still refuses.
			const result = await postWithAuth(h, order(), { mode: 'hmac', secret });
			expectRefused(result, 500, /secret has characters an HTTP header cannot carry/);
			expectLoggedForOwner(h, /secret has characters an HTTP header cannot carry/);
		});
	}
});

describe('13: a Tolerance that is not a positive number fails closed', () => {
	for (const [label, tolerance] of [
		['an expression giving text', '={{ "five minutes" }}'],
		['zero', 0],
		['a negative number', -300],
		['an expression giving nothing', '={{ undefined }}'],
	] as const) {
		it(`${label}: refused, logged, nothing started, even with a fresh timestamp`, async () => {
			const h = await harness(
				{ authentication: 'hmac', requireTimestamp: true, timestampToleranceSeconds: tolerance },
				SECRET,
			);
			for (const timestamp of [nowSeconds() - 86_400, nowSeconds()]) {
				const result = await postWithAuth(h, order(), { mode: 'hmac', secret: SECRET, timestamp });
				expectRefused(result, 500, /Tolerance \(Seconds\) is not a positive number/);
			}
			expectLoggedForOwner(h, /Tolerance \(Seconds\) is not a positive number/);
		});
	}

	it('a tolerance given as a number by an expression still works', async () => {
		const h = await harness(
			{ authentication: 'hmac', requireTimestamp: true, timestampToleranceSeconds: '={{ 60 }}' },
			SECRET,
		);
		expectWorkflowStarted(
			await postWithAuth(h, order(), { mode: 'hmac', secret: SECRET, timestamp: nowSeconds() }),
		);
		expectRefused(
			await postWithAuth(h, order(), {
				mode: 'hmac',
				secret: SECRET,
				timestamp: nowSeconds() - 120,
			}),
			403,
			'timestamp outside the tolerance window',
		);
	});
});

describe('14: nesting is limited to 64 levels', () => {
	/** `levels` objects or arrays deep, counting the outer object. */
	const nested = (levels: number, open = '{"a":', close = '}') =>
		`{"type":"order.completed","data":${open.repeat(levels - 1)}1${close.repeat(levels - 1)}}`;

	let h: TriggerHarness;
	beforeAll(async () => {
		h = await harness({ events: ['order', 'other'] });
	});

	it('accepts 64 levels, counting the outer object', async () => {
		expectWorkflowStarted(await h.post(nested(64), { 'Content-Type': 'text/plain' }));
		expectWorkflowStarted(await h.post(nested(64, '[', ']')));
	});

	it('refuses 65 levels with 400, before a workflow starts', async () => {
		for (const [open, close] of [
			['{"a":', '}'],
			['[', ']'],
		]) {
			expectRefused(
				await h.post(nested(65, open, close)),
				400,
				'body is nested deeper than 64 levels',
			);
		}
	});

	it('refuses hundreds of thousands of levels without blowing the stack', async () => {
		for (const contentType of ['text/plain', 'application/json', 'application/octet-stream']) {
			const result = await h.post(nested(300_000, '[', ']'), { 'Content-Type': contentType });
			expectRefused(result, 400, 'body is nested deeper than 64 levels');
		}
	});

	it('does not count brackets inside strings', async () => {
		const body = { type: 'order.completed', data: { note: `${'[{'.repeat(100)}\\"]` } };
		expectWorkflowStarted(await h.post(JSON.stringify(body)));
	});
});

describe('15: encodings', () => {
	const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
	const raw = () => JSON.stringify(order());

	let h: TriggerHarness;
	beforeAll(async () => {
		h = await harness();
	});

	it('accepts UTF-8 with a byte-order mark, whatever the content type', async () => {
		for (const type of [undefined, 'text/plain', 'application/json', 'application/octet-stream']) {
			const body = Buffer.concat([BOM, Buffer.from(raw())]);
			const json = expectWorkflowStarted(
				await h.postRaw(body, type ? { 'Content-Type': type } : {}),
			);
			expect(json.kind).toBe('order');
		}
	});

	it('verifies an HMAC over the bytes as sent, byte-order mark included', async () => {
		const signed = await harness({ authentication: 'hmac' }, SECRET);
		const body = Buffer.concat([BOM, Buffer.from(raw())]);
		const signature = createHmac('sha256', SECRET).update(body).digest('hex');
		const headers = { 'X-Signature-256': signature, 'Content-Type': 'text/plain' };
		expectWorkflowStarted(await signed.postRaw(body, headers));
	});

	it('accepts a charset of utf-8 however it is written', async () => {
		for (const type of [
			'application/json; charset=utf-8',
			'application/json;charset=UTF-8',
			'text/plain; charset="utf-8"',
			'application/octet-stream; charset=utf8',
		]) {
			expectWorkflowStarted(await h.postRaw(raw(), { 'Content-Type': type }));
		}
	});

	it('answers 415 to another charset in the content type', async () => {
		const utf16 = Buffer.from(raw(), 'utf16le');
		expectRefused(
			await h.postRaw(utf16, { 'Content-Type': 'application/json; charset=utf-16le' }),
			415,
			'charset utf-16le is not accepted: send UTF-8',
		);
		expectRefused(
			await h.postRaw(Buffer.from(raw(), 'latin1'), {
				'Content-Type': 'application/octet-stream; charset=ISO-8859-1',
			}),
			415,
			'charset iso-8859-1 is not accepted: send UTF-8',
		);
		expectRefused(
			await h.postRaw(raw(), { 'Content-Type': 'text/plain; charset=latin1' }),
			415,
			'charset latin1 is not accepted: send UTF-8',
		);
	});

	it('answers 415 to UTF-16 and UTF-32 bodies found by their byte-order mark', async () => {
		const text = raw();
		const utf16le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
		const utf16be = Buffer.from(utf16le.subarray(2)).swap16();
		const withBomBe = Buffer.concat([Buffer.from([0xfe, 0xff]), utf16be]);
		const utf32le = Buffer.concat([Buffer.from([0xff, 0xfe, 0x00, 0x00]), Buffer.from('{}')]);
		for (const [body, name] of [
			[utf16le, 'UTF-16'],
			[withBomBe, 'UTF-16'],
			[utf32le, 'UTF-32'],
		] as const) {
			for (const type of [undefined, 'text/plain', 'application/octet-stream']) {
				const result = await h.postRaw(body, type ? { 'Content-Type': type } : {});
				expectRefused(result, 415, `body is ${name}: send UTF-8`);
			}
		}
	});

	it('answers 415 to bytes that are not UTF-8 (Latin-1 sent unlabelled)', async () => {
		const latin1 = Buffer.from('{"type":"order.completed","data":{"note":"café"}}', 'latin1');
		expectRefused(
			await h.postRaw(latin1, { 'Content-Type': 'text/plain' }),
			415,
			'body is not valid UTF-8',
		);
	});
});

describe('16: size and the secret length', () => {
	it(`answers 413 to a body over ${MAX_BODY_BYTES} bytes, before authentication`, async () => {
		const signed = await harness({ authentication: 'hmac' }, SECRET);
		const raw = JSON.stringify({
			type: 'order.completed',
			data: { pad: 'x'.repeat(MAX_BODY_BYTES) },
		});
		expectRefused(await signed.post(raw), 413, `body is larger than ${MAX_BODY_BYTES} bytes`);
	});

	it('refuses every call when the secret is shorter than 16 characters, and logs why', async () => {
		for (const authentication of ['headerSecret', 'hmac']) {
			const h = await harness({ authentication }, 'short-secret');
			const auth = { mode: authentication, secret: 'short-secret' } as WebhookAuth;
			expectRefused(
				await postWithAuth(h, order(), auth),
				500,
				'trigger is not set up: the webhook secret is shorter than 16 characters',
			);
			expectLoggedForOwner(h, /the webhook secret is shorter than 16 characters/);
		}
	});

	it('counts the length after trimming', async () => {
		const h = await harness({ authentication: 'headerSecret' }, `   ${'k'.repeat(15)}     `);
		expectRefused(
			await postWithAuth(h, order(), { mode: 'headerSecret', secret: 'k'.repeat(15) }),
			500,
			/shorter than 16 characters/,
		);
	});
});

describe('adversarial: configuration the trigger cannot trust fails closed', () => {
	it('no credential: refused with the reason, logged for the owner', async () => {
		const h = await harness({ authentication: 'headerSecret' });
		expectRefused(
			await postWithAuth(h, order(), { mode: 'headerSecret', secret: '' }),
			500,
			'trigger is not set up: no Chat Messaging Webhook credential could be read',
		);
		expectLoggedForOwner(h, /no Chat Messaging Webhook credential could be read/);
	});

	it('an Authentication the node does not know', async () => {
		const h = await harness({ authentication: '={{ "basicAuth" }}' }, SECRET);
		expectRefused(
			await postWithAuth(h, order()),
			500,
			/Authentication "basicAuth" is not one the trigger knows/,
		);
		const signedCall = await postWithAuth(h, order(), { mode: 'hmac', secret: SECRET });
		expectRefused(signedCall, 500, /Authentication "basicAuth" is not one the trigger knows/);
	});

	it('a Signature Encoding the node does not know', async () => {
		const h = await harness(
			{ authentication: 'hmac', signatureEncoding: '={{ "base32" }}' },
			SECRET,
		);
		expectRefused(
			await postWithAuth(h, order(), { mode: 'hmac', secret: SECRET, encoding: 'base64' }),
			500,
			/Signature Encoding "base32" is not one the trigger knows/,
		);
	});

	it('Require Timestamp that is not true or false', async () => {
		const h = await harness({ authentication: 'hmac', requireTimestamp: '={{ "no" }}' }, SECRET);
		expectRefused(
			await postWithAuth(h, order(), { mode: 'hmac', secret: SECRET }),
			500,
			/Require Timestamp is not true or false/,
		);
	});

	it('a header name that no HTTP header can have', async () => {
		for (const headerName of ['X-Webhook-Secret:', 'Authorization: Bearer', '', '={{ 42 }}']) {
			const h = await harness({ authentication: 'headerSecret', headerName }, SECRET);
			expectRefused(
				await postWithAuth(h, order(), { mode: 'headerSecret', secret: SECRET }),
				500,
				/Header Name is not a valid HTTP header name/,
			);
		}
	});

	it('Events that are not a list of known events', async () => {
		const h = await harness({ events: '={{ "order,messageDelivery" }}' });
		expectRefused(
			await postWithAuth(h, order()),
			500,
			/Events is not a list of the trigger's events/,
		);
	});

	it('a parameter whose expression throws: refused, no workflow, never an error to n8n', async () => {
		const h = await harness({ events: '={{ (() => { throw new Error("boom") })() }}' });
		const result = await postWithAuth(h, order());
		expectRefused(result, 500, /trigger is not set up|could not check this call/);
	});
});

describe('adversarial: calls the trigger cannot trust', () => {
	it('a secret header sent twice is refused, even when one copy is right', async () => {
		const h = await harness({ authentication: 'headerSecret' }, SECRET);
		const raw = JSON.stringify(order());
		for (const values of [
			[SECRET, SECRET],
			[SECRET, 'wrong'],
			['wrong', SECRET],
		]) {
			const result = await h.postRaw(raw, {
				'Content-Type': 'application/json',
				'X-Webhook-Secret': values,
			});
			expectRefused(result, 401, 'secret header sent more than once');
		}
	});

	it('a signature or timestamp header sent twice is refused', async () => {
		const h = await harness({ authentication: 'hmac', requireTimestamp: true }, SECRET);
		const raw = JSON.stringify(order());
		const signed = webhookAuthHeaders(raw, {
			mode: 'hmac',
			secret: SECRET,
			timestamp: nowSeconds(),
		});
		const signature = signed['X-Signature-256'];
		const timestamp = signed['X-Signature-Timestamp'];
		expectRefused(
			await h.postRaw(raw, {
				'X-Signature-256': [signature, signature],
				'X-Signature-Timestamp': timestamp,
			}),
			401,
			'signature header sent more than once',
		);
		expectRefused(
			await h.postRaw(raw, {
				'X-Signature-256': signature,
				'X-Signature-Timestamp': [timestamp, timestamp],
			}),
			401,
			'timestamp header sent more than once',
		);
	});

	it('an empty signature, a bare prefix, junk and far-future timestamps', async () => {
		const h = await harness({ authentication: 'hmac', requireTimestamp: true }, SECRET);
		const raw = JSON.stringify(order());
		expectRefused(await h.post(raw, { 'X-Signature-256': '' }), 401, 'signature header missing');
		expectRefused(
			await h.post(raw, { 'X-Signature-256': 'sha256=' }),
			401,
			'signature is not a hex SHA-256 digest',
		);
		const signedAt = (timestamp: string) => {
			const headers = webhookAuthHeaders(raw, { mode: 'hmac', secret: SECRET, timestamp: 1 });
			return { ...headers, 'X-Signature-Timestamp': timestamp };
		};
		for (const junk of ['1e9', '0x10', ' 12 34', '-5', '17000000000000', 'NaN']) {
			expectRefused(
				await h.post(raw, signedAt(junk)),
				401,
				/timestamp is not in unix seconds|signature does not match/,
			);
		}
		const farFuture = nowSeconds() + 10 * 365 * 86_400;
		expectRefused(
			await postWithAuth(h, order(), { mode: 'hmac', secret: SECRET, timestamp: farFuture }),
			403,
			'timestamp outside the tolerance window',
		);
	});

	it('an empty body, and multipart forms, are refused with what to send instead', async () => {
		const h = await harness();
		for (const type of [undefined, 'application/json', 'text/plain']) {
			expectRefused(
				await h.postRaw('', type ? { 'Content-Type': type } : {}),
				400,
				'body is empty',
			);
		}
		const form =
			'--x\r\nContent-Disposition: form-data; name="type"\r\n\r\norder.completed\r\n--x--\r\n';
		expectRefused(
			await h.postRaw(form, { 'Content-Type': 'multipart/form-data; boundary=x' }),
			415,
			'multipart bodies are not accepted: send JSON',
		);
	});

	it('JSON that is not an object, sent without a content type', async () => {
		const h = await harness({ events: ['other'] });
		for (const raw of ['null', '0', '"order.completed"', 'true', '[]']) {
			const result = await h.postRaw(raw, {});
			expectRefused(result, 400, /^body must be a JSON object/);
		}
	});
});
