/*
 * The address a direct upload's bytes go to (nodes/shared/transport/serviceUrl.ts, uploadUrl): only
 * the credential's own origin, whatever the service's answer names; the query kept as given, since
 * a signed URL's signature covers it.
 */
import { uploadUrl } from '../../nodes/shared/transport/serviceUrl';

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
			'https://bucket.s3.amazonaws.com/key?X-Amz-Signature=1',
			/is on another host \(https:\/\/bucket\.s3\.amazonaws\.com\)/,
		],
		[
			'http://api.example-chat.com/uploads/abc',
			/is on another host \(http:\/\/api\.example-chat\.com\)/,
		],
		['https://api.example-chat.com:8443/uploads/abc', /is on another host/],
		['//evil.example/uploads', /is on another host \(https:\/\/evil\.example\)/],
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
});
