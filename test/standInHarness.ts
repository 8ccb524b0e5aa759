import {
	createAccountSideService,
	type AccountSideService,
} from '../sandbox/service/accountSideService';
import { loadContractCheck, type ContractCheck } from '../sandbox/contract/openApiRequests';
import { matchRoute, parameterError, type Route } from '../sandbox/service/routes';
import { createSendSideService, type SendSideService } from '../sandbox/service/sendSideService';

/**
 * The stand-in's two halves without HTTP, for unit tests of its rules: a pinned clock that a test
 * moves by hand, and `call` that routes a method and path (with its query) the way server.ts does.
 * The account side adds `event` (what server.ts hands over from `POST /api/v1/events`) and `upload`
 * (a direct upload's raw PUT).
 */
export const T0 = Date.parse('2026-03-02T09:00:00.000Z');

export interface Answer {
	status: number;
	body?: any;
	headers?: Record<string, string>;
}

interface PinnedClock {
	now(): number;
	advance(ms: number): void;
}

export interface Harness extends PinnedClock {
	service: SendSideService;
	call(method: string, pathAndQuery: string, body?: unknown): Answer & { body: any };
}

export interface AccountHarness extends PinnedClock {
	service: AccountSideService;
	call(method: string, pathAndQuery: string, body?: unknown): Answer;
	event(body: { event_type: string } & Record<string, unknown>): Answer | undefined;
	upload(path: string, headers: Record<string, string>, bytes: Buffer): Answer;
}

function pinnedClock(): PinnedClock & { time: { at: number } } {
	const time = { at: T0 };
	return {
		time,
		now: () => time.at,
		advance(ms) {
			time.at += ms;
		},
	};
}

/*
 * Handlers that trust server.ts to have held each body to docs/openapi.yaml first (templates,
 * orders) are called as server.ts calls them: `sendSide({ heldToContract: true })` and
 * `accountSide({ heldToContract: true })` check bodies the same way.
 */
let keepsContract: ContractCheck | undefined;
beforeAll(async () => {
	keepsContract = await loadContractCheck();
});

function routedCall(routes: Route[], heldToContract = false) {
	return (method: string, pathAndQuery: string, body?: unknown): Answer & { body: any } => {
		const url = new URL(pathAndQuery, 'http://stand-in.invalid');
		const found = matchRoute(routes, method, url.pathname);
		if ('error' in found) return found.error as Answer & { body: any };
		// Bodies only: the query checks the tests pin are the handlers' own, named by parameter.
		const violation =
			!heldToContract || body === undefined
				? undefined
				: keepsContract!({
						method,
						path: url.pathname,
						query: Object.fromEntries(url.searchParams),
						body,
						hasBody: true,
					});
		if (violation !== undefined)
			return (found.route.refusal ?? parameterError)(violation) as Answer & { body: any };
		return found.handler({ params: found.params, query: url.searchParams, body }) as Answer & {
			body: any;
		};
	};
}

export function sendSide({ heldToContract = false } = {}): Harness {
	const { time, now, advance } = pinnedClock();
	const service = createSendSideService({ now: () => time.at });
	return { service, now, advance, call: routedCall(service.routes, heldToContract) };
}

export function accountSide({ heldToContract = false } = {}): AccountHarness {
	const { time, now, advance } = pinnedClock();
	const service = createAccountSideService({ now: () => time.at });
	return {
		service,
		now,
		advance,
		call: routedCall(service.routes, heldToContract),
		event(body) {
			return service.handleEvent(body.event_type, body) as Answer | undefined;
		},
		upload(path, headers, bytes) {
			const { directUpload } = service;
			const found = matchRoute([{ ...directUpload, handler: () => ({ status: 0 }) }], 'PUT', path);
			if ('error' in found) return found.error as Answer;
			const lowerCase = Object.fromEntries(
				Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]),
			);
			return directUpload.handler({
				params: found.params,
				headers: lowerCase,
				body: bytes,
			}) as Answer;
		},
	};
}

/** The field names a 422 Parameter Error names. */
export function refusedFields(answer: Answer): string[] {
	expect(answer.status).toBe(422);
	expect(answer.body).toMatchObject({ message: 'Parameter Error' });
	return Object.keys(answer.body.errors).sort();
}

/** A well-formed launch of the approved `order_update` (en) template to two contacts. */
export function launchBody(
	changes: Record<string, unknown> = {},
	top: Record<string, unknown> = {},
) {
	return {
		event_type: 'send_broadcast',
		broadcast: {
			name: 'March restock',
			chat_template_id: 'wat_1a2b3c4d5e6f7081',
			delivery_mode: 'instant',
			liquid_values: { order_number: 'A-7', order_status: 'back in stock', order_total: '10.00' },
			contacts: [
				{ phone_number: '+14155550123', name: 'Ada', liquid_values: { first_name: 'Ada' } },
				{ phone_number: '+14155550124', name: 'Grace', liquid_values: { first_name: 'Grace' } },
			],
			phone_number: '14155550100',
			...changes,
		},
		...top,
	};
}
