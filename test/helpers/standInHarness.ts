import {
	createAccountSideService,
	type AccountSideService,
} from '../../sandbox/service/accountSideService';
import { loadContractCheck, type ContractCheck } from '../../sandbox/contract/openApiRequests';
import {
	matchRoute,
	parameterError,
	repeatedParameters,
	type Route,
} from '../../sandbox/service/routes';
import { createSendSideService, type SendSideService } from '../../sandbox/service/sendSideService';

/**
 * The stand-in's two halves without HTTP, for unit tests of its rules: a pinned clock that a test
 * moves by hand, `call` that routes a method and path (with its query) the way server.ts does, and
 * `event`, what server.ts hands over from `POST /api/v1/events`. The account side adds `upload` (a
 * direct upload's raw PUT).
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
	/** A `send_broadcast` on `POST /api/v1/events`. */
	event(body: { event_type: string } & Record<string, unknown>): Answer & { body: any };
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
 * Every handler trusts server.ts to have held its request (path, query and body) to
 * docs/openapi.yaml first, so `call` and `event` hold each request to it the same way, with the
 * same refusal: a unit test of a handler meets the stand-in a client meets.
 */
let keepsContract: ContractCheck | undefined;
beforeAll(async () => {
	keepsContract = await loadContractCheck();
});

type Refusal = (errors: Record<string, string[]>) => Answer;

/** The request's refusal when it is outside the document, as server.ts answers it. */
function outsideContract(
	method: string,
	url: URL,
	body: unknown,
	refuse: Refusal = parameterError,
): (Answer & { body: any }) | undefined {
	const violation = keepsContract!({
		method,
		path: url.pathname,
		query: Object.fromEntries(url.searchParams),
		body,
		hasBody: body !== undefined,
	});
	return violation === undefined ? undefined : (refuse(violation) as Answer & { body: any });
}

function routedCall(routes: Route[]) {
	return (method: string, pathAndQuery: string, body?: unknown): Answer & { body: any } => {
		const url = new URL(pathAndQuery, 'http://stand-in.invalid');
		const found = matchRoute(routes, method, url.pathname);
		if ('error' in found) return found.error as Answer & { body: any };
		const refuse = found.route.refusal ?? parameterError;
		const repeated = found.route.takesQuery ? repeatedParameters(url.searchParams) : undefined;
		if (repeated !== undefined) return refuse(repeated) as Answer & { body: any };
		return (
			outsideContract(method, url, body, refuse) ??
			(found.handler({ params: found.params, query: url.searchParams, body }) as Answer & {
				body: any;
			})
		);
	};
}

/** `POST /api/v1/events` with one of a side's commands, held to the document first. */
function command(answer: (body: { event_type: string }) => Answer | undefined) {
	return (body: { event_type: string } & Record<string, unknown>) =>
		outsideContract('POST', new URL(EVENTS_URL), body) ?? answer(body);
}

const EVENTS_URL = 'http://stand-in.invalid/api/v1/events';

export function sendSide(): Harness {
	const { time, now, advance } = pinnedClock();
	const service = createSendSideService({ now: () => time.at });
	return {
		service,
		now,
		advance,
		call: routedCall(service.routes),
		event: command((body) => service.handleSendBroadcast(body)) as Harness['event'],
	};
}

export function accountSide(): AccountHarness {
	const { time, now, advance } = pinnedClock();
	const service = createAccountSideService({ now: () => time.at });
	const answered = command((body) => service.handleEvent(body.event_type, body));
	return {
		service,
		now,
		advance,
		call: routedCall(service.routes),
		event(body) {
			// A command of the other side is not this side's to answer, whatever its body.
			return service.eventTypes.includes(body.event_type) ? answered(body) : undefined;
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
