import fc from 'fast-check';

import {
	MAX_NESTING_DEPTH,
	nestingDepthExceeds,
	readJsonBody,
} from '../../../nodes/ChatMessagingTrigger/body';

/*
 * The body rules of issue 9 points 14 and 15, without a server: what the trigger accepts as a
 * webhook body and what it refuses, with which status.
 */

const utf8 = (text: string) => Buffer.from(text, 'utf8');

describe('nestingDepthExceeds', () => {
	const depthOf = (value: unknown): number =>
		typeof value === 'object' && value !== null
			? 1 + Math.max(0, ...Object.values(value).map(depthOf))
			: 0;

	it('is 64 by default, as documented', () => {
		expect(MAX_NESTING_DEPTH).toBe(64);
	});

	it('agrees with the real depth of any JSON value', () => {
		fc.assert(
			fc.property(
				fc.jsonValue({ maxDepth: 12 }),
				fc.integer({ min: 0, max: 14 }),
				(value, limit) => {
					const text = JSON.stringify(value);
					expect(nestingDepthExceeds(text, limit)).toBe(depthOf(value) > limit);
				},
			),
		);
	});

	it('ignores brackets inside strings, escaped quotes included', () => {
		expect(nestingDepthExceeds(JSON.stringify({ a: '[[[[{{{{' }), 1)).toBe(false);
		expect(nestingDepthExceeds(JSON.stringify({ a: '\\"[[[' }), 1)).toBe(false);
		expect(nestingDepthExceeds(JSON.stringify({ a: '"', b: [[1]] }), 2)).toBe(true);
	});

	it('scans a million levels without recursion', () => {
		const deep = '['.repeat(1_000_000) + ']'.repeat(1_000_000);
		expect(nestingDepthExceeds(deep, MAX_NESTING_DEPTH)).toBe(true);
	});
});

describe('readJsonBody', () => {
	const body = '{"type":"order.completed","data":{}}';

	it('reads a JSON object', () => {
		expect(readJsonBody(utf8(body), 'application/json')).toEqual({
			ok: true,
			body: { type: 'order.completed', data: {} },
		});
	});

	it('drops a UTF-8 byte-order mark', () => {
		const withBom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), utf8(body)]);
		expect(readJsonBody(withBom, undefined)).toMatchObject({ ok: true });
	});

	it.each([
		['application/json; charset=utf-16', 'charset utf-16 is not accepted: send UTF-8'],
		['text/plain;charset="windows-1252"', 'charset windows-1252 is not accepted: send UTF-8'],
		['application/json; charset=', 'charset (empty) is not accepted: send UTF-8'],
	])('answers 415 to %s', (type, error) => {
		expect(readJsonBody(utf8(body), type)).toEqual({ ok: false, status: 415, error });
	});

	it('answers 415 to multipart', () => {
		expect(readJsonBody(utf8(body), 'Multipart/Form-Data; boundary=x')).toEqual({
			ok: false,
			status: 415,
			error: 'multipart bodies are not accepted: send JSON',
		});
	});

	it('reads the charset parameter among others, in any case', () => {
		expect(readJsonBody(utf8(body), 'application/json; foo=bar; CHARSET=Utf-8')).toMatchObject({
			ok: true,
		});
	});

	it('answers 400 to an empty body and to a body that is only a byte-order mark or spaces', () => {
		for (const raw of [Buffer.alloc(0), Buffer.from([0xef, 0xbb, 0xbf]), utf8(' \r\n\t')]) {
			expect(readJsonBody(raw, undefined)).toEqual({
				ok: false,
				status: 400,
				error: 'body is empty',
			});
		}
	});

	it('never throws, and answers only 400 or 415 when it refuses', () => {
		fc.assert(
			fc.property(
				fc.uint8Array({ maxLength: 200 }),
				fc.option(fc.string(), { nil: undefined }),
				(bytes, type) => {
					const verdict = readJsonBody(Buffer.from(bytes), type);
					if (!verdict.ok) expect([400, 415]).toContain(verdict.status);
				},
			),
		);
	});
});
