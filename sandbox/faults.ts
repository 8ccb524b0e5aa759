import { STATUS_CODES, type ServerResponse } from 'node:http';
import { z } from 'zod';

/*
 * The fault queue lets a test or a user make the next requests misbehave the way a real service or
 * network can, so the node's retry and error paths can be exercised without the real service.
 */

const meanwhileRequest = z
	.object({
		method: z.enum(['POST', 'PUT', 'PATCH', 'DELETE']),
		path: z.string().startsWith('/'),
		body: z.unknown().optional(),
	})
	.strict();

export type MeanwhileRequest = z.output<typeof meanwhileRequest>;

const faultSpec = z
	.object({
		status: z.number().int().min(100).max(599).optional(),
		body: z.unknown().optional(),
		rawBody: z.string().optional(),
		contentType: z.string().min(1).optional(),
		retryAfter: z.union([z.string().min(1), z.number().nonnegative()]).optional(),
		delayMs: z.number().int().nonnegative().max(600_000).optional(),
		reset: z.boolean().optional(),
		/** Answers a redirect to this Location (302 unless a 3xx `status` is given); nothing is processed. */
		redirect: z.string().min(1).optional(),
		/** Processes the request, sends the headers, then the body one byte per `dripIntervalMs`. */
		drip: z.boolean().optional(),
		dripIntervalMs: z.number().int().positive().max(60_000).optional(),
		/**
		 * Requests another client makes after this one is processed and before it is answered, such
		 * as a media upload between two pages of a list: the list moves while it is read.
		 */
		meanwhile: z.array(meanwhileRequest).min(1).optional(),
		/**
		 * Processes the request with every check, and when it keeps the contract answers this in
		 * place of the endpoint's own answer: an answer the contract allows that the stand-in never
		 * gives (test/helpers/answersFromContract.ts generates them). A refusal of the request stands.
		 */
		answer: z
			.object({ status: z.number().int().min(100).max(599), body: z.unknown() })
			.strict()
			.optional(),
		count: z.number().int().positive().default(1),
		path: z.string().startsWith('/').optional(),
	})
	.strict()
	.superRefine((fault, ctx) => {
		if (
			fault.status === undefined &&
			fault.delayMs === undefined &&
			fault.reset !== true &&
			fault.redirect === undefined &&
			fault.drip !== true &&
			fault.meanwhile === undefined &&
			fault.answer === undefined
		) {
			ctx.addIssue({
				code: z.ZodIssueCode.custom,
				path: [],
				message:
					'a fault needs at least one of status, delayMs, reset: true, redirect, drip: true, meanwhile or answer',
			});
		}
		if (fault.meanwhile !== undefined && fault.status !== undefined) {
			// A status fault answers without processing: "after it was processed" would never come.
			ctx.addIssue({
				code: z.ZodIssueCode.custom,
				path: ['meanwhile'],
				message: 'cannot be combined with status (the request is then not processed)',
			});
		}
		if (
			fault.redirect !== undefined &&
			fault.status !== undefined &&
			(fault.status < 300 || fault.status > 399)
		) {
			ctx.addIssue({
				code: z.ZodIssueCode.custom,
				path: ['status'],
				message: 'must be a 3xx status with redirect',
			});
		}
		if (
			fault.drip === true &&
			(fault.status !== undefined || fault.reset === true || fault.redirect !== undefined)
		) {
			// A drip answers what the service decided, slowly: anything else would be ignored or ambiguous.
			ctx.addIssue({
				code: z.ZodIssueCode.custom,
				path: ['drip'],
				message: 'cannot be combined with status, reset or redirect',
			});
		}
		if (fault.dripIntervalMs !== undefined && fault.drip !== true) {
			ctx.addIssue({
				code: z.ZodIssueCode.custom,
				path: ['dripIntervalMs'],
				message: 'is only for drip: true',
			});
		}
		if (
			fault.answer !== undefined &&
			(fault.status !== undefined || fault.reset === true || fault.drip === true)
		) {
			// status answers without checking the request, reset and drip deliver the service's own answer.
			ctx.addIssue({
				code: z.ZodIssueCode.custom,
				path: ['answer'],
				message: 'cannot be combined with status, reset or drip',
			});
		}
		if (fault.reset === true && fault.status !== undefined) {
			// A reset never answers, so a status would silently be ignored: refuse the ambiguity.
			ctx.addIssue({
				code: z.ZodIssueCode.custom,
				path: ['reset'],
				message: 'cannot be combined with status (a reset answers nothing)',
			});
		}
		if (fault.body !== undefined && fault.rawBody !== undefined) {
			ctx.addIssue({
				code: z.ZodIssueCode.custom,
				path: ['rawBody'],
				message: 'give either body or rawBody, not both',
			});
		}
		if ((fault.body !== undefined || fault.rawBody !== undefined) && fault.status === undefined) {
			ctx.addIssue({
				code: z.ZodIssueCode.custom,
				path: ['status'],
				message: 'is required when a body is given',
			});
		}
	})
	// A redirect is a status fault: the server answers it without processing anything.
	.transform((fault) =>
		fault.redirect !== undefined && fault.status === undefined ? { ...fault, status: 302 } : fault,
	);

export const injectFaultsBody = z.object({ faults: z.array(faultSpec).min(1) }).strict();

/** What a caller may ask for; `count` defaults to 1. */
export type FaultSpec = z.input<typeof faultSpec>;
export type Fault = z.output<typeof faultSpec>;

export interface PendingFault extends Fault {
	/** Requests this fault will still hit. */
	remaining: number;
}

/** An answer given in place of the service's own. */
export interface FaultAnswer {
	status: number;
	headers: Record<string, string>;
	payload: string;
}

export function parseFaults(input: unknown): Fault[] {
	return injectFaultsBody.parse(input).faults;
}

export class FaultQueue {
	private readonly pending: PendingFault[] = [];

	add(faults: Fault[]): void {
		for (const fault of faults) this.pending.push({ ...fault, remaining: fault.count });
	}

	clear(): void {
		this.pending.length = 0;
	}

	list(): PendingFault[] {
		return this.pending.map((fault) => ({ ...fault }));
	}

	/** Takes one hit of the first fault that matches this path, in the order they were injected. */
	take(path: string): Fault | undefined {
		const index = this.pending.findIndex(
			(fault) => fault.path === undefined || fault.path === path,
		);
		if (index === -1) return undefined;
		const fault = this.pending[index];
		fault.remaining -= 1;
		if (fault.remaining === 0) this.pending.splice(index, 1);
		const { remaining: _remaining, ...taken } = fault;
		return taken;
	}
}

export function faultAnswer(fault: Fault & { status: number }): FaultAnswer {
	const headers: Record<string, string> = {};
	let payload: string;
	if (fault.rawBody !== undefined) {
		payload = fault.rawBody;
		headers['content-type'] = fault.contentType ?? 'text/plain; charset=utf-8';
	} else {
		const body =
			fault.body !== undefined ? fault.body : { message: STATUS_CODES[fault.status] ?? 'Error' };
		payload = JSON.stringify(body);
		headers['content-type'] = fault.contentType ?? 'application/json; charset=utf-8';
	}
	if (fault.retryAfter !== undefined) headers['retry-after'] = String(fault.retryAfter);
	if (fault.redirect !== undefined) headers.location = fault.redirect;
	return { status: fault.status, headers, payload };
}

export const DEFAULT_DRIP_INTERVAL_MS = 1_000;

/**
 * Sends the headers at once and then the body one byte per interval, as a slow or hostile server
 * can: every byte resets a client's idle timeout, so only a deadline for the whole answer ends it.
 * Stops when the client goes away or the stand-in closes the connection.
 */
export function dripAnswer(
	response: ServerResponse,
	status: number,
	body: unknown,
	headers: Record<string, string>,
	intervalMs: number = DEFAULT_DRIP_INTERVAL_MS,
): void {
	const payload = Buffer.from(body === undefined ? '' : JSON.stringify(body));
	response.writeHead(status, {
		'content-type': 'application/json; charset=utf-8',
		'content-length': String(payload.length),
		...headers,
	});
	response.flushHeaders();
	let sent = 0;
	const timer = setInterval(() => {
		if (response.destroyed || sent >= payload.length) {
			clearInterval(timer);
			if (!response.destroyed) response.end();
			return;
		}
		response.write(payload.subarray(sent, sent + 1));
		sent++;
	}, intervalMs);
	response.on('close', () => clearInterval(timer));
}
