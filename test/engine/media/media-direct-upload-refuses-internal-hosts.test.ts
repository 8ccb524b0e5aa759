/*
 * Issue 35, defect 3: Media → Upload (Direct) PUT the user's file, with every header the service's
 * answer chose, to hosts inside the network n8n runs in: names of one label (`vault`, `minio`, how
 * Docker Compose and Kubernetes name the services beside n8n), `*.svc`, `*.lan`, `*.corp`,
 * `*.intranet`, and loopback addresses however written; and it called finalize only after a 2xx,
 * so the answer learned whether the internal host answered. docs/credentials.md promises such
 * hosts are refused before the bytes leave.
 *
 * Here every name resolves to a listener on this machine (Node's lookups answer so, for this test
 * only), and the IP forms name it directly: the listener counts every connection, so "refused
 * before the bytes leave" is measured, not assumed. Hostile headers go with a public-looking name,
 * which would be taken with clean headers: it resolves to a public address, as a bucket's does,
 * and its connection is routed to the listener. The reservation is the stand-in's fault queue answering
 * with the URL and headers given; the upload of the stand-in itself (its own origin) still works.
 */
import tls from 'node:tls';

import fc from 'fast-check';

import { runUpload, testBytes } from '../../helpers/binaryItems';
import { startConnectionCounter, type ConnectionCounter } from '../../helpers/connectionCounter';
import { resolveNames } from '../../helpers/namesResolvedToThisMachine';
import { PUBLIC_STORAGE_ADDRESS } from '../../helpers/storageHostOnThisMachine';
import { failureOf } from '../../helpers/resourceRuns';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'direct-upload-hosts-key-SECRET-6a4f';
const service = useStandInService({ apiKey: API_KEY });

const RESERVE = '/api/v1/medias/direct_uploads';
const FINALIZE = '/api/v1/medias/finalize';
const PUBLIC_LOOKING = 'uploads.storage-bucket.example.com';
const INTERNAL_NAMES = [
	'vault',
	'minio',
	'storage',
	'minio.storage.svc',
	'minio.default.svc.cluster.local',
	'nas.lan',
	'files.corp',
	'wiki.intranet',
	'vault.internal',
	'printer.local',
	'app.localhost',
	'localhost',
	'uploads.test',
];

let counter: ConnectionCounter;
let port: number;

beforeAll(async () => {
	// Every name leads to the listener: any host the node tried would be counted there.
	resolveNames((name) => (name === PUBLIC_LOOKING ? PUBLIC_STORAGE_ADDRESS : '127.0.0.1'));
	const realConnect = tls.connect.bind(tls);
	jest
		.spyOn(tls, 'connect')
		.mockImplementation(((options: tls.ConnectionOptions, ...rest: unknown[]) =>
			(realConnect as (...args: unknown[]) => tls.TLSSocket)(
				options.servername === PUBLIC_LOOKING ? { ...options, host: '127.0.0.1', port } : options,
				...rest,
			)) as unknown as typeof tls.connect);
	counter = await startConnectionCounter();
	({ port } = counter);
});

afterAll(async () => {
	jest.restoreAllMocks();
	await counter?.close();
});

const bytes = testBytes(48);

function upload() {
	return runUpload({
		items: [{ binary: { data: { bytes, fileName: 'id-card.png', mimeType: 'image/png' } } }],
		parameters: { uploadMethod: 'direct' },
		baseUrl: service.url,
		apiKey: API_KEY,
	});
}

function reservationAnswering(url: string, headers: Record<string, string>) {
	service.injectFaults({
		path: RESERVE,
		status: 200,
		body: { signed_id: 'signed-hostile-1', direct_upload: { url, headers } },
	});
}

async function expectRefusedBeforeTheBytesLeave() {
	const before = counter.count;
	const result = await upload();
	const { message, description } = failureOf(result);
	expect(message).toMatch(/upload URL the service gave/);
	expect(description).toMatch(/The file was not sent/);
	expect(`${message} ${description}`).not.toContain(API_KEY);
	expect(counter.count).toBe(before);
	expect(service.requests.filter((request) => request.path === FINALIZE)).toEqual([]);
	return message;
}

const CLEAN_HEADERS = { 'Content-Type': 'image/png', 'Content-MD5': 'bWQ1' };

test.each(INTERNAL_NAMES)('a host named %s is refused before the bytes leave', async (name) => {
	reservationAnswering(`https://${name}:${port}/bucket/key?sig=1`, CLEAN_HEADERS);
	await expectRefusedBeforeTheBytesLeave();
});

test.each([
	'127.0.0.1',
	'0x7f.1',
	'2130706433',
	'0177.0.0.1',
	'127.1',
	'[::1]',
	'[::ffff:127.0.0.1]',
	'[::ffff:7f00:1]',
	'[0:0:0:0:0:ffff:127.0.0.1]',
])('the loopback address written %s is refused before the bytes leave', async (address) => {
	reservationAnswering(`https://${address}:${port}/bucket/key?sig=1`, CLEAN_HEADERS);
	await expectRefusedBeforeTheBytesLeave();
});

test.each([
	['Authorization', 'Bearer something'],
	['Cookie', 'session=1'],
	['Host', 'vault'],
	['Proxy-Authorization', 'Basic eA=='],
	['X-Forwarded-For', '127.0.0.1'],
	['Transfer-Encoding', 'chunked'],
	['Content-Length', '1'],
])('a header %s the answer chose is refused before the bytes leave', async (name, value) => {
	reservationAnswering(`https://${PUBLIC_LOOKING}:${port}/bucket/key?sig=1`, {
		...CLEAN_HEADERS,
		[name]: value,
	});
	expect(await expectRefusedBeforeTheBytesLeave()).toContain(name);
});

test('the same public-looking host with only the headers an upload needs is tried (the listener counts it)', async () => {
	reservationAnswering(`https://${PUBLIC_LOOKING}:${port}/bucket/key?sig=1`, {
		...CLEAN_HEADERS,
		'Content-Length': String(bytes.length),
		'x-amz-meta-owner': 'ada',
		'x-ms-blob-type': 'BlockBlob',
		'x-goog-content-sha256': 'UNSIGNED-PAYLOAD',
		'Content-Disposition': 'inline',
	});
	const before = counter.count;
	const result = await upload();
	expect(result.error).toBeDefined();
	// The listener closes the connection: the PUT went there (this is what a public host gets).
	expect(counter.count).toBeGreaterThan(before);
	expect(service.requests.filter((request) => request.path === FINALIZE)).toEqual([]);
});

test("the stand-in's own upload URL, on the credential's origin, still takes the file", async () => {
	const result = await upload();
	expect(result.error).toBeUndefined();
	expect(result.output![0].json).toMatchObject({ uploadMethod: 'direct', filename: 'id-card.png' });
});

test('property: no hostile upload URL or header receives a byte, and finalize is never called', async () => {
	const internalHost = fc.oneof(
		fc.constantFrom(...INTERNAL_NAMES),
		fc.constantFrom('127.0.0.1', '0x7f.1', '2130706433', '[::1]', '[::ffff:127.0.0.1]'),
		// Any one label, and any name under a suffix kept for local networks.
		fc.stringMatching(/^[a-z][a-z0-9-]{0,15}$/).filter((label) => !label.endsWith('-')),
		fc
			.tuple(
				fc.stringMatching(/^[a-z][a-z0-9]{0,10}$/),
				fc.constantFrom(
					'svc',
					'lan',
					'corp',
					'intranet',
					'internal',
					'local',
					'localhost',
					'home.arpa',
				),
			)
			.map(([label, suffix]) => `${label}.${suffix}`),
	);
	const hostileHeader = fc.tuple(
		fc.constantFrom(
			'Authorization',
			'Cookie',
			'Host',
			'X-Api-Key',
			'Referer',
			'Forwarded',
			'TE',
			'Connection',
		),
		fc.stringMatching(/^[ -~]{0,20}$/),
	);
	const hostile = fc.oneof(
		internalHost.map((host) => ({ host, headers: CLEAN_HEADERS })),
		hostileHeader.map(([name, value]) => ({
			host: PUBLIC_LOOKING,
			headers: { ...CLEAN_HEADERS, [name]: value },
		})),
		fc.tuple(internalHost, hostileHeader).map(([host, [name, value]]) => ({
			host,
			headers: { ...CLEAN_HEADERS, [name]: value },
		})),
	);
	await fc.assert(
		fc.asyncProperty(hostile, async ({ host, headers }) => {
			service.clearRequests();
			service.clearFaults();
			reservationAnswering(`https://${host}:${port}/bucket/key?sig=1`, headers);
			await expectRefusedBeforeTheBytesLeave();
		}),
		// 40 runs: before the fix the first one-label name or hostile header was sent.
		{ numRuns: 40 },
	);
});
