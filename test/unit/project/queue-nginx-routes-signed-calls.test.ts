import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { NGINX_SCALED_CONF } from '../../../scripts/queue/balancer';
import {
	expectedSignature,
	verifyCaller,
	type SignatureEncoding,
} from '../../../nodes/ChatMessagingTrigger/verify';
import {
	locationFor,
	mapsOf,
	serversOf,
	upstreamsOf,
	valueOf,
	withoutComments,
} from '../../helpers/nginxConfig';

/*
 * nginx in front of the webhook processors must send every copy of one signed, timestamped trigger
 * call to the same processor, whose own memory refuses the copies at once (docs/queue-mode.md): the
 * database's record reaches another processor only after the first call's run is written. So what
 * it hashes on must be the same for every way the trigger accepts of writing one call. The
 * signature header is not (hex in either case, a sha256= prefix, base64 padded or not, URL-safe);
 * the timestamp is, once the spaces the trigger trims are left out. And a header a caller can set
 * must not pin forms and resume links onto one processor, nor may a page reaching the port under a
 * name of its own (DNS rebinding) be served. Checked on the file that runs and on the docs' example.
 */

const conf = readFileSync(NGINX_SCALED_CONF, 'utf8');
const docs = readFileSync(join(__dirname, '..', '..', '..', 'docs', 'queue-mode.md'), 'utf8');

const SECRET = 'trigger-secret-0f3c';
const NOW = 1_800_000_000;

/** Ways of writing one digest that the trigger takes as the same signature, per its encoding. */
function spellings(digest: Buffer, encoding: SignatureEncoding): string[] {
	if (encoding === 'hex') {
		const hex = digest.toString('hex');
		return [hex, hex.toUpperCase(), `sha256=${hex}`, `SHA256=${hex.toUpperCase()}`];
	}
	const base64 = digest.toString('base64');
	const urlSafe = base64.replace(/\+/g, '-').replace(/\//g, '_');
	return [
		base64,
		base64.replace(/=+$/, ''),
		urlSafe,
		urlSafe.replace(/=+$/, ''),
		`sha256=${base64}`,
	];
}

/** Around a header value: what the trigger trims away and nginx passes on. */
const padding = fc
	.array(fc.constantFrom(' ', '\t', '\u00a0'), { maxLength: 3 })
	.map((characters) => characters.join(''));

/** One signed call written two ways the trigger accepts, as the headers nginx sees. */
const oneCallTwoWays = fc
	.record({
		timestamp: fc.integer({ min: NOW - 250, max: NOW + 250 }),
		body: fc.json(),
		encoding: fc.constantFrom<SignatureEncoding>('hex', 'base64'),
		ways: fc.tuple(fc.nat(), fc.nat(), padding, padding, padding, padding),
	})
	.map(({ timestamp, body, encoding, ways: [a, b, before1, after1, before2, after2] }) => {
		const digest = expectedSignature(SECRET, Buffer.from(body), String(timestamp));
		const written = spellings(digest, encoding);
		const headers = (spelling: number, before: string, after: string) => ({
			'x-signature-256': written[spelling % written.length],
			'x-signature-timestamp': `${before}${timestamp}${after}`,
		});
		return {
			body,
			encoding,
			first: headers(a, before1, after1),
			second: headers(b, before2, after2),
		};
	});

const hashedKeys = (text: string) =>
	[...withoutComments(text).matchAll(/\bhash\s+(\$\w+)/g)].map((match) => match[1]);

describe.each([
	['scripts/queue/nginx-scaled.conf', conf],
	['docs/queue-mode.md', docs],
])('%s', (_file, text) => {
	it('hashes signed calls, on a key every accepted writing of one call shares', () => {
		const keys = hashedKeys(text);
		expect(keys.length).toBeGreaterThan(0);
		const maps = mapsOf(text);
		fc.assert(
			fc.property(oneCallTwoWays, ({ body, encoding, first, second }) => {
				const check = {
					mode: 'hmac' as const,
					headerName: 'X-Signature-256',
					secret: SECRET,
					encoding,
					timestamp: { headerName: 'X-Signature-Timestamp', toleranceSeconds: 300 },
				};
				// Both are the same call to the trigger: accepted, and remembered as one.
				const verdicts = [first, second].map((headers) =>
					verifyCaller(check, headers, Buffer.from(body), NOW),
				);
				expect(verdicts.map((verdict) => verdict.ok)).toEqual([true, true]);
				const [one, two] = verdicts.map((v) => (v.ok ? v.signedCall : undefined));
				expect(one?.signature.equals(two!.signature)).toBe(true);
				for (const key of keys) {
					const routed = valueOf(key, first, maps);
					expect(routed).not.toBe('');
					expect(valueOf(key, second, maps)).toBe(routed);
				}
			}),
			{ numRuns: 300 },
		);
	});
});

describe('scripts/queue/nginx-scaled.conf', () => {
	const upstreams = upstreamsOf(conf);
	const servers = serversOf(conf);
	const served = servers.filter((server) => server.locations.length > 0);

	it('hashes production webhooks only: forms, resume links and MCP go round-robin whatever a caller sends', () => {
		expect(served).toHaveLength(1);
		const [server] = served;
		const upstreamOf = (path: string) => locationFor(server, path)?.upstream;
		expect(upstreams.get(upstreamOf('/webhook/abc/webhook')!)).toBeDefined();
		for (const path of ['/form/sign-up', '/webhook-waiting/17', '/form-waiting/17', '/mcp/tools']) {
			const upstream = upstreamOf(path);
			expect({ path, upstream: upstream && upstreams.has(upstream) }).toEqual({
				path,
				upstream: true,
			});
			expect({ path, hashedOn: upstreams.get(upstream!) }).toEqual({ path, hashedOn: undefined });
		}
	});

	it('refuses a call naming another host on every port it listens on', () => {
		const ports = new Set(servers.flatMap((server) => server.listens.map((l) => l.split(' ')[0])));
		for (const port of ports) {
			const onPort = servers.filter((server) => server.listens.some((l) => l.startsWith(port)));
			const fallback = onPort.filter((server) =>
				server.listens.some((l) => l === `${port} default_server`),
			);
			expect(fallback).toHaveLength(1);
			expect(fallback[0].returns).toMatch(/^(444|421|403)\b/);
			expect(fallback[0].locations).toEqual([]);
			for (const server of onPort.filter((s) => s !== fallback[0])) {
				expect(server.serverNames).not.toContain('_');
				expect(server.serverNames).toEqual(expect.arrayContaining(['localhost', '127.0.0.1']));
			}
		}
	});
});
