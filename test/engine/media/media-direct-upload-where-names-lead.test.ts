/*
 * Direct Upload judged a storage host by its name alone: `127.0.0.1.nip.io`, `localtest.me` and
 * any public-looking name whose DNS answer is this machine or the network n8n runs in got the file
 * and the headers the service chose. Where n8n offers its egress filter
 * (this.helpers.getSecureEgressFilter, n8n 2.40 here), the node asks it where the name leads before
 * a byte leaves.
 *
 * No network here, so no real DNS: each name is given the address public DNS gives it (nip.io
 * answers 127.0.0.1.nip.io with 127.0.0.1; localtest.me and its subdomains resolve to 127.0.0.1)
 * by answering Node's own lookups for it (namesResolvedToThisMachine), the lookups n8n's resolver
 * and the connection use. The engine is n8n-core's, with its real helpers, egress filter and
 * SSRF settings (protection off, n8n's default). A listener on this machine counts every
 * connection, so "not sent" is measured, not assumed.
 */

import fc from 'fast-check';

import { runUpload, testBytes } from '../../helpers/binaryItems';
import { startConnectionCounter, type ConnectionCounter } from '../../helpers/connectionCounter';
import { resolveNames } from '../../helpers/namesResolvedToThisMachine';
import { failureOf } from '../../helpers/resourceRuns';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'direct-upload-dns-key-SECRET-51c2';
const service = useStandInService({ apiKey: API_KEY });

const RESERVE = '/api/v1/medias/direct_uploads';
const FINALIZE = '/api/v1/medias/finalize';
const CLEAN_HEADERS = { 'Content-Type': 'image/png' };

/** What public DNS answers for these names: each leads to this machine. */
const LEADS_HERE = new Map<string, string>([
	['127.0.0.1.nip.io', '127.0.0.1'],
	['localtest.me', '127.0.0.1'],
	['uploads.localtest.me', '127.0.0.1'],
	['7f000001.nip.io', '127.0.0.1'],
	['bucket.rebound-storage.com', '::1'],
]);
/** Names a property run made up, each with the loopback address it was given. */
const madeUp = new Map<string, string>();

let counter: ConnectionCounter;
let port: number;

beforeAll(async () => {
	resolveNames((hostname) => LEADS_HERE.get(hostname) ?? madeUp.get(hostname));
	counter = await startConnectionCounter();
	({ port } = counter);
});

afterAll(async () => {
	jest.restoreAllMocks();
	await counter?.close();
});

const bytes = testBytes(64);

function reservationAnswering(url: string) {
	service.injectFaults({
		path: RESERVE,
		status: 200,
		body: { signed_id: 'signed-dns-1', direct_upload: { url, headers: CLEAN_HEADERS } },
	});
}

async function expectNotSent(host: string) {
	const before = counter.count;
	const result = await runUpload({
		items: [{ binary: { data: { bytes, fileName: 'passport.png', mimeType: 'image/png' } } }],
		parameters: { uploadMethod: 'direct' },
		baseUrl: service.url,
		apiKey: API_KEY,
	});
	const { message, description } = failureOf(result);
	expect(counter.count).toBe(before);
	expect(service.requests.filter((request) => request.path === FINALIZE)).toEqual([]);
	expect(message).toContain('The upload URL the service gave');
	expect(message).toContain(host);
	expect(description).toMatch(/The file was not sent/);
	expect(`${message} ${description}`).not.toContain(API_KEY);
	// The URL's path and query are its authority (a signed token): never repeated.
	expect(`${message} ${description}`).not.toContain('sig=secret');
}

test.each([...LEADS_HERE.keys()])(
	'a name that leads to this machine (%s) does not get the file',
	async (host) => {
		reservationAnswering(`https://${host}:${port}/bucket/key?sig=secret`);
		await expectNotSent(host);
	},
);

test('property: any public-looking name whose DNS answer is loopback does not get the file', async () => {
	const label = fc.stringMatching(/^[a-z][a-z0-9]{0,12}$/);
	const name = fc
		.tuple(
			fc.array(label, { minLength: 1, maxLength: 3 }),
			fc.constantFrom('com', 'io', 'me', 'net', 'cloud'),
		)
		.map(([labels, tld]) => [...labels, tld].join('.'));
	const loopback = fc.oneof(
		fc
			.tuple(fc.nat(255), fc.nat(255), fc.integer({ min: 1, max: 254 }))
			.map(([b, c, d]) => `127.${b}.${c}.${d}`),
		fc.constant('::1'),
	);
	await fc.assert(
		fc.asyncProperty(name, loopback, async (host, address) => {
			madeUp.set(host, address);
			service.clearRequests();
			service.clearFaults();
			reservationAnswering(`https://${host}:${port}/bucket/key?sig=secret`);
			await expectNotSent(host);
		}),
		// Every run is one whole upload in the engine; before the fix the first one was sent.
		{ numRuns: 15 },
	);
});
