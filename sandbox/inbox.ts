import type { RecordedRequest } from './requestLog';
import { seedTemplates } from './service/templateCatalogue';

/*
 * The contacts' inbox: every template message the stand-in accepted, grouped by the number it
 * went to, with the values it carried and their links clickable (GET /_sandbox/inbox). With
 * `npm start` nobody receives the messages on a phone, so whoever plays the contact opens this page
 * in a browser, for example to open the refund example's approval link (issue 36).
 */

const EVENTS_PATH = '/api/v1/events';

export interface InboxMessage {
	receivedAt: string;
	messageId?: string;
	templateId: string;
	values: Record<string, string>;
}

interface SentEvent {
	event_type?: unknown;
	contact?: { phone_number?: unknown };
	template_message?: { chat_template_id?: unknown; liquid_values?: unknown };
}

/**
 * The template messages each number received, newest first; the number that received the newest
 * message first, so the link just sent (a refund's approval link) is at the top of the page.
 */
export function inboxOf(requests: RecordedRequest[]): Map<string, InboxMessage[]> {
	const inbox = new Map<string, InboxMessage[]>();
	for (const request of [...requests].reverse()) {
		const accepted = request.status >= 200 && request.status < 300;
		if (request.method !== 'POST' || request.path !== EVENTS_PATH || !accepted) continue;
		if (request.faulted || request.throttled || request.meanwhile) continue;
		const event = (request.body ?? {}) as SentEvent;
		const number = event.contact?.phone_number;
		if (typeof number !== 'string') continue;
		const values: Record<string, string> = {};
		const liquid = event.template_message?.liquid_values;
		if (liquid && typeof liquid === 'object') {
			for (const [name, value] of Object.entries(liquid))
				values[name] = typeof value === 'string' ? value : JSON.stringify(value);
		}
		const templateId = event.template_message?.chat_template_id;
		const messages = inbox.get(number) ?? [];
		messages.push({
			receivedAt: request.receivedAt,
			...(request.messageId === undefined ? {} : { messageId: request.messageId }),
			templateId: typeof templateId === 'string' ? templateId : JSON.stringify(templateId ?? ''),
			values,
		});
		inbox.set(number, messages);
	}
	return inbox;
}

const TEMPLATE_PATH = /^\/api\/v1\/whats_app_templates\/([^/]+)$/;

/*
 * A person picked the template by its name ("welcome (en)"), not by its id. The names are the
 * account's templates as the stand-in starts (their ids are fixed), with every rename in the
 * request log (an accepted PATCH /api/v1/whats_app_templates/:id with a template_name), so a page
 * shows each template by the name it has now. One created while it runs is shown by the id it was
 * sent with: the log holds the request that created it, not the id it was given.
 */
function templateNames(requests: RecordedRequest[]): Map<string, string> {
	const names = new Map(
		seedTemplates().map((template) => [template.id, [template.template_name, template.language]]),
	);
	for (const request of requests) {
		const id = TEMPLATE_PATH.exec(request.path)?.[1];
		const accepted = request.status >= 200 && request.status < 300 && !request.faulted;
		if (request.method !== 'PATCH' || id === undefined || !accepted) continue;
		const renamed = (request.body as { whats_app_template?: { template_name?: unknown } })
			?.whats_app_template?.template_name;
		const known = names.get(decodeURIComponent(id));
		if (typeof renamed === 'string' && known) known[0] = renamed;
	}
	return new Map([...names].map(([id, [name, language]]) => [id, `${name} (${language})`]));
}

function templateShown(id: string, names: Map<string, string>): string {
	const name = names.get(id);
	return name === undefined ? id : `${name} · ${id}`;
}

function escape(text: string): string {
	return text.replace(
		/[&<>"']/g,
		(character) =>
			({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[character]!,
	);
}

function shown(value: string): string {
	return /^https?:\/\/\S+$/i.test(value)
		? `<a href="${escape(value)}" target="_blank" rel="noopener">${escape(value)}</a>`
		: escape(value);
}

/** The inbox as a page: one section per number, newest message first (inboxOf). */
export function inboxPage(requests: RecordedRequest[]): string {
	const inbox = inboxOf(requests);
	const names = templateNames(requests);
	const sections = [...inbox.entries()].map(([number, messages]) => {
		const items = messages.map((message) => {
			const values = Object.entries(message.values)
				.map(([name, value]) => `<li><b>${escape(name)}</b>: ${shown(value)}</li>`)
				.join('');
			return `<li>${escape(message.receivedAt)} · template ${escape(templateShown(message.templateId, names))}${message.messageId ? ` · ${escape(message.messageId)}` : ''}<ul>${values}</ul></li>`;
		});
		return `<section><h2>${escape(number)}</h2><ul>${items.join('')}</ul></section>`;
	});
	const body =
		sections.length > 0
			? sections.join('')
			: '<p>No messages yet. Send one (fill in the form example, or run a workflow), then reload this page.</p>';
	return `<!doctype html><html><head><meta charset="utf-8"><title>Stand-in inbox</title></head><body><h1>Messages each number received</h1><p>What the local stand-in service accepted, newest first. Open a link as the contact would.</p>${body}</body></html>`;
}
