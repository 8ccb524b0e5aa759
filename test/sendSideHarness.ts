import { matchRoute } from '../sandbox/service/routes';
import { createSendSideService, type SendSideService } from '../sandbox/service/sendSideService';

/**
 * The send-side stand-in without HTTP: a pinned clock that a test moves by hand, and `call` that
 * routes a method and path (with its query) the way server.ts will.
 */
export const T0 = Date.parse('2026-03-02T09:00:00.000Z');

export interface Harness {
	service: SendSideService;
	now(): number;
	advance(ms: number): void;
	call(
		method: string,
		pathAndQuery: string,
		body?: unknown,
	): { status: number; body: any; headers?: Record<string, string> };
}

export function sendSide(): Harness {
	let clock = T0;
	const service = createSendSideService({ now: () => clock });
	return {
		service,
		now: () => clock,
		advance(ms) {
			clock += ms;
		},
		call(method, pathAndQuery, body) {
			const url = new URL(pathAndQuery, 'http://stand-in.invalid');
			const found = matchRoute(service.routes, method, url.pathname);
			if ('error' in found) return found.error as { status: number; body: any };
			return found.handler({ params: found.params, query: url.searchParams, body }) as {
				status: number;
				body: any;
			};
		},
	};
}

/** A well-formed launch of the approved `order_update` (en) template to two contacts. */
export function launchBody(changes: Record<string, unknown> = {}, top: Record<string, unknown> = {}) {
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
