/*
 * The address a direct upload's bytes go to (nodes/shared/transport/serviceUrl.ts, uploadUrl): the
 * credential's own origin, or (issue 24: a presigned URL on object storage) another host over https
 * that is not inside the network n8n runs in; the query kept as given, since a signed URL's
 * signature covers it. The API key goes to neither (the transport sends the bytes without it).
 */
import fc from 'fast-check';

import {
	notAPublicName,
	privateHostReason,
	uploadHeadersProblem,
	uploadUrl,
} from '../../../nodes/shared/transport/serviceUrl';

const BASE = 'https://api.example-chat.com';

describe('uploadUrl', () => {
	test.each([
		['/uploads/abc', 'https://api.example-chat.com/uploads/abc'],
		[
			'https://api.example-chat.com/rails/active_storage/disk/xyz?content_type=image%2Fpng&sig=a%2Bb',
			'https://api.example-chat.com/rails/active_storage/disk/xyz?content_type=image%2Fpng&sig=a%2Bb',
		],
		['https://API.example-chat.com:443/u', 'https://api.example-chat.com/u'],
	])("%s on the credential's origin → %s", (given, expected) => {
		expect(uploadUrl(BASE, given)).toEqual({ url: expected });
	});

	test('a Base URL with a path prefix: a path answer is resolved against its origin', () => {
		expect(uploadUrl('https://host.example/chat', '/uploads/t')).toEqual({
			url: 'https://host.example/uploads/t',
		});
	});

	test.each([
		[
			'https://bucket.s3.amazonaws.com/key?X-Amz-Signature=1&X-Amz-Credential=a%2Fb',
			'https://bucket.s3.amazonaws.com/key?X-Amz-Signature=1&X-Amz-Credential=a%2Fb',
		],
		[
			'https://api.example-chat.com:8443/uploads/abc',
			'https://api.example-chat.com:8443/uploads/abc',
		],
		['//storage.example.com/uploads', 'https://storage.example.com/uploads'],
	])('a presigned https URL on another, public host is taken: %s', (given, expected) => {
		expect(uploadUrl(BASE, given)).toEqual({ url: expected });
	});

	test.each([
		[
			'http://bucket.s3.amazonaws.com/key?X-Amz-Signature=1',
			/is on another host \(http:\/\/bucket\.s3\.amazonaws\.com\) over plain http/,
		],
		[
			'http://api.example-chat.com/uploads/abc',
			/is on another host \(http:\/\/api\.example-chat\.com\) over plain http/,
		],
		['https://127.0.0.1/u', /\(https:\/\/127\.0\.0\.1\), this machine/],
		['https://localhost:9000/u', /a local name/],
		['https://10.1.2.3/u', /a private network address/],
		['https://192.168.0.10/u', /a private network address/],
		['https://172.20.0.5/u', /a private network address/],
		['https://169.254.169.254/latest/meta-data', /a link-local address/],
		['https://[::1]/u', /this machine/],
		['https://[fd00::5]/u', /a private network address/],
		['https://[::ffff:127.0.0.1]/u', /this machine/],
		['https://0x7f.1/u', /this machine/],
		['https://minio.internal/u', /a local name/],
		['https://user:pw@api.example-chat.com/u', /carries a user name or password/],
		['ftp://api.example-chat.com/u', /is not http\(s\)/],
		['', /is not a usable URL or path/],
		['/uploads/a b', /is not a usable URL or path/],
		['/uploads/a\\b', /is not a usable URL or path/],
	])('%j is refused, nothing sent', (given, reason) => {
		const result = uploadUrl(BASE, given);
		expect(result).toEqual({
			refused: expect.objectContaining({
				outcome: 'not sent',
				message: expect.stringMatching(reason),
			}),
		});
		expect((result as { refused: { description: string } }).refused.description).toMatch(
			/JSON \(Base64\)/,
		);
	});

	test('a Base URL that is not usable is refused as for every request', () => {
		expect(uploadUrl('api.example-chat.com', '/u')).toEqual({
			refused: expect.objectContaining({
				message: "The credential's Base URL is not a web address",
			}),
		});
	});

	test('any IPv4 address in a private, loopback or link-local range, however written: refused', () => {
		const octet = fc.integer({ min: 0, max: 255 });
		const privateAddress = fc.oneof(
			fc.tuple(fc.constant(10), octet, octet, octet),
			fc.tuple(fc.constant(127), octet, octet, octet),
			fc.tuple(fc.constant(172), fc.integer({ min: 16, max: 31 }), octet, octet),
			fc.tuple(fc.constant(192), fc.constant(168), octet, octet),
			fc.tuple(fc.constant(169), fc.constant(254), octet, octet),
		);
		fc.assert(
			fc.property(privateAddress, fc.boolean(), (parts, asInteger) => {
				// The URL parser reads a host written as one integer as the dotted address.
				const host = asInteger
					? String(parts.reduce((sum, part) => sum * 256 + part, 0))
					: parts.join('.');
				const result = uploadUrl(BASE, `https://${host}/bucket/key?sig=1`);
				expect(result).toEqual({
					refused: expect.objectContaining({ outcome: 'not sent' }),
				});
			}),
			{ numRuns: 300 },
		);
	});

	test('any private IPv4 address written in any form a URL or an IPv6 stack reads as it: refused', () => {
		const octet = fc.integer({ min: 0, max: 255 });
		const privateAddress = fc.oneof(
			fc.tuple(fc.constant(10), octet, octet, octet),
			fc.tuple(fc.constant(127), octet, octet, octet),
			fc.tuple(fc.constant(100), fc.integer({ min: 64, max: 127 }), octet, octet),
			fc.tuple(fc.constant(172), fc.integer({ min: 16, max: 31 }), octet, octet),
			fc.tuple(fc.constant(192), fc.constant(168), octet, octet),
			fc.tuple(fc.constant(169), fc.constant(254), octet, octet),
		);
		const writings: Array<(parts: number[]) => string> = [
			(parts) => `${parts.join('.')}.`,
			(parts) => parts.map((part) => `0x${part.toString(16)}`).join('.'),
			(parts) => parts.map((part) => `0${part.toString(8)}`).join('.'),
			// IPv4 inside IPv6: mapped, compatible, translated (SIIT) and NAT64's well-known prefixes.
			(parts) => `[::ffff:${parts.join('.')}]`,
			(parts) => `[::${parts.join('.')}]`,
			(parts) => `[::ffff:0:${parts.join('.')}]`,
			(parts) => `[64:ff9b::${parts.join('.')}]`,
			(parts) => `[64:ff9b:1::${parts.join('.')}]`,
		];
		fc.assert(
			fc.property(privateAddress, fc.nat(writings.length - 1), (parts, writing) => {
				const host = writings[writing](parts);
				const result = uploadUrl(BASE, `https://${host}/bucket/key?sig=1`);
				expect([host, result]).toEqual([
					host,
					{ refused: expect.objectContaining({ outcome: 'not sent' }) },
				]);
			}),
			{ numRuns: 500 },
		);
	});

	test('an IPv6 multicast address is not a host to upload to', () => {
		for (const host of ['[ff02::1]', '[ff05::1:3]', '[ff0e::101]']) {
			expect(privateHostReason(new URL(`https://${host}/`).hostname)).toBeDefined();
		}
	});

	test('public addresses and names are not called private', () => {
		for (const host of [
			'8.8.8.8',
			'bucket.s3.amazonaws.com',
			'172.32.0.1',
			'[2001:db8::1]',
			'[2606:4700:4700::1111]',
			'[64:ff9b::808:808]',
		]) {
			expect(privateHostReason(host)).toBeUndefined();
		}
	});
});

describe('issue 35: an upload host other than the credential’s is a public DNS name', () => {
	test.each([
		['https://vault/u', /a name of one label/],
		['https://minio:9000/u', /a name of one label/],
		['https://minio.storage.svc/u', /kept for local networks/],
		['https://nas.lan/u', /kept for local networks/],
		['https://files.corp/u', /kept for local networks/],
		['https://wiki.intranet/u', /kept for local networks/],
		['https://router.home.arpa/u', /a local name/],
		['https://uploads.test/u', /kept for local networks/],
		['https://2130706433/u', /this machine/],
		['https://8.8.8.8/u', /an IP address, not a public name/],
		['https://[2001:4860::8888]/u', /an IP address, not a public name/],
	])('%s is refused, nothing sent', (given, reason) => {
		expect(uploadUrl(BASE, given)).toEqual({
			refused: expect.objectContaining({
				outcome: 'not sent',
				message: expect.stringMatching(reason),
			}),
		});
	});

	test('a public name is taken', () => {
		expect(notAPublicName('bucket.s3.eu-west-1.amazonaws.com')).toBeUndefined();
		expect(notAPublicName('storage.googleapis.com.')).toBeUndefined();
	});
});

describe('issue 35: the headers a direct upload may carry', () => {
	test('what an upload needs, and the storage services’ signing headers, are taken', () => {
		expect(
			uploadHeadersProblem(
				{
					'Content-Type': 'image/png',
					'content-md5': 'bWQ1',
					'Content-Disposition': 'inline; filename="a.png"',
					'Content-Length': '12',
					'x-amz-acl': 'private',
					'X-Goog-Meta-Owner': 'ada',
					'x-ms-blob-type': 'BlockBlob',
				},
				12,
			),
		).toBeUndefined();
	});

	test('property: any other header, a Content-Length other than the file’s, or a value of several lines is refused', () => {
		const allowed =
			/^(content-type|content-md5|content-disposition|cache-control|content-length|x-amz-.+|x-goog-.+|x-ms-.+)$/i;
		const otherName = fc
			.stringMatching(/^[A-Za-z][A-Za-z0-9-]{0,20}$/)
			.filter((name) => !allowed.test(name));
		const hostile = fc.oneof(
			fc.tuple(otherName, fc.string()).map(([name, value]) => ({ [name]: value })),
			fc
				.nat(1000)
				.filter((length) => length !== 12)
				.map((length) => ({ 'Content-Length': String(length) })),
			fc.tuple(fc.string(), fc.constantFrom('\r', '\n', '\0'), fc.string()).map(([a, bad, b]) => ({
				'Content-Type': `${a}${bad}${b}`,
			})),
		);
		fc.assert(
			fc.property(hostile, (headers) => {
				expect(uploadHeadersProblem({ 'Content-Type': 'image/png', ...headers }, 12)).toEqual(
					expect.any(String),
				);
				expect(uploadUrl(BASE, '/uploads/abc', { headers, byteCount: 12 })).toEqual({
					refused: expect.objectContaining({ outcome: 'not sent' }),
				});
			}),
			{ numRuns: 300 },
		);
	});
});
