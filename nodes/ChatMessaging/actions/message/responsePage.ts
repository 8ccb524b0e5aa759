import type {
	IDataObject,
	IWebhookDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';

import { isCurrentWait } from './currentWait';

/*
 * The page behind a Send Template and Wait for Response link, served through the node's webhook
 * once n8n has checked the link's signature. Opening the link (GET) only shows the choice: link
 * previews, mail gateways and security scanners open links by themselves, and must not answer for
 * the contact. Only the page's own form (POST) records an answer. An answer that is not one of the
 * choices records nothing and shows the page again, so the execution keeps waiting.
 *
 * Once an answer is recorded the execution goes on; n8n itself then answers that link (a second
 * press, or a press after the wait ended) with its "no action required" page, before this code.
 * n8n cannot tell this node's waits in one execution apart (it signs the same address for each), so
 * a link for an earlier wait of this same node is answered here, with a page like n8n's, and
 * records nothing (currentWait.ts).
 */

/**
 * The page (GET) and the answer (POST), at the execution's resume address followed by the node's
 * ID, which is what getSignedResumeUrl signs. Restart webhooks: n8n serves them only while this
 * node's execution waits, and never registers them when a workflow is activated, so there is
 * nothing to create on or delete from the service (the create/checkExists/delete lifecycle of a
 * trigger's webhooks does not apply).
 */
export const sendAndWaitWebhooks: IWebhookDescription[] = (['GET', 'POST'] as const).map(
	(httpMethod) => ({
		name: 'default',
		httpMethod,
		responseMode: 'onReceived',
		responseData: '',
		path: '={{ $nodeId }}',
		restartWebhook: true,
		isFullPath: true,
	}),
);

/** Longest free-text answer taken; a longer one is refused, not cut. */
export const MAX_TEXT_ANSWER = 4000;

export type ResponseType = 'approval' | 'freeText';

export interface ResponseChoices {
	responseType: ResponseType;
	text: string;
	approveLabel: string;
	/** Set when the contact may also disapprove. */
	disapproveLabel?: string;
	buttonLabel: string;
}

export function escapeHtml(text: string): string {
	return text
		.replace(/&/g, '&amp;')
		.replace(/</g, '&lt;')
		.replace(/>/g, '&gt;')
		.replace(/"/g, '&quot;')
		.replace(/'/g, '&#39;');
}

function page(title: string, body: string): string {
	return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style>
body{font-family:system-ui,-apple-system,sans-serif;margin:0;padding:24px 16px;background:#f5f5f5;color:#1a1a1a}
main{max-width:28rem;margin:0 auto;background:#fff;border-radius:12px;padding:20px}
p{white-space:pre-wrap;font-size:1.05rem;line-height:1.45}
button{display:block;width:100%;font-size:1.1rem;padding:14px;margin:12px 0 0;border-radius:8px;border:1px solid #1a1a1a;background:#fff;color:#1a1a1a}
button[value="approve"],button[type="submit"]:only-of-type{background:#1a1a1a;color:#fff}
textarea{box-sizing:border-box;width:100%;min-height:8rem;font:inherit;padding:8px}
</style>
</head>
<body><main>${body}</main></body>
</html>`;
}

/** The page a GET shows: the text and the choice, in a form that posts back to this same link. */
export function choicePage(choices: ResponseChoices, notice?: string): string {
	const parts: string[] = [];
	if (notice !== undefined)
		parts.push(`<p role="alert"><strong>${escapeHtml(notice)}</strong></p>`);
	if (choices.text !== '') parts.push(`<p>${escapeHtml(choices.text)}</p>`);
	// No action: the form posts to the page's own address, signature included.
	parts.push('<form method="post">');
	if (choices.responseType === 'freeText') {
		parts.push(
			`<textarea name="text" required maxlength="${MAX_TEXT_ANSWER}" aria-label="Your answer"></textarea>`,
			`<button type="submit" name="answer" value="text">${escapeHtml(choices.buttonLabel)}</button>`,
		);
	} else {
		parts.push(
			`<button type="submit" name="answer" value="approve">${escapeHtml(choices.approveLabel)}</button>`,
		);
		if (choices.disapproveLabel !== undefined) {
			parts.push(
				`<button type="submit" name="answer" value="disapprove">${escapeHtml(choices.disapproveLabel)}</button>`,
			);
		}
	}
	parts.push('</form>');
	return page('Your answer', parts.join('\n'));
}

export const RECORDED_PAGE = page(
	'Answer recorded',
	'<p><strong>Thank you: your answer was recorded.</strong></p><p>You can close this page.</p>',
);

/** A link for an earlier question of this node: like n8n's page for a link that no longer applies. */
export const NO_ACTION_REQUIRED_PAGE = page(
	'No action required',
	'<p><strong>No action required</strong></p><p>This link is for an earlier question, which was answered or has ended. Nothing was recorded. You can close this page.</p>',
);

/** What a POST's form fields answer, or why they answer nothing. */
export function readAnswer(
	choices: ResponseChoices,
	body: IDataObject,
): { data: IDataObject } | { refused: string } {
	const answer = typeof body.answer === 'string' ? body.answer : undefined;
	if (choices.responseType === 'freeText') {
		const text = typeof body.text === 'string' ? body.text.trim() : '';
		if (text === '') return { refused: 'The answer is empty: nothing was recorded.' };
		if (text.length > MAX_TEXT_ANSWER) {
			return {
				refused: `The answer is longer than ${MAX_TEXT_ANSWER} characters: nothing was recorded.`,
			};
		}
		return { data: { text } };
	}
	if (answer === 'approve') return { data: { approved: true } };
	if (answer === 'disapprove' && choices.disapproveLabel !== undefined) {
		return { data: { approved: false } };
	}
	return { refused: 'That is not one of the choices: nothing was recorded.' };
}

function readChoices(context: IWebhookFunctions): ResponseChoices {
	const responseType =
		context.getNodeParameter('responseType', 'approval') === 'freeText' ? 'freeText' : 'approval';
	const approval = context.getNodeParameter('approvalOptions.values', {}) as IDataObject;
	const label = (value: unknown, fallback: string) =>
		typeof value === 'string' && value.trim() !== '' ? value.trim() : fallback;
	const text = context.getNodeParameter('responsePageText', '');
	return {
		responseType,
		text: typeof text === 'string' ? text.trim() : '',
		approveLabel: label(approval.approveLabel, 'Approve'),
		disapproveLabel:
			approval.approvalType === 'double' ? label(approval.disapproveLabel, 'Decline') : undefined,
		buttonLabel: label(context.getNodeParameter('responseButtonLabel', 'Send'), 'Send'),
	};
}

function setPageHeaders(context: IWebhookFunctions): void {
	const response = context.getResponseObject();
	response.setHeader('Content-Type', 'text/html; charset=utf-8');
	response.setHeader('Cache-Control', 'no-store');
	response.setHeader('Referrer-Policy', 'no-referrer');
	response.setHeader('X-Robots-Tag', 'noindex, nofollow');
}

function sendPage(context: IWebhookFunctions, status: number, html: string): void {
	setPageHeaders(context);
	context.getResponseObject().status(status).end(html);
}

/** The node's webhook: the page on GET, the answer on POST (n8n checked the signature first). */
export async function respondToLink(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	// Checked on GET too: the page of an earlier question offers no buttons that could not answer.
	if (!isCurrentWait(this)) {
		sendPage(this, 200, NO_ACTION_REQUIRED_PAGE);
		return { noWebhookResponse: true };
	}
	const choices = readChoices(this);
	if (this.getRequestObject().method !== 'POST') {
		sendPage(this, 200, choicePage(choices));
		return { noWebhookResponse: true };
	}
	const answer = readAnswer(choices, (this.getBodyData() ?? {}) as IDataObject);
	if ('refused' in answer) {
		sendPage(this, 400, choicePage(choices, answer.refused));
		return { noWebhookResponse: true };
	}
	// The item the node left waiting (sendAndWait.operation.ts): the input item and the event_id.
	const waiting = this.evaluateExpression('{{ $json }}', 0);
	const item = waiting !== null && typeof waiting === 'object' ? (waiting as IDataObject) : {};
	// n8n sends this page only once it has moved the execution from waiting to running, so a
	// second press that arrives meanwhile is refused by n8n rather than told it was recorded.
	setPageHeaders(this);
	return {
		webhookResponse: RECORDED_PAGE,
		workflowData: [
			[
				{
					json: {
						...item,
						answered: true,
						data: answer.data,
						respondedAt: new Date().toISOString(),
					},
					pairedItem: { item: 0 },
				},
			],
		],
	};
}
