import { createBroadcastLauncher } from './broadcastLaunch';
import { createBroadcastStore } from './broadcasts';
import { seedBroadcasts } from './broadcastSeeds';
import { DEFAULT_BUSINESS_NUMBER, DEFAULT_TIMINGS, type Clock, type Timings } from './clock';
import { unreachableReason } from './contactBook';
import { createEventStore, type EventId } from './events';
import { createMessageHistory } from './messageHistory';
import type { ServicePart } from './parts';
import type { Route, RouteAnswer } from './routes';
import { createTemplateMessageStore } from './templateMessages';
import { templateRoutes, type TemplateListing } from './templateRoutes';
import { createTemplateStore, missingVariables, type TemplateStore } from './templateStore';

/*
 * The send-side half of the stand-in: templates, broadcasts, events and message history, with
 * their state kept per instance. dispatch.ts serves `routes` after its own checks (auth, JSON) and
 * hands over what belongs to the events endpoint: `send_broadcast` bodies, and every accepted
 * command (serviceEndpoints.ts) so it can be polled.
 */

export interface SendSideOptions {
	/** The clock everything "later" is read from; a test pins and moves it. */
	now?: Clock;
	timings?: Partial<Timings>;
	/** How the template list is answered: page by page, all at once, or either (the default). */
	templateList?: TemplateListing;
}

/** An accepted send, shaped like the send_template_message / connect_to_ai_agent bodies. */
export interface TemplateMessageSend {
	/** The `cmsg_…` id the send was answered with. */
	messageId: string;
	/** When the send was answered with an event id too (connect_to_ai_agent), as it was written. */
	eventId?: EventId;
	/** Whether its event can be polled by the message id too (the stand-in's default: yes). */
	pollableByMessageId?: boolean;
	contact: { phone_number: string; name?: string };
	template_message: {
		chat_template_id: string;
		liquid_values?: Record<string, unknown>;
		business_phone_number?: string | null;
	};
}

export interface SendSideService extends ServicePart {
	routes: Route[];
	/** `send_broadcast`, served on the events endpoint beside the other commands. */
	events: { send_broadcast: (body: unknown) => RouteAnswer };
	/** Makes an accepted send pollable; answers the event id it can be polled by. */
	recordTemplateMessage(send: TemplateMessageSend): { eventId: EventId };
	/** Makes another accepted command (assign_agent) pollable by the event id it was answered with. */
	recordCommand(eventId: EventId, eventType: string): void;
	/** Whether the account has this template (any status): a send of one it lacks is refused. */
	knowsTemplate(id: string): boolean;
	/** The answer to `POST /api/v1/events` with `event_type: send_broadcast`. */
	handleSendBroadcast(body: unknown): RouteAnswer;
}

/** Why a single send fails once processed; the service accepts it first (201) and fails later. */
function failureOf(templates: TemplateStore, send: TemplateMessageSend): string | undefined {
	const template = templates.byId(send.template_message.chat_template_id);
	if (template === undefined)
		return `Template ${send.template_message.chat_template_id} was not found`;
	if (template.status !== 'approved') {
		return `Template ${template.template_name} (${template.language}) is ${template.status}, not approved`;
	}
	const missing = missingVariables(template, send.template_message.liquid_values ?? {});
	if (missing.length > 0) return `Missing variables: ${missing.join(', ')}`;
	return unreachableReason(send.contact.phone_number);
}

export function createSendSideService(options: SendSideOptions = {}): SendSideService {
	const now = options.now ?? Date.now;
	const timings: Timings = { ...DEFAULT_TIMINGS, ...options.timings };
	const templates = createTemplateStore(now, timings, options.templateList?.ids);
	const messages = createTemplateMessageStore(now, timings);
	const broadcasts = createBroadcastStore(now, timings, templates, messages);
	const events = createEventStore(now, timings, {
		resultOf(subject) {
			// The reference shows results for messages and campaigns only; a type alone is ours.
			if (subject.type === 'command') return { result: { type: subject.eventType }, failed: false };
			if (subject.type === 'campaign') {
				const broadcast = broadcasts.get(subject.broadcastId);
				if (broadcast === undefined) return undefined;
				return { result: { type: 'campaign', ...broadcasts.answer(broadcast) }, failed: false };
			}
			const message = messages.sent(subject.messageId);
			if (message === undefined) return undefined;
			const { id, status, failure_message, liquid_values } = messages.answer(message);
			return {
				result: { type: 'template_message', id, status, failure_message, liquid_values },
				failed: status === 'failed',
			};
		},
	});
	const history = createMessageHistory(now, messages);
	seedBroadcasts(broadcasts, now());
	const handleSendBroadcast = createBroadcastLauncher({ templates, broadcasts, events });

	return {
		routes: [
			...events.routes,
			...messages.routes,
			...history.routes,
			...broadcasts.routes,
			...templateRoutes(templates, options.templateList),
		],
		knowsTemplate(id) {
			return templates.byId(id) !== undefined;
		},
		recordTemplateMessage(send) {
			const at = now();
			messages.add({
				id: send.messageId,
				phoneNumber: send.contact.phone_number,
				...(send.contact.name === undefined ? {} : { name: send.contact.name }),
				chatTemplateId: send.template_message.chat_template_id,
				liquidValues: send.template_message.liquid_values ?? {},
				businessPhoneNumber: send.template_message.business_phone_number ?? DEFAULT_BUSINESS_NUMBER,
				broadcastId: null,
				createdAt: at,
				sentAt: at + timings.eventProcessingMs,
				failure: failureOf(templates, send),
			});
			const eventId = send.eventId ?? send.messageId;
			const aliases = send.pollableByMessageId === false ? [] : [send.messageId];
			events.add(eventId, { type: 'template_message', messageId: send.messageId }, aliases);
			return { eventId };
		},
		recordCommand(eventId, eventType) {
			events.add(eventId, { type: 'command', eventType });
		},
		handleSendBroadcast,
		events: { send_broadcast: handleSendBroadcast },
	};
}
