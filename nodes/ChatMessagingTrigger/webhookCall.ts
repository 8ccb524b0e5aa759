import {
	NodeOperationError,
	type IHookFunctions,
	type IWebhookFunctions,
	type IWebhookResponseData,
} from 'n8n-workflow';

import { MAX_BODY_BYTES, parseContentType, readJsonBody } from './body';
import { classifyWebhook, isSelected } from './events';
import { MAX_REMEMBERED_CALLS, judgeRepeat } from './replays';
import { readTriggerSettings } from './settings';
import { verifyCaller } from './verify';

/*
 * How the trigger answers one call, and the check it runs when n8n registers the webhook. Every
 * path either answers the caller with a refusal and starts nothing, or starts the workflow once.
 */

type HttpRequest = ReturnType<IWebhookFunctions['getRequestObject']>;
export type HttpResponse = ReturnType<IWebhookFunctions['getResponseObject']>;

interface TriggerAnswer {
	received: boolean;
	started: boolean;
	reason?: string;
	error?: string;
}

/*
 * The trigger writes every answer itself instead of leaving it to n8n: refusals need 4xx/5xx
 * with no workflow started, which n8n's own onReceived answer cannot express, and the service
 * should always get the same small JSON whatever happened.
 */
export function answer(
	res: HttpResponse,
	status: number,
	body: TriggerAnswer,
): IWebhookResponseData {
	res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' });
	res.end(JSON.stringify(body));
	return { noWebhookResponse: true };
}

/**
 * The body exactly as sent. n8n keeps it in `rawBody` once it parsed the request; for content
 * types n8n does not parse, the body is still unread and `readRawBody` fetches it. Without raw
 * bytes nothing can be checked (not a signature, not the encoding, not the depth), so there is
 * no fallback to what n8n parsed.
 */
async function readRawBody(req: HttpRequest): Promise<Buffer | undefined> {
	if (!Buffer.isBuffer(req.rawBody) && typeof req.readRawBody === 'function') {
		await req.readRawBody();
	}
	return Buffer.isBuffer(req.rawBody) ? req.rawBody : undefined;
}

/** Every copy of every header, so a repeated one can be refused; plain headers where absent. */
function headersOf(req: HttpRequest) {
	return req.headersDistinct ?? req.headers;
}

/**
 * The same judgement as on every call, run when n8n registers the webhook: on publishing and on
 * Listen for test event. Throwing here makes n8n refuse to register it and show the message, so a
 * trigger that would refuse every call never silently waits for events.
 */
export async function refuseUnusableSettings(context: IHookFunctions): Promise<void> {
	const verdict = await readTriggerSettings(context);
	if (verdict.ok) return;
	throw new NodeOperationError(context.getNode(), verdict.problem.message, {
		description:
			'The Chat Messaging Trigger would refuse every webhook with these settings, so it does not start listening. Fix the setting, then publish or listen again.',
	});
}

export const REPEATED_CALL =
	'this signed call was received before (same signature and timestamp); the workflow was started once';

export const UNREMEMBERABLE_CALL =
	`this signed call is no newer than a call the trigger has forgotten (more than the ${MAX_REMEMBERED_CALLS} it remembers arrived within the tolerance window, ` +
	"or the call's timestamp left the window on a webhook processor whose clock is ahead, or before the Tolerance was widened), " +
	'so a repeat of it could not be told from it; not started. Send it again with a new timestamp and signature';

/**
 * One call, checked in order: media type, size, settings, caller, body, event selection, repeat. Each
 * refusal answers with its reason and starts nothing.
 */
export async function handleCall(
	context: IWebhookFunctions,
	res: HttpResponse,
): Promise<IWebhookResponseData> {
	const req = context.getRequestObject();
	const refuse = (status: number, error: string, forOwner = false): IWebhookResponseData => {
		// Only the short reason is logged: never headers, body or secret. A setting the owner must
		// fix is logged as a warning; what callers get wrong stays at debug, so they cannot flood
		// the log.
		const line = `Chat Messaging Trigger refused a call (${status}): ${error}`;
		if (forOwner) context.logger.warn(line);
		else context.logger.debug(line);
		return answer(res, status, { received: false, started: false, error });
	};

	const contentType = req.headers['content-type'];
	// n8n's form parser has already consumed a multipart body: there are no raw bytes to read.
	if (parseContentType(contentType).type.startsWith('multipart/')) {
		return refuse(415, 'multipart bodies are not accepted: send JSON');
	}

	let raw: Buffer | undefined;
	try {
		raw = await readRawBody(req);
	} catch {
		return refuse(400, 'body could not be read');
	}
	if (raw === undefined) return refuse(400, 'body could not be read');
	if (raw.length > MAX_BODY_BYTES) {
		return refuse(413, `body is larger than ${MAX_BODY_BYTES} bytes`);
	}

	const read = await readTriggerSettings(context);
	if (!read.ok) return refuse(500, `trigger is not set up: ${read.problem.reason}`, true);
	const { check, selection } = read.settings;

	const nowSeconds = Math.floor(Date.now() / 1000);
	const verdict = verifyCaller(check, headersOf(req), raw, nowSeconds);
	if (!verdict.ok) return refuse(verdict.status, verdict.reason);
	const parsed = readJsonBody(raw, contentType);
	if (!parsed.ok) return refuse(parsed.status, parsed.error);

	const event = classifyWebhook(parsed.body);
	const selected = isSelected(event, selection);
	if (!selected.selected) {
		return answer(res, 200, { received: true, started: false, reason: selected.reason });
	}

	// Only a call that starts the workflow is remembered: a refusal for what the signature does not
	// cover (the media type, the charset) must not make the corrected call a "repeat" that never ran.
	if (verdict.signedCall && check.mode === 'hmac' && check.timestamp) {
		const memory = {
			staticData: context.getWorkflowStaticData('node'),
			processKey: `${context.getWorkflow().id ?? ''}/${context.getNode().id}`,
		};
		const seen = judgeRepeat(
			memory,
			verdict.signedCall,
			check.timestamp.toleranceSeconds,
			nowSeconds,
		);
		if (seen === 'repeat') {
			// 2xx, as for the first copy: a sender retrying a call that was received has nothing to fix.
			context.logger.debug('Chat Messaging Trigger ignored a repeat of a signed call');
			return answer(res, 200, { received: true, started: false, reason: REPEATED_CALL });
		}
		// 5xx: a sender that signs its retry anew (new timestamp) gets it through; the owner is told
		// that more calls arrive within the window than the trigger can remember.
		if (seen === 'unrememberable') return refuse(503, UNREMEMBERABLE_CALL, true);
	}

	answer(res, 200, { received: true, started: true });
	return {
		noWebhookResponse: true,
		workflowData: [
			[{ json: { ...event, receivedAt: new Date().toISOString(), body: parsed.body } }],
		],
	};
}
