/*
 * Issue 25: the stand-in's answers are checked against docs/openapi.yaml for every operation,
 * success and error. sandbox-keeps-contract.test.ts answers each operation at least once and each
 * error status somewhere; here every operation that documents a 401 is called without the key, and
 * every one that documents a 404 is called about an object the account does not have (with a body
 * the document allows, so the 404 is not hidden behind a 422). Each answer must be the status the
 * document names for it, in the shape it promises, as openapi-backend reads the document.
 */
import { startStandInService, type StandInService } from '../../../sandbox/server';
import { loadOpenApiContract, type OpenApiContract } from '../../helpers/openApiContract';

const API_KEY = 'error-answers-key-4c1d';
let service: StandInService;
let contract: OpenApiContract;

beforeAll(async () => {
	[service, contract] = await Promise.all([
		startStandInService({ apiKey: API_KEY }),
		loadOpenApiContract(),
	]);
});
afterAll(async () => {
	await service.close();
});

interface Call {
	method: string;
	path: string;
	body?: unknown;
	key?: string | null;
}

/** One request; returns the operation the document names for it, the status and its problems. */
async function call({ method, path, body, key = API_KEY }: Call) {
	const response = await fetch(`${service.url}${path}`, {
		method,
		headers: {
			...(key === null ? {} : { Authorization: key }),
			...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
		},
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await response.text();
	const parsed: unknown = text === '' ? undefined : JSON.parse(text);
	const [pathOnly, search = ''] = path.split('?');
	const operation = contract.operationOf({
		method,
		path: pathOnly,
		query: Object.fromEntries(new URLSearchParams(search)),
	});
	const id = operation?.operationId ?? `${method} ${path}`;
	return {
		id,
		status: response.status,
		problems: contract.answerProblems(id, response.status, parsed),
	};
}

/** A request the document allows for each operation, about objects the account has not got. */
const unknownObject: Record<string, Call> = {
	getEvent: { method: 'GET', path: '/api/v1/events/evt_unknown' },
	getBroadcast: { method: 'GET', path: '/api/v1/broadcasts/cmp_unknown' },
	cancelBroadcast: { method: 'PATCH', path: '/api/v1/broadcasts/cmp_unknown/cancel' },
	archiveBroadcast: { method: 'PATCH', path: '/api/v1/broadcasts/cmp_unknown/archive' },
	getTemplate: { method: 'GET', path: '/api/v1/whats_app_templates/wat_unknown' },
	updateTemplate: {
		method: 'PATCH',
		path: '/api/v1/whats_app_templates/wat_unknown',
		body: { whats_app_template: { category: 'MARKETING' } },
	},
	archiveTemplate: { method: 'PATCH', path: '/api/v1/whats_app_templates/wat_unknown/archive' },
	pauseTemplate: { method: 'PATCH', path: '/api/v1/whats_app_templates/wat_unknown/pause' },
	submitTemplate: { method: 'PATCH', path: '/api/v1/whats_app_templates/wat_unknown/submit' },
	getContact: { method: 'GET', path: '/api/v1/contacts/%2B14155550999' },
	updateContact: {
		method: 'PATCH',
		path: '/api/v1/contacts/%2B14155550999',
		body: { name: 'Nobody' },
	},
	updateConversationStatus: {
		method: 'PATCH',
		path: '/api/v1/conversations/conv_unknown',
		body: { status: 'open' },
	},
	getOrder: { method: 'GET', path: '/api/v1/orders/wa_ord_unknown' },
	refundOrder: {
		method: 'POST',
		path: '/api/v1/orders/wa_ord_unknown/refunds',
		body: { amount: { currency: 'USD', value: 100 } },
	},
	deleteMedia: { method: 'DELETE', path: '/api/v1/medias/999999' },
	putDirectUpload: { method: 'PUT', path: '/uploads/unknown-token', key: null },
	getMediaFile: { method: 'GET', path: '/media/unknownkey/nothing.pdf', key: null },
};

/** The operations the document names, with the statuses it documents for each. */
function documented(): Array<{ id: string; method: string; path: string; statuses: number[] }> {
	return contract.operations.map((operation) => ({
		id: operation.operationId!,
		method: operation.method.toUpperCase(),
		path: operation.path,
		statuses: Object.keys(operation.responses ?? {}).map(Number),
	}));
}

test('every operation that documents a 404 is asked about an unknown object here', () => {
	const with404 = documented()
		.filter((operation) => operation.statuses.includes(404))
		.map((operation) => operation.id);
	expect(with404.length).toBeGreaterThan(10);
	expect(with404.filter((id) => unknownObject[id] === undefined)).toEqual([]);
});

test('an object the account does not have: each operation answers the 404 the document promises', async () => {
	const answers = [];
	for (const operation of documented().filter((candidate) => candidate.statuses.includes(404)))
		answers.push(await call(unknownObject[operation.id]));
	expect(answers.filter((answer) => answer.status !== 404 || answer.problems.length > 0)).toEqual(
		[],
	);
});

test('without the API key: each operation that documents 401 answers it, as the document promises', async () => {
	const answers = [];
	for (const operation of documented().filter((candidate) => candidate.statuses.includes(401))) {
		// The path's parameters filled with any value: the key is checked before anything else.
		const path = operation.path.replace(/\{[^}]+\}/g, 'x1');
		answers.push(await call({ method: operation.method, path, key: null }));
	}
	expect(answers.length).toBeGreaterThan(20);
	expect(answers.filter((answer) => answer.status !== 401 || answer.problems.length > 0)).toEqual(
		[],
	);
});
