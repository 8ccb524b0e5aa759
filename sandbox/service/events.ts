import { notFound, ok, type Route } from './routes';
import type { Clock, Timings } from './clock';

/*
 * `GET /api/v1/events/:id`: a template message or a broadcast launch, as the service processes it.
 * The reference gives `processed|failed`. Our stand-in adds a first phase: for `eventProcessingMs`
 * after it was accepted an event answers `queued` with `result: null`, so a client's polling loop
 * meets a not-yet-processed event; after that it is `processed`, or `failed` when its template
 * message failed. A template message can be polled by its own `cmsg_…` id as well as by its event id.
 * The endpoint takes no query parameter: dispatch.ts refuses any by name, as the lists refuse unknown ones.
 */

/** An event id as the stand-in writes it in its answers: `evt_…` text, or an integer when told to. */
export type EventId = string | number;

export type EventSubject =
	| { type: 'template_message'; messageId: string }
	| { type: 'campaign'; broadcastId: string }
	/** A command with nothing to follow up (assign_agent): processed once its delay is over. */
	| { type: 'command'; eventType: string };

export interface EventResults {
	/** The result of a processed event, and whether the event failed; undefined if its object is gone. */
	resultOf(subject: EventSubject): { result: unknown; failed: boolean } | undefined;
}

interface StoredEvent {
	/** As written in the answers; the path names it as text. */
	id: EventId;
	createdAt: number;
	subject: EventSubject;
}

export function createEventStore(now: Clock, timings: Timings, results: EventResults) {
	const events = new Map<string, StoredEvent>();

	const routes: Route[] = [
		{
			method: 'GET',
			pattern: '/api/v1/events/:id',
			handler: ({ params }) => {
				const event = events.get(params.id);
				if (event === undefined) return notFound();
				if (now() < event.createdAt + timings.eventProcessingMs) {
					return ok({ id: event.id, status: 'queued', result: null });
				}
				const outcome = results.resultOf(event.subject);
				if (outcome === undefined) return notFound();
				return ok({
					id: event.id,
					status: outcome.failed ? 'failed' : 'processed',
					result: outcome.result,
				});
			},
		},
	];

	return {
		routes,
		/** Registers an event under its id and any other ids it can be polled by. */
		add(id: EventId, subject: EventSubject, aliases: string[] = []): void {
			const event = { id, createdAt: now(), subject };
			for (const key of [id, ...aliases]) events.set(String(key), event);
		},
	};
}
