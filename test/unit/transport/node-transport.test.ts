import type { INode } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { answerFields } from '../../../nodes/ChatMessaging/actions/run/serviceAnswers';
import {
	type ServiceFailure,
	describeNetworkFailure,
	describeRedirect,
	describeStatusFailure,
	networkErrorCode,
	parseServiceBody,
	retryAfterMs,
	serviceMessage,
	toNodeApiError,
} from '../../../nodes/shared/transport';
import {
	describeCancelled,
	describeDeadline,
} from '../../../nodes/shared/transport/unansweredFailures';
import { withoutSecret } from '../../../nodes/shared/transport/secrets';

const NOW = Date.parse('2025-06-01T12:00:00Z');

describe('retryAfterMs', () => {
	it.each([
		['0', 0],
		['1', 1000],
		['120', 120_000],
		[' 7 ', 7000],
		['1.5', 1500],
		['0.0004', 1],
		[new Date(NOW + 30_000).toUTCString(), 30_000],
		['Sun, 01 Jun 2025 12:01:00 GMT', 60_000],
		['Wed, 21 Oct 2015 07:28:00 GMT', 0],
		[new Date(NOW).toUTCString(), 0],
	])('reads %j as %d ms', (header, expected) => {
		expect(retryAfterMs(header, NOW)).toBe(expected);
	});

	it.each([
		[undefined],
		[''],
		['   '],
		['soon'],
		['1e3'],
		['five seconds'],
		// Date.parse reads these as (past) dates; they are not HTTP dates, so no zero wait results.
		['-1'],
		['abc 2'],
		['+5'],
		['5,5'],
		['9'.repeat(400)],
	])('gives undefined for %j', (header) => {
		expect(retryAfterMs(header, NOW)).toBeUndefined();
	});

	it('measures an HTTP date from the current clock when none is given', () => {
		const later = new Date(Date.now() + 3_600_000).toUTCString();
		const wait = retryAfterMs(later)!;
		expect(wait).toBeGreaterThan(3_500_000);
		expect(wait).toBeLessThanOrEqual(3_600_000);
	});
});

describe('networkErrorCode', () => {
	it("looks past the HTTP client's ERR_* wrapper to the socket code that decides retrying", () => {
		const error = Object.assign(new Error('wrap'), {
			code: 'ERR_BAD_REQUEST',
			cause: { code: 'ECONNREFUSED' },
		});
		expect(networkErrorCode(error)).toBe('ECONNREFUSED');
		expect(networkErrorCode(Object.assign(new Error('only'), { code: 'ERR_CANCELED' }))).toBe(
			'ERR_CANCELED',
		);
	});

	it.each([
		[
			'a code on the error itself',
			Object.assign(new Error('x'), { code: 'ECONNREFUSED' }),
			'ECONNREFUSED',
		],
		[
			'a code one cause down',
			Object.assign(new Error('wrap'), { cause: { code: 'ENOTFOUND' } }),
			'ENOTFOUND',
		],
		[
			'a code three causes down',
			{
				message: 'n8n',
				cause: { message: 'axios', cause: { message: 'socket', cause: { code: 'ECONNRESET' } } },
			},
			'ECONNRESET',
		],
		[
			'the outermost E-code first',
			{ code: 'ETIMEDOUT', cause: { code: 'ECONNRESET' } },
			'ETIMEDOUT',
		],
		[
			'a non-E code skipped for a deeper one',
			{ code: 'UND_ERR_SOCKET', cause: { code: 'ECONNRESET' } },
			'ECONNRESET',
		],
		['a numeric code skipped', { code: 500, cause: { code: 'EAI_AGAIN' } }, 'EAI_AGAIN'],
		['a lower-case code skipped', { code: 'econnreset', cause: { code: 'EPIPE' } }, 'EPIPE'],
	])('finds %s', (_case, error, expected) => {
		expect(networkErrorCode(error)).toBe(expected);
	});

	it.each([
		['no error', undefined],
		['null', null],
		['an error without code', new Error('boom')],
		['only non-E codes', { code: 'UND_ERR_CONNECT_TIMEOUT', cause: { code: 404 } }],
		['a string', 'ECONNREFUSED'],
		[
			'a code too deep to matter',
			{ cause: { cause: { cause: { cause: { cause: { code: 'ECONNREFUSED' } } } } } },
		],
	])('gives undefined for %s', (_case, error) => {
		expect(networkErrorCode(error)).toBeUndefined();
	});

	it('stops on a cause cycle', () => {
		const a: Record<string, unknown> = { message: 'a' };
		a.cause = { message: 'b', cause: a };
		expect(networkErrorCode(a)).toBeUndefined();
	});
});

describe('parseServiceBody', () => {
	it.each([
		[
			'{"status":"queued","event_id":"ev_1"}',
			{ body: { status: 'queued', event_id: 'ev_1' }, bodyIsJson: true },
		],
		['{}', { body: {}, bodyIsJson: true }],
		['[1,2]', { body: [1, 2], bodyIsJson: true }],
		['"text"', { body: 'text', bodyIsJson: true }],
		['null', { body: null, bodyIsJson: true }],
		['Created', { body: 'Created', bodyIsJson: false }],
		['<html>502 Bad Gateway</html>', { body: '<html>502 Bad Gateway</html>', bodyIsJson: false }],
		['{"broken": ', { body: '{"broken": ', bodyIsJson: false }],
		['', { body: null, bodyIsJson: false }],
		['  \n', { body: null, bodyIsJson: false }],
	])('reads the text %j', (raw, expected) => {
		expect(parseServiceBody(raw)).toEqual(expected);
	});

	it.each([
		[{ a: 1 }, { body: { a: 1 }, bodyIsJson: true }],
		[[1], { body: [1], bodyIsJson: true }],
		[undefined, { body: null, bodyIsJson: false }],
		[null, { body: null, bodyIsJson: false }],
	])('passes already parsed %j through', (raw, expected) => {
		expect(parseServiceBody(raw)).toEqual(expected);
	});
});

describe('serviceMessage', () => {
	it.each([
		['a message', { message: 'Template not approved' }, 'Template not approved'],
		[
			'the first of message, error, detail, title',
			{ error: 'Bad', detail: 'Worse', title: 'T' },
			'Bad',
		],
		['title alone', { title: 'Unprocessable' }, 'Unprocessable'],
		['an empty message skipped', { message: '', error: 'Bad' }, 'Bad'],
		[
			'a field → messages map',
			{
				message: 'Parameter error',
				errors: { 'contact.phone_number': ['is invalid', 'is too short'], name: 'blank' },
			},
			'Parameter error — contact.phone_number: is invalid; is too short | name: blank',
		],
		['a map under "fields"', { fields: { email: ['is invalid'] } }, 'email: is invalid'],
		['an errors list', { errors: ['one', { field: 'two' }] }, 'one | {"field":"two"}'],
		[
			'a code suffix',
			{ message: 'Unauthorized', code: 'invalid_key' },
			'Unauthorized (invalid_key)',
		],
		['a code on the map', { errors: { a: ['b'] }, code: 'E42' }, 'a: b (E42)'],
		['plain text, trimmed', '  Service Unavailable \n', 'Service Unavailable'],
	])('reads %s', (_case, body, expected) => {
		expect(serviceMessage(body)).toBe(expected);
	});

	it('cuts long text to 300 characters', () => {
		expect(serviceMessage('x'.repeat(1000))).toHaveLength(300);
	});

	it.each([
		['nothing', undefined],
		['null', null],
		['empty text', '   '],
		['a number', 42],
		['an empty object', {}],
		['a code alone', { code: 'E1' }],
		['a non-string message', { message: { nested: true } }],
		['an empty errors map', { errors: {} }],
	])('gives undefined for %s', (_case, body) => {
		expect(serviceMessage(body)).toBeUndefined();
	});

	it('never repeats body fields it does not know, such as a key echoed back', () => {
		const said = serviceMessage({
			message: 'Unauthorized',
			api_key: 'sk_live_SECRET',
			apiKey: 'sk_live_SECRET',
		});
		expect(said).toBe('Unauthorized');
	});
});

describe('describeStatusFailure', () => {
	const path = '/api/v1/events';
	it.each([
		[401, false, 'not sent', 'rejected the API key (401)'],
		[403, false, 'not sent', 'rejected the API key (403)'],
		[404, false, 'not sent', '404 Not Found for /api/v1/events'],
		[422, false, 'not sent', '422 Parameter Error'],
		[400, false, 'not sent', '400 Parameter Error'],
		[429, true, 'not sent', 'rate limiting requests (429)'],
		[503, true, 'not sent', 'rate limiting requests (503)'],
		[503, false, 'may have been sent', 'failed while handling the request (503)'],
		[500, false, 'may have been sent', 'failed while handling the request (500)'],
		[502, false, 'may have been sent', 'failed while handling the request (502)'],
		[504, false, 'may have been sent', 'failed while handling the request (504)'],
		[409, false, 'not sent', 'answered 409'],
	])('%d (throttled: %s) is "%s"', (status, throttled, outcome, words) => {
		const failure = describeStatusFailure(status, { message: 'said so' }, path, 2, throttled);
		expect(failure.outcome).toBe(outcome);
		expect(failure.message).toContain(words);
		expect(failure.message).toContain(': said so');
		expect(failure.statusCode).toBe(status);
		expect(failure.serviceBody).toEqual({ message: 'said so' });
		expect(failure.retries).toBe(2);
		expect(failure.description).toMatch(
			outcome === 'not sent' ? /nothing was sent/i : /may have been sent/i,
		);
	});

	it('treats 429 as throttled by default, and 503 only when told', () => {
		expect(describeStatusFailure(429, null, path, 0).outcome).toBe('not sent');
		expect(describeStatusFailure(503, null, path, 0).outcome).toBe('may have been sent');
	});

	it('says so when a 422 carries no details', () => {
		expect(describeStatusFailure(422, null, path, 0).message).toBe(
			'The service refused the request (422 Parameter Error) with no details',
		);
	});

	it('tells how often it retried a throttled request', () => {
		expect(describeStatusFailure(429, null, path, 3).description).toContain('retried 3 time(s)');
	});

	it.each([[401], [403], [404], [422], [429], [500], [503]])(
		'never puts an API key from the answer into the %d message or description',
		(status) => {
			const secret = 'sk_live_DO_NOT_LEAK_123';
			const body = {
				message: 'No',
				api_key: secret,
				apiKey: secret,
				authorization: `Bearer ${secret}`,
				headers: { Authorization: secret },
			};
			const failure = describeStatusFailure(status, body, path, 0);
			expect(failure.message).not.toContain(secret);
			expect(failure.description).not.toContain(secret);
		},
	);
});

describe('describeNetworkFailure', () => {
	it.each([
		['ECONNREFUSED', 'not sent', 'Could not reach the service: connection refused'],
		['ENOTFOUND', 'not sent', 'Could not reach the service: host name not found'],
		['EAI_AGAIN', 'not sent', 'Could not reach the service: host name lookup failed'],
		['EHOSTUNREACH', 'not sent', 'Could not reach the service: host unreachable'],
		['ECONNABORTED', 'may have been sent', 'The service did not answer within 15 s'],
		['ETIMEDOUT', 'may have been sent', 'The service did not answer within 15 s'],
		['ESOCKETTIMEDOUT', 'may have been sent', 'The service did not answer within 15 s'],
		[
			'ECONNRESET',
			'may have been sent',
			'The connection to the service broke before it answered: connection reset',
		],
		[
			'EPROTO',
			'may have been sent',
			'The connection to the service broke before it answered: connection error',
		],
	])('%s is "%s"', (code, outcome, message) => {
		const failure = describeNetworkFailure(code, 1, 15_000);
		expect(failure.outcome).toBe(outcome);
		expect(failure.message).toBe(message);
		expect(failure.retries).toBe(1);
		expect(failure.statusCode).toBeUndefined();
		// The code is for whoever debugs it, in the description: n8n rewrites messages that hold one.
		expect(failure.description).toContain(`(network error code ${code})`);
		expect(failure.description).toMatch(
			outcome === 'not sent'
				? /^Nothing was sent \(tried 2 time\(s\)\)/
				: /^The message may have been sent/,
		);
	});

	it('treats a failure without any code as "may have been sent"', () => {
		const failure = describeNetworkFailure(undefined, 0, 30_000);
		expect(failure.outcome).toBe('may have been sent');
		expect(failure.message).toBe(
			'The connection to the service broke before it answered: connection error',
		);
		expect(failure.description).not.toContain('network error code');
	});
});

describe('toNodeApiError', () => {
	const node: INode = {
		id: 'node-1',
		name: 'Chat Messaging',
		type: 'n8n-nodes-chat-messaging.chatMessaging',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};

	it('keeps the item, outcome, HTTP code and description of a refused request', () => {
		const failure = describeStatusFailure(422, { message: 'phone invalid' }, '/api/v1/events', 0);
		const error = toNodeApiError(node, failure, 4);
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toBe(
			'The service refused the request (422 Parameter Error): phone invalid [item 4] — not sent',
		);
		expect(error.httpCode).toBe('422');
		expect(error.description).toBe(failure.description);
		expect(error.context.itemIndex).toBe(4);
	});

	it.each([[401], [429], [500], [503]])('says "[item N]" and the outcome for %d', (status) => {
		const failure = describeStatusFailure(status, null, '/api/v1/events', 1);
		const error = toNodeApiError(node, failure, 7);
		expect(error.message).toContain('[item 7]');
		expect(error.message).toContain(`— ${failure.outcome}`);
		expect(error.httpCode).toBe(String(status));
	});

	it('leaves out the item when there is none', () => {
		const error = toNodeApiError(node, describeStatusFailure(500, null, '/subscribers', 0));
		expect(error.message).toBe(
			'The service failed while handling the request (500) — may have been sent',
		);
		expect(error.context.itemIndex).toBeUndefined();
	});

	it.each([['ETIMEDOUT'], ['ECONNABORTED'], [undefined]])(
		'says "[item N]" and the outcome for a network failure (%s)',
		(code) => {
			const failure = describeNetworkFailure(code, 0, 30_000);
			const error = toNodeApiError(node, failure, 2);
			expect(error.message).toBe(`${failure.message} [item 2] — may have been sent`);
			expect(error.description).toBe(failure.description);
			expect(error.httpCode ?? undefined).toBeUndefined();
		},
	);

	// n8n's NodeApiError swaps any message holding a Node.js error code for its generic text, which
	// would drop the item and the outcome (and, for ECONNRESET, invite a retry).
	it.each([
		['ECONNREFUSED', 'not sent'],
		['ENOTFOUND', 'not sent'],
		['EAI_AGAIN', 'not sent'],
		['ECONNRESET', 'may have been sent'],
	])('says "[item N]" and the outcome for a network failure (%s)', (code, outcome) => {
		const failure = describeNetworkFailure(code, 0, 30_000);
		const error = toNodeApiError(node, failure, 2);
		expect(error.message).toBe(`${failure.message} [item 2] — ${outcome}`);
		expect(error.description).toBe(failure.description);
	});

	// The same rewrite would hit the service's own words: a proxy saying "upstream ECONNREFUSED".
	it.each([['upstream connect error: ECONNREFUSED'], ['ETIMEDOUT talking to the database']])(
		'keeps "[item N]" and the outcome when the service says %j',
		(said) => {
			const failure = describeStatusFailure(502, { message: said }, '/api/v1/events', 0);
			const error = toNodeApiError(node, failure, 5);
			expect(error.message).toBe(`${failure.message} [item 5] — may have been sent`);
		},
	);

	it('keeps the service answer for the error details but never the request', () => {
		const failure: ServiceFailure = {
			outcome: 'not sent',
			message: 'The service answered 418',
			description: 'd',
			statusCode: 418,
			serviceBody: { message: 'teapot' },
			retries: 0,
		};
		const error = toNodeApiError(node, failure, 0);
		expect(JSON.stringify(error.errorResponse)).toContain('teapot');
		expect(JSON.stringify(error.errorResponse)).not.toMatch(/authorization|headers/i);
	});
});

describe('answerFields', () => {
	const answer = (body: unknown, bodyIsJson: boolean) => ({
		statusCode: 201,
		body,
		bodyIsJson,
		headers: {},
		retries: 0,
	});

	it.each([
		['a JSON object, as it is', answer({ id: 'ct_1' }, true), { id: 'ct_1' }],
		[
			'a JSON list, kept under rawResponse rather than dropped',
			answer([{ id: 'ct_1' }], true),
			{ rawResponse: [{ id: 'ct_1' }] },
		],
		['plain text under rawResponse', answer('queued ok', false), { rawResponse: 'queued ok' }],
		['an empty body as nothing', answer(null, false), {}],
	])('gives %s', (_case, given, expected) => {
		expect(answerFields(given)).toEqual(expected);
	});
});

describe('describeRedirect', () => {
	it.each([301, 307, 308])(
		'%i: not sent, names the Location, says to correct the Base URL',
		(status) => {
			const failure = describeRedirect(status, 'https://api.example.com/api/v1/events', 0);
			expect(failure).toMatchObject({ outcome: 'not sent', statusCode: status, retries: 0 });
			expect(failure.message).toBe(
				`The Base URL answered with a redirect (${status}) to https://api.example.com/api/v1/events, which is not followed`,
			);
			expect(failure.description).toMatch(/did not process the request/);
			expect(failure.description).toMatch(/Correct the Base URL/);
		},
	);

	it.each([302, 303])(
		'%i may point at the result of a request the server handled (web frameworks answer a handled POST so): may have been sent',
		(status) => {
			const failure = describeRedirect(status, '/result/1', 0);
			expect(failure.outcome).toBe('may have been sent');
			expect(failure.description).toMatch(/Correct the Base URL/);
		},
	);

	it('a missing or very long Location', () => {
		expect(describeRedirect(302, undefined, 0).message).toContain('without a Location');
		const long = `https://x.example/${'a'.repeat(500)}`;
		expect(describeRedirect(302, long, 0).message.length).toBeLessThan(300);
	});
});

describe('deadline and cancellation', () => {
	it('a deadline: may have been sent, with the Timeout in seconds', () => {
		expect(describeDeadline(0, 2_000)).toMatchObject({
			outcome: 'may have been sent',
			message: 'The service did not answer within 2 s',
		});
	});

	it('cancelled while answering may have been sent; cancelled before sending was not sent', () => {
		expect(describeCancelled(0, true).outcome).toBe('may have been sent');
		expect(describeCancelled(1, false)).toMatchObject({ outcome: 'not sent', retries: 1 });
	});
});

describe('withoutSecret', () => {
	const key = 'k3y-SECRET-abcd';

	it('cuts the key out of text and out of a service body, wherever it is', () => {
		expect(withoutSecret(`Location: https://x.example/?key=${key}`, key)).toBe(
			'Location: https://x.example/?key=[API key hidden]',
		);
		const failure: ServiceFailure = {
			outcome: 'not sent',
			retries: 0,
			message: `echo ${key}`,
			description: 'd',
			serviceBody: { headers: { authorization: key } },
		};
		expect(JSON.stringify(withoutSecret(failure, key))).not.toContain(key);
	});

	it('cuts the key in every form it is sent in: stored as "Bearer <key>" or with a newline', () => {
		for (const stored of [`Bearer ${key}`, `${key}\n`, `  ${key}  `]) {
			expect(withoutSecret(`echoed: ${key}`, stored)).toBe('echoed: [API key hidden]');
			expect(JSON.stringify(withoutSecret({ nested: [{ auth: key }] }, stored))).not.toContain(key);
		}
		expect(withoutSecret(`echoed: Bearer ${key}`, `Bearer ${key}`)).toBe(
			'echoed: [API key hidden]',
		);
	});

	it('cuts a key with characters JSON escapes out of an object, and the object stays valid', () => {
		const odd = 'k"e\\y-SECRET';
		const cut = withoutSecret({ echo: `x${odd}y`, [odd]: 1 }, odd);
		expect(JSON.stringify(cut)).not.toContain(JSON.stringify(odd).slice(1, -1));
		expect(cut).toEqual({ echo: 'x[API key hidden]y', '[API key hidden]': 1 });
	});

	it('leaves everything alone when there is no usable key', () => {
		const failure = { outcome: 'not sent' as const, retries: 0, message: 'm', description: 'd' };
		expect(withoutSecret(failure, undefined)).toBe(failure);
		expect(withoutSecret('abc', 'ab')).toBe('abc');
	});
});
