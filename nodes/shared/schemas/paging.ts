import { z } from 'zod';

import { serviceId } from './serviceIds';

/*
 * What every list endpoint shares: page-based queries (`page`, and `per` up to 1,000 where the
 * service takes it) and answers carrying `count` and `next`/`prev` (docs/service-contract.md,
 * "The operations named without detail").
 */

export const MAX_PER_PAGE = 1000;

/**
 * A whole number in a query string. The node may hand n8n a number, the stand-in reads a string
 * from the URL: both are the same value on the wire.
 */
export function wholeNumberParameter(min: number, max = Number.MAX_SAFE_INTEGER) {
	return z.preprocess(
		(value) => (typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : value),
		z
			.number({ invalid_type_error: 'must be a whole number', required_error: 'is required' })
			.int('must be a whole number')
			.min(min, `must be at least ${min}`)
			.max(max, `must be at most ${max}`),
	);
}

export const pageParameter = wholeNumberParameter(1);
export const perParameter = wholeNumberParameter(1, MAX_PER_PAGE);

/** `updated_since` and similar: an ISO 8601 moment with its offset. */
export const isoMomentParameter = z
	.string()
	.datetime({ offset: true, message: 'must be an ISO 8601 date-time, e.g. 2030-01-31T18:00:00Z' });

/** The service names the next page by number or by URL. */
const pageLink = z.union([z.number(), z.string()]).nullable().optional();

/**
 * A page of a list answer: the items under `key`, and `next` to find the next page. `count`,
 * `prev` and `previous` are the service's to write as it likes: the node reads none of them
 * (answerNeeds.ts), so they pass through whatever they hold.
 */
export function pageAnswer<K extends string, T extends z.ZodTypeAny>(key: K, item: T) {
	return z
		.object({ next: pageLink })
		.extend({ [key]: z.array(item) } as Record<K, z.ZodArray<T>>)
		.passthrough();
}

/**
 * A listed record, as a list reads it: only its id (text or an integer; what tells two records of a
 * list apart). Every other field, a status too, passes through as written: a list compares a
 * record's status only with a Status filter the user set, and a record that writes it null, leaves
 * it out or writes it as another type says nothing against the filter (run/answeredAsFiltered.ts).
 */
export const listedRecord = z.object({ id: serviceId }).passthrough();
export type ListedRecord = z.infer<typeof listedRecord>;

/** Archive, pause, cancel and the like carry no body; `{}` is the most a client should send. */
export const emptyActionBody = z.object({}).strict();
