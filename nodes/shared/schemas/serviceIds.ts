import { z } from 'zod';

/*
 * Ids as the service writes them. Its reference writes some ids as text (`cmsg_…`, `evt_…`) and
 * others as JSON integers (an interactive message's `"id": 1`, a contact's `"id": 1`), and promises
 * neither for most records: an id is read in either form, compared as the same id in either, and
 * given back exactly as the service wrote it.
 */

/** An id in an answer: text or a JSON number, kept as written. */
export const serviceId = z.union([z.string(), z.number()]);
export type ServiceId = z.infer<typeof serviceId>;

/**
 * An id the answer must give (an event id confirming a command): not empty, in either form. Checked
 * by hand rather than as a union, so that an answer without it is named as such ("it has no …"),
 * not as an invalid input.
 */
export const givenServiceId = z
	.unknown()
	.superRefine((value, ctx) => {
		if (value === undefined || value === null) {
			ctx.addIssue({
				code: z.ZodIssueCode.invalid_type,
				expected: 'string',
				received: value === null ? 'null' : 'undefined',
			});
		} else if (!isServiceId(value) || value === '') {
			ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'must be an id: text or a number' });
		}
	})
	.transform((value) => value as ServiceId);

/** Whether a value is an id as the service may write it. */
export function isServiceId(value: unknown): value is ServiceId {
	return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

/** Whether an id as the service wrote it names `asked` (12345 names "12345"). */
export function namesId(written: unknown, asked: ServiceId): boolean {
	return isServiceId(written) && String(written) === String(asked);
}

/** The id as written, or null when the answer gives none: the node's output never retypes it. */
export function idAsWritten(value: unknown): ServiceId | null {
	return isServiceId(value) ? value : null;
}
