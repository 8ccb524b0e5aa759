import { createAccountSideService, type AccountSideService } from '../sandbox/service/accountSideService';
import { matchRoute } from '../sandbox/service/routes';

/**
 * The account-side stand-in without HTTP: a pinned clock that a test moves by hand, `call` that
 * routes a method and path (with its query) the way server.ts will, `event` for what server.ts
 * hands over from `POST /api/v1/events`, and `upload` for a direct upload's raw PUT.
 */
export const T0 = Date.parse('2026-03-02T09:00:00.000Z');

export interface Answer {
	status: number;
	body?: any;
	headers?: Record<string, string>;
}

export interface AccountHarness {
	service: AccountSideService;
	now(): number;
	advance(ms: number): void;
	call(method: string, pathAndQuery: string, body?: unknown): Answer;
	event(body: { event_type: string } & Record<string, unknown>): Answer | undefined;
	upload(path: string, headers: Record<string, string>, bytes: Buffer): Answer;
}

export function accountSide(): AccountHarness {
	let clock = T0;
	const service = createAccountSideService({ now: () => clock });
	return {
		service,
		now: () => clock,
		advance(ms) {
			clock += ms;
		},
		call(method, pathAndQuery, body) {
			const url = new URL(pathAndQuery, 'http://stand-in.invalid');
			const found = matchRoute(service.routes, method, url.pathname);
			if ('error' in found) return found.error as Answer;
			return found.handler({ params: found.params, query: url.searchParams, body }) as Answer;
		},
		event(body) {
			return service.handleEvent(body.event_type, body) as Answer | undefined;
		},
		upload(path, headers, bytes) {
			const { directUpload } = service;
			const found = matchRoute([{ ...directUpload, handler: () => ({ status: 0 }) }], 'PUT', path);
			if ('error' in found) return found.error as Answer;
			const lowerCase = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
			return directUpload.handler({ params: found.params, headers: lowerCase, body: bytes }) as Answer;
		},
	};
}

/** The field names a 422 Parameter Error names. */
export function refusedFields(answer: Answer): string[] {
	expect(answer.status).toBe(422);
	expect(answer.body).toMatchObject({ message: 'Parameter Error' });
	return Object.keys(answer.body.errors).sort();
}
