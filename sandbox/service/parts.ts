import { outsideContract, type Route, type RouteAnswer } from './routes';

/*
 * One area of the service (commands, the send side, contacts, …) as the running stand-in serves it:
 * its own endpoints, and the `event_type`s of `POST /api/v1/events` it answers, because the service
 * takes many different commands on that one endpoint. dispatch.ts serves every part after its own
 * checks (auth, faults, JSON, the request log); a part only says what the service does.
 */

export type EventHandler = (body: unknown) => RouteAnswer;

export interface ServicePart {
	routes?: readonly Route[];
	/** Answers for `POST /api/v1/events`, by the body's `event_type`. */
	events?: Readonly<Record<string, EventHandler>>;
}

export const EVENTS_PATH = '/api/v1/events';

export interface ServiceTable {
	routes: Route[];
	/**
	 * `METHOD /pattern` for every endpoint, `POST /api/v1/events (type, …)`, and `(no API key)` after
	 * an endpoint that takes none (an upload URL, a file link): for people.
	 */
	endpoints: string[];
}

/**
 * One route table for every part. Two parts answering the same endpoint or event type is a mistake
 * in the wiring, so it stops the stand-in from starting rather than letting the first one win.
 */
export function serviceTable(parts: readonly ServicePart[]): ServiceTable {
	const events = new Map<string, EventHandler>();
	for (const part of parts) {
		for (const [eventType, handler] of Object.entries(part.events ?? {})) {
			if (events.has(eventType)) throw new Error(`two parts answer event_type ${eventType}`);
			events.set(eventType, handler);
		}
	}
	// The events endpoint first: it takes most of the traffic under load.
	const routes: Route[] =
		events.size === 0
			? []
			: [
					{
						method: 'POST',
						pattern: EVENTS_PATH,
						handler: ({ body }) => dispatchEvent(events, body),
					},
				];
	const seen = new Set(routes.map(endpointOf));
	for (const route of parts.flatMap((part) => part.routes ?? [])) {
		const endpoint = endpointOf(route);
		if (seen.has(endpoint)) throw new Error(`two parts answer ${endpoint}`);
		seen.add(endpoint);
		routes.push(route);
	}
	const endpoints = routes.map((route) =>
		route.pattern === EVENTS_PATH && route.method === 'POST'
			? `${endpointOf(route)} (event_type ${[...events.keys()].join(', ')})`
			: route.withoutApiKey === true
				? `${endpointOf(route)} (no API key)`
				: endpointOf(route),
	);
	return { routes, endpoints };
}

const endpointOf = (route: Route) => `${route.method} ${route.pattern}`;

function dispatchEvent(events: ReadonlyMap<string, EventHandler>, body: unknown): RouteAnswer {
	if (typeof body !== 'object' || body === null || Array.isArray(body)) {
		return outsideContract({ '(body)': ['must be a JSON object with an event_type'] });
	}
	const eventType = (body as { event_type?: unknown }).event_type;
	const handler = typeof eventType === 'string' ? events.get(eventType) : undefined;
	if (handler !== undefined) return handler(body);
	const known = [...events.keys()].map((name) => `'${name}'`).join(' | ');
	return outsideContract({
		event_type: [eventType === undefined ? `is required: ${known}` : `must be ${known}`],
	});
}
