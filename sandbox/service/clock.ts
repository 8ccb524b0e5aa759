import { randomBytes } from 'node:crypto';

/*
 * Time and identity for the send-side stand-in. Everything that "happens later" (an event being
 * processed, a message delivered, a broadcast sent) is worked out from the injected clock when it is
 * read, never from timers: a test pins `now` and moves it, and nothing runs in the background.
 */

export interface Timings {
	/** An event answers `queued` this long, then `processed` (or `failed`). */
	eventProcessingMs: number;
	/** A template message is `sent` this long before it is `delivered`. */
	deliveryMs: number;
	/** Gap between two messages of a broadcast, by delivery mode. */
	broadcastIntervalMs: { instant: number; gradual: number; smart: number };
	/** A submitted template stays `pending` this long, then it is `approved`. */
	templateReviewMs: number;
}

export const DEFAULT_TIMINGS: Timings = {
	eventProcessingMs: 1000,
	deliveryMs: 2000,
	broadcastIntervalMs: { instant: 100, gradual: 1000, smart: 500 },
	templateReviewMs: 5000,
};

export type Clock = () => number;

export function iso(ms: number): string {
	return new Date(ms).toISOString();
}

/** `cmp_…`, `cmsg_…`, `evt_…`: the service's prefixes, with random hex as the service shows. */
export function newId(prefix: string): string {
	return `${prefix}_${randomBytes(8).toString('hex')}`;
}

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** The account's sending number when a request names none (digits only, as the service writes it). */
export const DEFAULT_BUSINESS_NUMBER = '14155550100';
