import type { MayHaveActed, ServiceFailure } from './failures';
import { A_MESSAGE } from './failures';

/*
 * A failure the Base URL answered: a failed status or a redirect, worded from the status and the
 * service's own words in the answer (serviceMessage), whatever shape it sent them in.
 */

/**
 * `field: messages` for each field of a field → messages map. The media endpoints nest one map in
 * another (`{"blob": {"byte_size": ["is too large …"]}}`, the newer reference): named by their path.
 */
function fieldMessagesOf(fields: Record<string, unknown>, prefix = '', depth = 0): string[] {
	return Object.entries(fields).flatMap(([field, messages]) => {
		const name = `${prefix}${field}`;
		if (messages !== null && typeof messages === 'object' && !Array.isArray(messages) && depth < 3)
			return fieldMessagesOf(messages as Record<string, unknown>, `${name}.`, depth + 1);
		const text = Array.isArray(messages)
			? messages
					.map((entry) => (typeof entry === 'string' ? entry : JSON.stringify(entry)))
					.join('; ')
			: typeof messages === 'object'
				? JSON.stringify(messages)
				: String(messages);
		return [`${name}: ${text}`];
	});
}

/** The service's own words: its `message`, `error` or a field → messages map (`errors`, `fields`, `reason`), whatever it sent. */
export function serviceMessage(body: unknown): string | undefined {
	if (typeof body === 'string') return body.trim().slice(0, 300) || undefined;
	if (!body || typeof body !== 'object') return undefined;
	const record = body as Record<string, unknown>;
	const parts: string[] = [];
	for (const key of ['message', 'error', 'detail', 'title']) {
		if (typeof record[key] === 'string' && record[key]) {
			parts.push(record[key] as string);
			break;
		}
	}
	// `reason` is the media endpoints' field → messages map ({"status": "failed", "reason": {...}}).
	const fields =
		record.errors ??
		record.fields ??
		(record.reason !== null && typeof record.reason === 'object' ? record.reason : undefined);
	if (fields && typeof fields === 'object' && !Array.isArray(fields)) {
		const fieldMessages = fieldMessagesOf(fields as Record<string, unknown>);
		if (fieldMessages.length) parts.push(fieldMessages.join(' | '));
	} else if (Array.isArray(fields)) {
		parts.push(
			fields
				.map((entry) => (typeof entry === 'string' ? entry : JSON.stringify(entry)))
				.join(' | '),
		);
	}
	if (typeof record.code === 'string' && parts.length) parts[0] = `${parts[0]} (${record.code})`;
	return parts.length ? parts.join(' — ') : undefined;
}

/** A failed answer, in the words a workflow builder needs: what happened, was it sent, what to do. */
export function describeStatusFailure(
	statusCode: number,
	body: unknown,
	path: string,
	retries: number,
	/** 429, or 503 with Retry-After: the service said "not now", so it did not act. */
	throttled = statusCode === 429,
	acted: MayHaveActed = A_MESSAGE,
): ServiceFailure {
	const said = serviceMessage(body);
	const quoted = said ? `: ${said}` : '';
	const base = { statusCode, serviceBody: body, retries };
	if (statusCode === 401 || statusCode === 403) {
		return {
			...base,
			outcome: 'not sent',
			message: `The service rejected the API key (${statusCode})${quoted}`,
			description:
				'Nothing was sent. Open the Chat Messaging API credential, paste the key again (without "Bearer"), and check that the Base URL belongs to the same account.',
		};
	}
	if (statusCode === 404) {
		return {
			...base,
			outcome: 'not sent',
			message: `The service answered 404 Not Found for ${path}${quoted}`,
			description:
				'Nothing was sent. If the message names an object (a template or an agent), check its ID; otherwise the Base URL in the credential is probably wrong: it is the API host only, without /api/v1.',
		};
	}
	if (statusCode === 422 || statusCode === 400) {
		return {
			...base,
			outcome: 'not sent',
			message: `The service refused the request (${statusCode} Parameter Error)${quoted || ' with no details'}`,
			description:
				'Nothing was sent. The service did not accept a value: check the fields it names (for templates: is the template approved, and are all its variables given?).',
		};
	}
	if (throttled) {
		return {
			...base,
			outcome: 'not sent',
			message: `The service is rate limiting requests (${statusCode}) and the wait allowed was used up${quoted}`,
			description: `Nothing was sent (retried ${retries} time(s)). Lower "Requests in Parallel", raise "Maximum Total Wait", or run again later.`,
		};
	}
	if (statusCode >= 500) {
		return {
			...base,
			outcome: 'may have been sent',
			message: `The service failed while handling the request (${statusCode})${quoted}`,
			description: `${acted.mayHave}: the service failed after receiving it, so it was not repeated automatically. ${acted.check} before running this item again.`,
		};
	}
	return {
		...base,
		outcome: 'not sent',
		message: `The service answered ${statusCode}${quoted}`,
		description: 'The service did not accept the request; nothing was sent.',
	};
}

/**
 * A 3xx from the Base URL. It is never followed: the API has no redirects, and following one would
 * hand the Authorization header (and the message) to whatever host the Location names.
 */
export function describeRedirect(
	statusCode: number,
	location: string | undefined,
	retries: number,
	acted: MayHaveActed = A_MESSAGE,
): ServiceFailure {
	const where = location
		? ` to ${location.length > 200 ? `${location.slice(0, 200)}…` : location}`
		: ' without a Location';
	const fix =
		'Correct the Base URL in the Chat Messaging API credential: use the address the service really answers at (often https:// instead of http://, or a different host), without /api/v1.';
	if (statusCode === 302 || statusCode === 303) {
		// 303 See Other is how a server points at the result of a request it has already handled, and
		// many web frameworks answer a POST they handled with 302 Found the same way.
		const name = statusCode === 303 ? '303 See Other' : '302 Found';
		return {
			statusCode,
			retries,
			outcome: 'may have been sent',
			message: `The Base URL answered with a redirect (${name})${where}, which is not followed`,
			description: `${acted.mayHave}: a ${statusCode} can mean the server handled the request and points at its result elsewhere. It was not repeated there, so the API key went nowhere else. ${acted.check} before running again. ${fix}`,
		};
	}
	return {
		statusCode,
		retries,
		outcome: 'not sent',
		message: `The Base URL answered with a redirect (${statusCode})${where}, which is not followed`,
		description: `Nothing was sent: a ${statusCode} redirect means the server at the Base URL did not process the request but points elsewhere, and the request was not repeated there, so neither the message nor the API key left for the other address. ${fix}`,
	};
}
