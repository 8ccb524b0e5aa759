import fc from 'fast-check';

import { parseServiceBody } from '../../../nodes/shared/transport/answerBody';
import {
	answerWithoutSecret,
	keyForms,
	withoutSecret,
} from '../../../nodes/shared/transport/secrets';

/*
 * The key is cut from every answer before anything reads it. The transport reads most answers
 * through a quick path (no second look at JSON text that has no escapes and no form of the key);
 * these properties hold it to the full look, over answers written every way JSON allows.
 */

const HIDDEN = '[API key hidden]';

/** Keys as users paste them, and odd ones: digits only, JSON punctuation, escapes, unicode. */
const keys = fc.oneof(
	fc.string({ minLength: 4, maxLength: 12 }),
	fc.stringMatching(/^[0-9]{4,8}$/),
	fc.stringMatching(/^[-:,{}[\]"0-9e.+ ]{4,8}$/),
	fc.stringMatching(/^(Bearer )?[A-Za-z0-9_-]{4,16}\n?$/),
	fc.fullUnicodeString({ minLength: 4, maxLength: 8 }),
);

/** JSON values whose strings and names hold the key, parts of it, or nothing of it. */
function valuesAbout(key: string) {
	const text = fc.oneof(
		fc.string(),
		fc.fullUnicodeString({ maxLength: 6 }),
		fc.constant(key),
		fc.tuple(fc.string({ maxLength: 4 }), fc.string({ maxLength: 4 })).map(([a, b]) => a + key + b),
		fc.constant(key.slice(1)),
	);
	const keyAsNumber = Number(key);
	const numbers = fc.oneof(
		fc.integer(),
		fc.double({ noNaN: true, noDefaultInfinity: true }),
		fc.constant(Number.isFinite(keyAsNumber) ? keyAsNumber : 1000),
	);
	return fc.letrec((tie) => ({
		value: fc.oneof(
			{ depthSize: 'small' },
			text,
			numbers,
			fc.boolean(),
			fc.constant(null),
			fc.array(tie('value'), { maxLength: 4 }),
			fc.dictionary(text, tie('value'), { maxKeys: 4 }),
		),
	})).value;
}

/** JSON text of a value, written as a service might: spaced or not, escaped or not, 1e3 for 1000. */
function writeJson(
	value: unknown,
	way: { escape: boolean; exponent: boolean; space: string },
): string {
	const string = (text: string) =>
		way.escape
			? `"${[...text].map((char) => (char.length === 1 ? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}` : JSON.stringify(char).slice(1, -1))).join('')}"`
			: JSON.stringify(text);
	if (typeof value === 'string') return string(value);
	if (typeof value === 'number') {
		if (way.exponent && Number.isInteger(value) && value !== 0 && value % 1000 === 0)
			return `${value / 1000}e3`;
		return JSON.stringify(value);
	}
	if (Array.isArray(value))
		return `[${way.space}${value.map((entry) => writeJson(entry, way)).join(`,${way.space}`)}]`;
	if (value !== null && typeof value === 'object')
		return `{${Object.entries(value)
			.map(([name, entry]) => `${string(name)}:${way.space}${writeJson(entry, way)}`)
			.join(`,${way.space}`)}}`;
	return JSON.stringify(value);
}

const ways = fc.record({
	escape: fc.boolean(),
	exponent: fc.boolean(),
	space: fc.constantFrom('', ' ', '\n  '),
});

const answers = keys.chain((key) =>
	fc.tuple(
		fc.constant(key),
		fc.oneof(
			fc.tuple(valuesAbout(key), ways).map(([value, way]) => writeJson(value, way)),
			// Not JSON at all: an HTML page or a proxy's words that echo the request.
			fc.tuple(fc.string(), fc.string()).map(([a, b]) => `<p>${a}${key}${b}</p>`),
			fc.string(),
		),
	),
);

/** Every string in a value, names included, and every number's text. */
function textsIn(value: unknown): string[] {
	if (typeof value === 'string') return [value];
	if (typeof value === 'number') return [String(value)];
	if (Array.isArray(value)) return value.flatMap(textsIn);
	if (value !== null && typeof value === 'object')
		return Object.entries(value).flatMap(([name, entry]) => [name, ...textsIn(entry)]);
	return [];
}

describe('the key cut from answers', () => {
	it('reads every answer as the full look does: the quick path changes nothing', () => {
		fc.assert(
			fc.property(answers, ([key, raw]) => {
				const full = parseServiceBody(raw);
				expect(answerWithoutSecret(raw, keyForms(key))).toEqual({
					body: withoutSecret(full.body, key),
					bodyIsJson: full.bodyIsJson,
				});
			}),
			{ numRuns: 1000 },
		);
	});

	it('leaves no form of the key in any string, name or number of an answer', () => {
		fc.assert(
			fc.property(answers, ([key, raw]) => {
				const forms = keyForms(key).plain.filter((form) => !HIDDEN.includes(form));
				const { body } = answerWithoutSecret(raw, keyForms(key));
				for (const text of textsIn(body))
					for (const form of forms) expect(text.replaceAll(HIDDEN, '')).not.toContain(form);
			}),
			{ numRuns: 1000 },
		);
	});

	it('never breaks an answer when the key is spelt like JSON punctuation or a number', () => {
		// Cutting inside JSON text cut '1,2,' out of {"a":[1,2,3]}, then failed to read the rest: the
		// transport took the SyntaxError for a broken connection and called a sent message "may have
		// been sent". The same for a number that spells the key.
		expect(answerWithoutSecret('{"a":[1,2,3]}', keyForms('1,2,'))).toEqual({
			body: { a: [1, 2, 3] },
			bodyIsJson: true,
		});
		expect(withoutSecret({ a: [1, 2, 3] }, '1,2,')).toEqual({ a: [1, 2, 3] });
		expect(withoutSecret({ count: 1000 }, '1000')).toEqual({ count: HIDDEN });
		// A key of digits that the answer writes as 1e3 is still not shown.
		expect(answerWithoutSecret('{"count":1e3}', keyForms('1000')).body).toEqual({
			count: HIDDEN,
		});
	});

	it('keeps a name "__proto__" a name of the answer when the key is cut beside it', () => {
		const body = answerWithoutSecret('{"__proto__":{"x":"k3y-SECRET"}}', keyForms('k3y-SECRET'))
			.body as Record<string, unknown>;
		expect(Object.getPrototypeOf(body)).toBe(Object.prototype);
		expect(Object.getOwnPropertyDescriptor(body, '__proto__')?.value).toEqual({ x: HIDDEN });
	});
});
