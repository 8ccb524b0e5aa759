import type { z } from 'zod';

import type { MediaAnswer } from '../../../shared/schemas/media';
import { mediaAnswer } from '../../../shared/schemas/media';
import type { ServiceAnswer, ServiceFailure } from '../../../shared/transport';
import { ServiceRequestFailed, serviceMessage } from '../../../shared/transport';
import { InvalidParameter, checkBody } from '../../../shared/validation';
import { failureSign } from '../run/serviceAnswers';

/*
 * The pieces both ways of uploading a file share (mediaUpload.ts, directUpload.ts): checking a
 * body before it goes, rewording a step's failure to say where the whole upload stands, and
 * reading the media item out of an answer that may say it failed after all.
 */

export const MEDIAS_PATH = '/api/v1/medias';

/** A body the schema refuses, as a failure of this item (the runner has already read every item). */
export function checked<T>(schema: z.ZodType<T>, body: unknown, labels: Record<string, string>): T {
	try {
		return checkBody(schema, body, labels);
	} catch (error) {
		throw error instanceof InvalidParameter
			? notSent(`${error.parameter} ${error.reason}`, 'Nothing was sent for this item.')
			: error;
	}
}

/** One step of an upload; its failure reworded to say where the whole upload stands. */
export async function step<T>(
	call: () => Promise<T>,
	reword: (failure: ServiceFailure) => ServiceFailure,
): Promise<T> {
	try {
		return await call();
	} catch (error) {
		throw error instanceof ServiceRequestFailed
			? new ServiceRequestFailed(reword(error.failure))
			: error;
	}
}

export function notSent(
	message: string,
	description: string,
	from: Partial<Pick<ServiceFailure, 'statusCode' | 'serviceBody' | 'retries'>> = {},
): ServiceRequestFailed {
	return new ServiceRequestFailed({
		statusCode: from.statusCode,
		serviceBody: from.serviceBody,
		retries: from.retries ?? 0,
		outcome: 'not sent',
		message,
		description,
	});
}

/**
 * What in a 2xx answer says the step failed after all (docs/failure-semantics.md, "Which answers
 * are read for a failure sign"): read at the top of every answer an upload checks.
 */
export function failureSignOf(answer: ServiceAnswer): string | undefined {
	const { body } = answer;
	return answer.bodyIsJson && body !== null && typeof body === 'object' && !Array.isArray(body)
		? failureSign(body as Record<string, unknown>)
		: undefined;
}

/** The media item in a success answer, or the failure saying it may exist all the same. */
export function mediaOf(answer: ServiceAnswer, step: string): MediaAnswer {
	const sign = failureSignOf(answer);
	const parsed = mediaAnswer.safeParse(answer.body);
	if (answer.bodyIsJson && parsed.success && sign === undefined) return parsed.data;
	const said = serviceMessage(answer.body);
	throw new ServiceRequestFailed({
		outcome: 'may have been sent',
		statusCode: answer.statusCode,
		serviceBody: answer.body,
		retries: answer.retries,
		message:
			sign === undefined
				? `The service answered ${answer.statusCode} to ${step} without the media item's id and media_url${said ? `: ${said}` : ''}`
				: `The service answered ${answer.statusCode} to ${step} but not as documented (${sign})${said ? `: ${said}` : ''}`,
		description: `The file may have been stored: the service received it, but its answer ${sign === undefined ? 'does not show the media item' : 'says it failed, so it was not taken as uploaded and was not repeated'}. Look in the media library (Media → Get Many) before uploading it again.`,
	});
}

/**
 * A media request (the JSON upload, the finalize) that may have been acted on: said of the file and
 * the media library, not in the transport's words for a message ("check the conversation").
 */
export function mayBeStored(failure: ServiceFailure, whatArrived: string): ServiceFailure {
	return {
		...failure,
		description: `${whatArrived}; whether the media item was created is not known, so the request was not repeated. Look in the media library (Media → Get Many) before uploading the file again.`,
	};
}
