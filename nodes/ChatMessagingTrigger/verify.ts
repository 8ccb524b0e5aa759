import { createHash, createHmac, timingSafeEqual } from 'crypto';

import type { SignedCall } from './replays';

/*
 * Caller authentication. The service documents no signing of its own, so the trigger can only
 * trust a caller that proves it knows a secret shared with the user: sent as is in a header, or
 * used to sign the raw body. Every comparison runs on fixed-length digests with timingSafeEqual,
 * so neither the secret's length nor its leading characters can be learnt from response times.
 *
 * Verdicts carry short reasons meant for the caller and the log; none ever contains the secret or
 * the value the caller sent.
 */

export const DEFAULT_SECRET_HEADER = 'X-Webhook-Secret';
export const DEFAULT_SIGNATURE_HEADER = 'X-Signature-256';
export const DEFAULT_TIMESTAMP_HEADER = 'X-Signature-Timestamp';
export const DEFAULT_TOLERANCE_SECONDS = 300;

export type SignatureEncoding = 'hex' | 'base64';

export type CallerCheck =
	| { mode: 'none' }
	| { mode: 'headerSecret'; headerName: string; secret: string }
	| {
			mode: 'hmac';
			headerName: string;
			secret: string;
			encoding: SignatureEncoding;
			/** When set, the signed payload is `${timestamp}.${rawBody}` and old timestamps fail. */
			timestamp?: { headerName: string; toleranceSeconds: number };
	  };

/**
 * `signedCall` is set when the call was signed with a timestamp: only then can a repeat of it be
 * told from a new call, within the tolerance window (replays.ts).
 */
export type CallerVerdict =
	| { ok: true; signedCall?: SignedCall }
	| { ok: false; status: 401 | 403; reason: string };

/**
 * Header values by lower-cased name; a name may hold every copy sent (Node's `headersDistinct`),
 * so that a repeated header can be told from one whose value contains a comma.
 */
export type RequestHeaders = Record<string, string | string[] | undefined>;

const SHA256_BYTES = 32;
const HEX_DIGEST = /^[0-9a-f]{64}$/i;
// Standard or URL-safe alphabet, padding optional: senders differ; all decode to the same bytes.
const BASE64_DIGEST = /^[A-Za-z0-9+/_-]{43}=?$/;
const UNIX_SECONDS = /^\d{1,12}$/;

type HeaderReading = { value: string } | { missing: true } | { repeated: true };

/**
 * One header's value. Node lower-cases incoming header names, while users type them as the
 * service's settings show them. A header sent more than once is refused rather than read: which
 * copy a proxy or a framework keeps varies, and a check must not depend on that.
 */
function readHeader(headers: RequestHeaders, name: string): HeaderReading {
	const value = headers[name.trim().toLowerCase()];
	if (Array.isArray(value) && value.length > 1) return { repeated: true };
	const first = (Array.isArray(value) ? value[0] : value)?.trim();
	return first === undefined || first === '' ? { missing: true } : { value: first };
}

function refusal(what: string, reading: Exclude<HeaderReading, { value: string }>): CallerVerdict {
	const reason =
		'repeated' in reading ? `${what} header sent more than once` : `${what} header missing`;
	return { ok: false, status: 401, reason };
}

function sha256(value: string | Buffer): Buffer {
	return createHash('sha256').update(value).digest();
}

/** The digest the caller claims, as bytes, or undefined when it is not a SHA-256 digest at all. */
export function decodeSignature(value: string, encoding: SignatureEncoding): Buffer | undefined {
	const digest = value.replace(/^sha256=/i, '');
	if (encoding === 'hex') {
		return HEX_DIGEST.test(digest) ? Buffer.from(digest, 'hex') : undefined;
	}
	if (!BASE64_DIGEST.test(digest)) return undefined;
	const bytes = Buffer.from(digest, 'base64');
	return bytes.length === SHA256_BYTES ? bytes : undefined;
}

/** HMAC-SHA256 of the bytes the caller signed: the raw body, or `${timestamp}.${rawBody}`. */
export function expectedSignature(secret: string, rawBody: Buffer, timestamp?: string): Buffer {
	const hmac = createHmac('sha256', secret);
	if (timestamp !== undefined) hmac.update(`${timestamp}.`, 'utf8');
	return hmac.update(rawBody).digest();
}

function checkHeaderSecret(
	check: Extract<CallerCheck, { mode: 'headerSecret' }>,
	headers: RequestHeaders,
): CallerVerdict {
	const sent = readHeader(headers, check.headerName);
	if (!('value' in sent)) return refusal('secret', sent);
	// Hashing first gives both sides the same length, which timingSafeEqual requires.
	return timingSafeEqual(sha256(sent.value), sha256(check.secret))
		? { ok: true }
		: { ok: false, status: 401, reason: 'secret does not match' };
}

function checkSignature(
	check: Extract<CallerCheck, { mode: 'hmac' }>,
	headers: RequestHeaders,
	rawBody: Buffer,
	nowSeconds: number,
): CallerVerdict {
	const sent = readHeader(headers, check.headerName);
	if (!('value' in sent)) return refusal('signature', sent);
	const claimed = decodeSignature(sent.value, check.encoding);
	if (claimed === undefined) {
		const reason = `signature is not a ${check.encoding} SHA-256 digest`;
		return { ok: false, status: 401, reason };
	}

	let timestamp: string | undefined;
	if (check.timestamp) {
		const sentTimestamp = readHeader(headers, check.timestamp.headerName);
		if (!('value' in sentTimestamp)) return refusal('timestamp', sentTimestamp);
		timestamp = sentTimestamp.value;
		if (!UNIX_SECONDS.test(timestamp)) {
			return { ok: false, status: 401, reason: 'timestamp is not in unix seconds' };
		}
	}

	if (!timingSafeEqual(claimed, expectedSignature(check.secret, rawBody, timestamp))) {
		return { ok: false, status: 401, reason: 'signature does not match' };
	}

	// Checked only after the signature, so an unsigned request learns nothing about the clock.
	if (check.timestamp && timestamp !== undefined) {
		const age = Math.abs(nowSeconds - Number(timestamp));
		if (age > check.timestamp.toleranceSeconds) {
			return { ok: false, status: 403, reason: 'timestamp outside the tolerance window' };
		}
		return { ok: true, signedCall: { signature: claimed, timestamp: Number(timestamp) } };
	}
	return { ok: true };
}

/**
 * Decides whether the caller proved itself. `rawBody` must be the bytes as received: a signature
 * covers bytes, and re-serialising a parsed body changes them (spacing, key order, escapes).
 */
export function verifyCaller(
	check: CallerCheck,
	headers: RequestHeaders,
	rawBody: Buffer,
	nowSeconds: number,
): CallerVerdict {
	if (check.mode === 'none') return { ok: true };
	// An empty secret would make any caller that sends an empty header "authentic". The settings
	// never hand one over; this keeps verifyCaller safe on its own.
	if (check.secret === '') return { ok: false, status: 401, reason: 'no secret is configured' };
	if (check.mode === 'headerSecret') return checkHeaderSecret(check, headers);
	return checkSignature(check, headers, rawBody, nowSeconds);
}
