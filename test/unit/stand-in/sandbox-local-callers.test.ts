import fc from 'fast-check';

import { refusalOf, type LocalCallerRules } from '../../../sandbox/localCallers';

/*
 * The rule behind the stand-in's 403 for web pages (localCallers.ts), over all inputs: a Host that
 * does not name this machine and port, an Origin not its own or n8n's, and a control write that is
 * not JSON are each refused, whatever else the request carries.
 */

const rules: LocalCallerRules = { port: 5680, allowedOrigins: ['http://localhost:5678'] };
const OWN_HOSTS = ['localhost:5680', '127.0.0.1:5680', '[::1]:5680'];
const ownHost = fc.constantFrom(...OWN_HOSTS, 'LocalHost:5680');
const methods = fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE');
const writes = fc.constantFrom('POST', 'PUT', 'PATCH', 'DELETE');
const json = fc.constantFrom(
	'application/json',
	'application/json; charset=utf-8',
	'Application/JSON',
);

const check = (
	method: string,
	headers: Record<string, string | undefined>,
	isControl = true,
): string | undefined => refusalOf({ method, headers, isControl }, rules);

test('a Host that is not this machine with its port is refused, on every path and method', () => {
	const otherHost = fc
		.oneof(
			fc.domain(),
			fc.ipV4(),
			fc.domain().map((name) => `${name}:5680`),
			fc.constant('127.0.0.1:5681'),
		)
		.filter((host) => !OWN_HOSTS.includes(host.toLowerCase()));
	fc.assert(
		fc.property(otherHost, methods, fc.boolean(), (host, method, isControl) => {
			expect(check(method, { host, 'content-type': 'application/json' }, isControl)).toMatch(
				/Host header/,
			);
		}),
		{ numRuns: 200 },
	);
});

test('an Origin other than the stand-in’s own or n8n’s is refused, JSON or not', () => {
	const otherOrigin = fc.oneof(fc.webUrl(), fc.constant('null'), fc.string()).filter((origin) => {
		try {
			return !['http://localhost:5678', ...OWN_HOSTS.map((h) => `http://${h}`)].includes(
				new URL(origin).origin,
			);
		} catch {
			return true;
		}
	});
	fc.assert(
		fc.property(ownHost, otherOrigin, methods, (host, origin, method) => {
			expect(check(method, { host, origin, 'content-type': 'application/json' })).toMatch(/origin/);
		}),
		{ numRuns: 200 },
	);
});

test('a control write that is not JSON is refused; reads and the service API are not asked for JSON', () => {
	const notJson = fc.oneof(
		fc.constant(undefined),
		fc.constantFrom(
			'text/plain',
			'text/plain;charset=UTF-8',
			'application/x-www-form-urlencoded',
			'multipart/form-data; boundary=x',
			'text/json',
			'application/jsonp',
		),
	);
	fc.assert(
		fc.property(ownHost, writes, notJson, (host, method, contentType) => {
			expect(check(method, { host, 'content-type': contentType })).toMatch(/application\/json/);
			expect(check(method, { host, 'content-type': contentType }, false)).toBeUndefined();
			expect(check('GET', { host, 'content-type': contentType })).toBeUndefined();
		}),
		{ numRuns: 100 },
	);
});

test('this machine, its own or n8n’s origin (or none, as curl), and JSON: taken', () => {
	const origin = fc.constantFrom(
		undefined,
		'http://localhost:5678',
		'http://127.0.0.1:5680',
		'http://[::1]:5680',
		'http://LOCALHOST:5680',
	);
	fc.assert(
		fc.property(ownHost, origin, methods, json, (host, from, method, contentType) => {
			expect(check(method, { host, origin: from, 'content-type': contentType })).toBeUndefined();
		}),
		{ numRuns: 100 },
	);
});
