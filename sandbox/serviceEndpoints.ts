import { randomBytes } from 'node:crypto';
import {
	assignAgentErrors,
	retryUntilErrors,
	type AssignAgentBody,
	type ConnectToAiAgentBody,
	type ContactBody,
	type SendTemplateBody,
} from './contract/bodies/commands';
import { hasErrors, sendTemplateErrors } from './service/contractChecks';
import type { EventId } from './service/events';
import type { ServicePart } from './service/parts';
import { outsideContract, type RouteAnswer } from './service/routes';
import type { TemplateMessageSend } from './service/sendSideService';

/*
 * The commands the spec details: send_template_message, connect_to_ai_agent and assign_agent on the
 * events endpoint, and bulk contact creation. dispatch.ts has held each body to docs/openapi.yaml
 * (sendEvent, createContacts) before it comes here; what is checked here is what the document says
 * only in words. Every accepted command becomes an event that can be polled (the send side's
 * `GET /api/v1/events/:id`), so each is handed to a recorder. HTTP plumbing, auth and faults live
 * around it (server.ts puts them together).
 */

/** The stand-in's own assumption: the spec documents no batch size for bulk contact creation. */
export const MAX_CONTACTS_PER_CALL = 1000;

/** What keeps accepted commands pollable: the send side (sandbox/service/sendSideService.ts). */
export interface CommandRecorder {
	recordTemplateMessage(send: TemplateMessageSend): unknown;
	recordCommand(eventId: EventId, eventType: string): void;
	knowsTemplate?(id: string): boolean;
}

export interface CommandOptions {
	/**
	 * Refuse a send of a template the account does not have, 422 naming the field, as the service
	 * refuses an invalid payload. Off: accepted and failed later, which the engine tests' invented
	 * template ids rely on. On where a person meets the stand-in (npm start, npm run sandbox).
	 */
	refuseUnknownTemplates?: boolean;
	/**
	 * What a send's 201 body adds to the request it repeats: the message's `id` (the stand-in's
	 * default; the event is then also pollable by it), or the `event_id` alone, the one way the
	 * sources document to poll a send (`GET /api/v1/events/{event_id}`).
	 */
	sendAnswer?: 'message id' | 'event id';
	/**
	 * How the commands' answers write an event id: `text` (`evt_…`, the default) or `integer`. The
	 * interface and the reference type it a string; the reference writes other ids as integers, and
	 * docs/openapi.yaml takes either (ServiceId), so a client is tested against both. The event is
	 * polled by the same id and answers it as written.
	 */
	eventIds?: 'text' | 'integer';
}

const TEMPLATE_FIELD = 'template_message.chat_template_id';

export function randomId(prefix: string): string {
	return `${prefix}_${randomBytes(8).toString('hex')}`;
}

const refused = (errors: Record<string, string[]>): RouteAnswer => ({
	status: 422,
	body: { message: 'Parameter Error', code: 'invalid_parameters', errors },
});

/** The answer to a body, unless what the document says in words (`rules`) refuses it. */
function checked<B>(
	body: unknown,
	rules: (body: B) => Record<string, string[]>,
	then: (body: B) => RouteAnswer,
): RouteAnswer {
	const errors = rules(body as B);
	return hasErrors(errors) ? outsideContract(errors) : then(body as B);
}

/*
 * Every accepted command is an event the service can be asked about later (`GET
 * /api/v1/events/{event_id}`, docs/service-contract.md), so each answer names it in a Location
 * header. The stand-in's own choice: the spec shows no headers.
 */
const locationOf = (eventId: EventId) => ({ location: `/api/v1/events/${eventId}` });

/** What keeps what the commands make, so it can be read back (the account side). */
export interface CommandEffects {
	keepContacts(accepted: ContactBody[]): Array<{ id: string }>;
	assignAgent(contact: { name: string; phone_number: string }, agentEmail: string): void;
}

export function createCommandEndpoints(
	recorder: CommandRecorder,
	effects: CommandEffects,
	options: CommandOptions = {},
): ServicePart {
	/** The send's template, when the stand-in is to refuse templates the account lacks. */
	const unknownTemplate = (body: unknown): RouteAnswer | undefined => {
		if (!options.refuseUnknownTemplates || !recorder.knowsTemplate) return undefined;
		const message = (body as { template_message?: { chat_template_id?: unknown } } | null)
			?.template_message;
		const id = message?.chat_template_id;
		if (typeof id !== 'string' || recorder.knowsTemplate(id)) return undefined;
		return refused({ [TEMPLATE_FIELD]: [`template ${id} was not found in this account`] });
	};
	const byEventId = options.sendAnswer === 'event id';
	let eventsAnswered = 0;
	const newEventId = (): EventId =>
		options.eventIds === 'integer' ? 1000 + ++eventsAnswered : randomId('evt');
	return {
		events: {
			send_template_message: (body) =>
				unknownTemplate(body) ??
				checked(
					body,
					(send: SendTemplateBody) => ({
						...retryUntilErrors(send, Date.now()),
						...sendTemplateErrors(send),
					}),
					(send) => {
						const eventId = newEventId();
						const messageId = randomId('cmsg');
						recorder.recordTemplateMessage({
							messageId,
							eventId,
							pollableByMessageId: !byEventId,
							...send,
						});
						// The spec's 201 body repeats the request. The stand-in adds the message's id, the one
						// its delivery reports carry as data.message.id, so a send can be matched with them;
						// or, told so, the event id only.
						const added = byEventId ? { event_id: eventId } : { id: messageId };
						return {
							status: 201,
							body: { ...(body as Record<string, unknown>), ...added },
							headers: locationOf(eventId),
							messageId,
							acceptedTemplateMessage: { messageId, contact: send.contact },
						};
					},
				),
			connect_to_ai_agent: (body) =>
				unknownTemplate(body) ??
				((connect: ConnectToAiAgentBody) => {
					const eventId = newEventId();
					// It sends a template message too, so it gets a message id like any other send.
					const messageId = randomId('cmsg');
					recorder.recordTemplateMessage({
						messageId,
						eventId,
						contact: connect.contact,
						template_message: connect.template_message,
					});
					return {
						status: 200,
						body: { status: 'success', event_id: eventId },
						headers: locationOf(eventId),
						messageId,
					};
				})(body as ConnectToAiAgentBody),
			assign_agent: (body) =>
				checked(body, assignAgentErrors, (assign: AssignAgentBody) => {
					const eventId = newEventId();
					recorder.recordCommand(eventId, 'assign_agent');
					// assignAgentErrors has required one of the two shapes, and both to agree when sent.
					const agentEmail = assign.assign_agent?.agent_email ?? assign.agent?.email;
					if (agentEmail !== undefined) effects.assignAgent(assign.contact, agentEmail);
					// The spec's answer is an empty object; the event is named only in the header.
					return { status: 200, body: {}, headers: locationOf(eventId) };
				}),
		},
		routes: [
			{
				method: 'POST',
				pattern: '/subscribers',
				handler: ({ body }) => createContactsAnswer(body, effects),
			},
		],
	};
}

function createContactsAnswer(body: unknown, effects: CommandEffects): RouteAnswer {
	// The older reference posts one contact object here too ("Create a contact on Peach").
	const contacts = (Array.isArray(body) ? body : [body]) as ContactBody[];
	if (contacts.length > MAX_CONTACTS_PER_CALL) {
		return { status: 413, body: { message: 'Payload Too Large' } };
	}
	// Kept, so Contact → Get reads back what was created. The spec shows a single contact object
	// as the answer, whatever the batch size: the first one as kept (a contact that existed keeps
	// its other details and merges its metadata), never a contact the service does not hold.
	const [first] = effects.keepContacts(contacts);
	return { status: 201, body: first };
}
