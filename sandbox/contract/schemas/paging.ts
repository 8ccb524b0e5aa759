import { z } from 'zod';

/*
 * The page-based queries every list endpoint takes: `page`, and `per` up to 1,000 where the service
 * takes it (docs/service-contract.md, "The operations named without detail"). The stand-in writes
 * answers, never reads them, so it holds no answer schemas.
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

/** Archive, pause, cancel and the like carry no body; `{}` is the most a client should send. */
export const emptyActionBody = z.object({}).strict();
