import { z } from 'zod';

import type { RecordedRequest } from './requestLog';
import { isAcceptedSend } from './requestLog';

/*
 * The stand-in plays the contact who received a template message: it finds a link in the message's
 * variables (as the phone would show it), opens it as the phone's browser would, and presses one of
 * the page's buttons, so a Send Template and Wait for Response workflow runs to its end with no
 * phone and no account. Reached through the control API: POST /_sandbox/contact/answer.
 */

export const contactAnswerBody = z
	.object({
		/** Whose message: the newest accepted template message to this number; any number if left out. */
		phoneNumber: z.string().min(1).optional(),
		/** The variable holding the link; without it, the first variable whose value is an http(s) link. */
		variable: z.string().min(1).optional(),
		/**
		 * For a URL button with a dynamic suffix: the start of the link the template holds. The
		 * variable's value is appended to it, as the phone does when the button is tapped.
		 */
		linkStart: z.string().url().optional(),
		/** What the contact does: only open the link, or open it and press a button. */
		action: z.enum(['open', 'approve', 'disapprove', 'text']),
		/** The answer typed in, for action `text`. */
		text: z.string().optional(),
		/** Presses the page's form this many times (a second press must keep the first answer). */
		presses: z.number().int().min(1).max(5).default(1),
	})
	.strict()
	.refine((body) => body.action !== 'text' || body.text !== undefined, {
		message: 'action "text" needs the text the contact writes',
		path: ['text'],
	});

export type ContactAnswerRequest = z.infer<typeof contactAnswerBody>;

interface PageSeen {
	status: number;
	/** The page's words, tags removed. */
	text: string;
	/** The values of the page's answer buttons (approve, disapprove, text). */
	buttons: string[];
	hasForm: boolean;
}

type ControlAnswer = { status: number; body: unknown };

interface TemplateSend {
	contact?: { phone_number?: string };
	template_message?: { liquid_values?: Record<string, unknown> };
}

function digits(phone: string): string {
	return phone.replace(/\D/g, '');
}

function newestMessage(
	requests: RecordedRequest[],
	phoneNumber?: string,
): TemplateSend | undefined {
	for (let index = requests.length - 1; index >= 0; index--) {
		const request = requests[index];
		if (request.path !== '/api/v1/events' || !isAcceptedSend(request)) continue;
		const body = request.body as (TemplateSend & { event_type?: string }) | undefined;
		if (body?.event_type !== 'send_template_message') continue;
		const to = body.contact?.phone_number;
		if (phoneNumber === undefined || (to !== undefined && digits(to) === digits(phoneNumber)))
			return body;
	}
	return undefined;
}

function findLink(
	message: TemplateSend,
	variable: string | undefined,
	linkStart: string | undefined,
): string | { error: string } {
	const values = message.template_message?.liquid_values ?? {};
	if (variable !== undefined) {
		const value = Object.prototype.hasOwnProperty.call(values, variable)
			? values[variable]
			: undefined;
		if (typeof value !== 'string' || value === '')
			return { error: `the message has no variable "${variable}" with text in it` };
		return linkStart === undefined ? value : linkStart + value;
	}
	if (linkStart !== undefined) return { error: 'linkStart needs the variable it is completed by' };
	const link = Object.values(values).find(
		(value): value is string => typeof value === 'string' && /^https?:\/\//i.test(value),
	);
	return link ?? { error: 'none of the message variables holds an http(s) link' };
}

function decodeEntities(text: string): string {
	return text
		.replace(/&lt;/g, '<')
		.replace(/&gt;/g, '>')
		.replace(/&quot;/g, '"')
		.replace(/&#39;/g, "'")
		.replace(/&amp;/g, '&');
}

async function read(response: Response): Promise<PageSeen> {
	const html = await response.text();
	const buttons = [...html.matchAll(/<button\b[^>]*\bvalue="([^"]*)"/gi)].map((match) =>
		decodeEntities(match[1]),
	);
	const text = decodeEntities(
		html
			.replace(/<(style|script)\b[\s\S]*?<\/\1>/gi, ' ')
			.replace(/<[^>]+>/g, ' ')
			.replace(/\s+/g, ' ')
			.trim(),
	);
	return {
		status: response.status,
		text,
		buttons,
		hasForm: /<form\b[^>]*method="post"/i.test(html),
	};
}

/** Opens the link from the newest message, and presses the chosen button on its page. */
export async function answerAsContact(
	requests: RecordedRequest[],
	request: ContactAnswerRequest,
): Promise<ControlAnswer> {
	const message = newestMessage(requests, request.phoneNumber);
	if (message === undefined) {
		return {
			status: 404,
			body: {
				message: `No accepted template message${request.phoneNumber ? ` to ${request.phoneNumber}` : ''} yet`,
			},
		};
	}
	const link = findLink(message, request.variable, request.linkStart);
	if (typeof link !== 'string') return { status: 404, body: { message: link.error } };

	const opened = await read(await fetch(link, { redirect: 'manual' }));
	if (request.action === 'open') return { status: 200, body: { link, opened } };
	if (!opened.hasForm || !opened.buttons.includes(request.action)) {
		return {
			status: 409,
			body: {
				message: `The page has no "${request.action}" button to press`,
				link,
				opened,
			},
		};
	}
	// The page's form posts to the page's own address, as a browser submits it.
	const form = new URLSearchParams({ answer: request.action });
	if (request.action === 'text') form.set('text', request.text ?? '');
	const pressed: PageSeen[] = [];
	for (let press = 0; press < request.presses; press++) {
		pressed.push(
			await read(
				await fetch(link, {
					method: 'POST',
					redirect: 'manual',
					headers: { 'content-type': 'application/x-www-form-urlencoded' },
					body: form.toString(),
				}),
			),
		);
	}
	return { status: 200, body: { link, opened, pressed } };
}
