import { createHmac } from 'node:crypto';

import fc from 'fast-check';

import {
	decodeSignature,
	verifyCaller,
	type CallerCheck,
	type RequestHeaders,
} from '../../../nodes/ChatMessagingTrigger/verify';
import { webhookAuthHeaders, type WebhookAuth } from '../../../sandbox/webhooks';

const SECRET = 'correct-horse-battery-staple';
const NOW = 1_900_000_000;
const raw = (text: string) => Buffer.from(text, 'utf8');
const body = '{"type":"order.completed","data":{"id":"wa_ord_1"}}';

/** Node lower-cases incoming header names; the sandbox sends them as written. */
function asReceived(headers: Record<string, string>): RequestHeaders {
	return Object.fromEntries(
		Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]),
	);
}

const headerSecret: CallerCheck = {
	mode: 'headerSecret',
	headerName: 'X-Webhook-Secret',
	secret: SECRET,
};
const hmacHex: CallerCheck = {
	mode: 'hmac',
	headerName: 'X-Signature-256',
	secret: SECRET,
	encoding: 'hex',
};
const hmacBase64: CallerCheck = { ...hmacHex, encoding: 'base64' };
const hmacTimestamped: CallerCheck = {
	...hmacHex,
	timestamp: { headerName: 'X-Signature-Timestamp', toleranceSeconds: 300 },
};

describe('no authentication', () => {
	it('lets every caller through', () => {
		expect(verifyCaller({ mode: 'none' }, {}, raw(''), NOW)).toEqual({ ok: true });
	});
});

describe('header secret', () => {
	it('accepts the right secret', () => {
		expect(verifyCaller(headerSecret, { 'x-webhook-secret': SECRET }, raw(body), NOW)).toEqual({
			ok: true,
		});
	});

	it('refuses a wrong secret, a prefix of it, and a longer one', () => {
		for (const sent of ['wrong', SECRET.slice(0, -1), `${SECRET}x`]) {
			expect(verifyCaller(headerSecret, { 'x-webhook-secret': sent }, raw(body), NOW)).toEqual({
				ok: false,
				status: 401,
				reason: 'secret does not match',
			});
		}
	});

	it('refuses a missing or empty header', () => {
		for (const headers of [{}, { 'x-webhook-secret': '' }, { 'x-other': SECRET }]) {
			expect(verifyCaller(headerSecret, headers, raw(body), NOW)).toEqual({
				ok: false,
				status: 401,
				reason: 'secret header missing',
			});
		}
	});

	it('finds the header whatever case the user typed its name in', () => {
		const check: CallerCheck = { ...headerSecret, headerName: ' x-WEBHOOK-secret ' };
		expect(verifyCaller(check, { 'x-webhook-secret': SECRET }, raw(body), NOW).ok).toBe(true);
	});

	it('refuses everyone when no secret is configured, even an empty header', () => {
		const check: CallerCheck = { ...headerSecret, secret: '' };
		expect(verifyCaller(check, { 'x-webhook-secret': '' }, raw(body), NOW)).toEqual({
			ok: false,
			status: 401,
			reason: 'no secret is configured',
		});
	});
});

describe('HMAC-SHA256 signature', () => {
	type SigningOptions = Omit<Extract<WebhookAuth, { mode: 'hmac' }>, 'mode' | 'secret'>;
	const sign = (auth: SigningOptions, text = body) =>
		asReceived(webhookAuthHeaders(text, { mode: 'hmac', secret: SECRET, ...auth }));

	it('accepts a hex signature of the raw body', () => {
		expect(verifyCaller(hmacHex, sign({}), raw(body), NOW)).toEqual({ ok: true });
	});

	it('accepts upper-case hex and a sha256= prefix', () => {
		const digest = createHmac('sha256', SECRET).update(body).digest('hex');
		for (const sent of [digest.toUpperCase(), `sha256=${digest}`, `SHA256=${digest}`]) {
			expect(verifyCaller(hmacHex, { 'x-signature-256': sent }, raw(body), NOW).ok).toBe(true);
		}
	});

	it('accepts a base64 signature when set to base64, with or without padding', () => {
		const headers = sign({ encoding: 'base64', prefix: true });
		expect(verifyCaller(hmacBase64, headers, raw(body), NOW)).toEqual({ ok: true });
		const unpadded = createHmac('sha256', SECRET).update(body).digest('base64').replace(/=+$/, '');
		expect(verifyCaller(hmacBase64, { 'x-signature-256': unpadded }, raw(body), NOW).ok).toBe(true);
	});

	it('refuses a signature in the other encoding', () => {
		expect(verifyCaller(hmacBase64, sign({ encoding: 'hex' }), raw(body), NOW)).toEqual({
			ok: false,
			status: 401,
			reason: 'signature is not a base64 SHA-256 digest',
		});
		expect(verifyCaller(hmacHex, sign({ encoding: 'base64' }), raw(body), NOW)).toEqual({
			ok: false,
			status: 401,
			reason: 'signature is not a hex SHA-256 digest',
		});
	});

	it('refuses a tampered body', () => {
		const headers = sign({});
		const tampered = body.replace('wa_ord_1', 'wa_ord_2');
		expect(verifyCaller(hmacHex, headers, raw(tampered), NOW)).toEqual({
			ok: false,
			status: 401,
			reason: 'signature does not match',
		});
	});

	it('refuses a body re-serialised with other spacing: the signature covers bytes', () => {
		const headers = sign({});
		const reformatted = JSON.stringify(JSON.parse(body), null, 2);
		expect(verifyCaller(hmacHex, headers, raw(reformatted), NOW).ok).toBe(false);
	});

	it('refuses a signature made with another secret', () => {
		const headers = asReceived(webhookAuthHeaders(body, { mode: 'hmac', secret: 'other-secret' }));
		expect(verifyCaller(hmacHex, headers, raw(body), NOW)).toMatchObject({
			ok: false,
			status: 401,
		});
	});

	it('refuses a missing signature header', () => {
		expect(verifyCaller(hmacHex, {}, raw(body), NOW)).toEqual({
			ok: false,
			status: 401,
			reason: 'signature header missing',
		});
	});

	it('reads the signature from a custom header', () => {
		const check: CallerCheck = { ...hmacHex, headerName: 'X-Hub-Signature' };
		const headers = sign({ signatureHeader: 'X-Hub-Signature' });
		expect(verifyCaller(check, headers, raw(body), NOW).ok).toBe(true);
		expect(verifyCaller(hmacHex, headers, raw(body), NOW).ok).toBe(false);
	});

	describe('with a timestamp', () => {
		it('accepts a fresh timestamp signed with the body', () => {
			const headers = sign({ timestamp: NOW - 10 });
			// With what tells a repeat of this call from a new one (replays.ts).
			expect(verifyCaller(hmacTimestamped, headers, raw(body), NOW)).toEqual({
				ok: true,
				signedCall: { signature: expect.any(Buffer), timestamp: NOW - 10 },
			});
		});

		it('answers 403 for a timestamp outside the window, in the past or the future', () => {
			for (const timestamp of [NOW - 301, NOW + 301, NOW - 86_400]) {
				const headers = sign({ timestamp });
				expect(verifyCaller(hmacTimestamped, headers, raw(body), NOW)).toEqual({
					ok: false,
					status: 403,
					reason: 'timestamp outside the tolerance window',
				});
			}
		});

		it('keeps the edge of the window inside', () => {
			expect(verifyCaller(hmacTimestamped, sign({ timestamp: NOW - 300 }), raw(body), NOW).ok).toBe(
				true,
			);
		});

		it('answers 401, not 403, when an old timestamp is not signed properly', () => {
			const headers = { ...sign({ timestamp: NOW - 10_000 }), 'x-signature-256': 'a'.repeat(64) };
			expect(verifyCaller(hmacTimestamped, headers, raw(body), NOW)).toMatchObject({ status: 401 });
		});

		it('refuses a missing or malformed timestamp', () => {
			const signedWithoutTimestamp = sign({});
			expect(verifyCaller(hmacTimestamped, signedWithoutTimestamp, raw(body), NOW)).toEqual({
				ok: false,
				status: 401,
				reason: 'timestamp header missing',
			});
			const headers = {
				...sign({ timestamp: NOW }),
				'x-signature-timestamp': '2030-01-01T00:00:00Z',
			};
			expect(verifyCaller(hmacTimestamped, headers, raw(body), NOW)).toEqual({
				ok: false,
				status: 401,
				reason: 'timestamp is not in unix seconds',
			});
		});

		it('refuses a timestamp swapped after signing', () => {
			const headers = { ...sign({ timestamp: NOW - 5 }), 'x-signature-timestamp': String(NOW) };
			expect(verifyCaller(hmacTimestamped, headers, raw(body), NOW)).toEqual({
				ok: false,
				status: 401,
				reason: 'signature does not match',
			});
		});

		it('uses the configured window', () => {
			const strict: CallerCheck = {
				...hmacHex,
				timestamp: { headerName: 'X-Signature-Timestamp', toleranceSeconds: 5 },
			};
			expect(verifyCaller(strict, sign({ timestamp: NOW - 6 }), raw(body), NOW).ok).toBe(false);
			expect(verifyCaller(strict, sign({ timestamp: NOW - 5 }), raw(body), NOW).ok).toBe(true);
		});
	});
});

describe('decodeSignature', () => {
	it('returns the 32 digest bytes or nothing', () => {
		expect(decodeSignature('ab'.repeat(32), 'hex')).toHaveLength(32);
		expect(decodeSignature('ab'.repeat(31), 'hex')).toBeUndefined();
		expect(decodeSignature('zz'.repeat(32), 'hex')).toBeUndefined();
		expect(decodeSignature(Buffer.alloc(32, 7).toString('base64'), 'base64')).toHaveLength(32);
		expect(decodeSignature(Buffer.alloc(31, 7).toString('base64'), 'base64')).toBeUndefined();
	});
});

describe('sandbox signing and verify.ts agree', () => {
	it('for any body, secret, encoding and timestamp', () => {
		fc.assert(
			fc.property(
				fc.string({ unit: 'binary' }),
				fc.string({ minLength: 1 }),
				fc.constantFrom('hex' as const, 'base64' as const),
				fc.boolean(),
				fc.option(fc.integer({ min: NOW - 300, max: NOW + 300 }), { nil: undefined }),
				(text, secret, encoding, prefix, timestamp) => {
					const headers = asReceived(
						webhookAuthHeaders(text, { mode: 'hmac', secret, encoding, prefix, timestamp }),
					);
					const check: CallerCheck = {
						mode: 'hmac',
						headerName: 'X-Signature-256',
						secret,
						encoding,
						timestamp:
							timestamp === undefined
								? undefined
								: { headerName: 'X-Signature-Timestamp', toleranceSeconds: 300 },
					};
					expect(verifyCaller(check, headers, raw(text), NOW)).toMatchObject({ ok: true });
				},
			),
		);
	});

	it('never throws on arbitrary header values', () => {
		fc.assert(
			fc.property(
				fc.dictionary(
					fc.constantFrom('x-signature-256', 'x-signature-timestamp', 'x-webhook-secret'),
					fc.oneof(fc.string(), fc.array(fc.string())),
				),
				fc.uint8Array({ maxLength: 256 }),
				(headers, bytes) => {
					for (const check of [headerSecret, hmacHex, hmacBase64, hmacTimestamped]) {
						const verdict = verifyCaller(check, headers, Buffer.from(bytes), NOW);
						expect(verdict.ok === true || [401, 403].includes(verdict.status)).toBe(true);
					}
				},
			),
		);
	});
});
