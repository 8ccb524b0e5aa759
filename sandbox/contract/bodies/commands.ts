/*
 * The commands on `POST /api/v1/events` and the contacts of `POST /subscribers`, as the stand-in
 * reads them. docs/openapi.yaml (sendEvent, createContacts) has held every body to its shape before
 * a handler runs, so these are types for what a handler reads, and the rules the document states
 * only in words.
 */

/** A contact as the spec writes it [S §2.1]: the number names it, the rest is optional. */
export interface ContactBody {
	phone_number: string;
	name?: string;
	email?: string;
	metadata?: Record<string, string>;
}

/** `header_media` is a link, or a link with a file name; every other value fills a placeholder. */
export type TemplateValues = Record<string, unknown>;

export interface SendTemplateBody {
	event_type: 'send_template_message';
	contact: ContactBody;
	template_message: {
		chat_template_id: string;
		liquid_values?: TemplateValues;
		/** The four below are shown as nullable by the spec's schema, so null is taken for them. */
		retry_until?: string | null;
		retry_window?: { start_at: string; end_at: string; timezone?: string } | null;
		business_phone_number?: string | null;
		reply_automation?: { app_id: string } | null;
	};
}

export interface ConnectToAiAgentBody {
	event_type: 'connect_to_ai_agent';
	/** Besides name, e-mail and number, the write-only contact takes further text properties. */
	contact: { phone_number: string } & Record<string, string>;
	template_message: { chat_template_id: string; liquid_values: Record<string, string> };
	ai_agent: { id: string };
}

/** Either published shape, or both [S §2.5]: see assignAgentErrors. */
export interface AssignAgentBody {
	event_type: 'assign_agent';
	contact: { name: string; phone_number: string };
	assign_agent?: { agent_email: string; open_chat_on_assignment: boolean };
	agent?: { email: string };
	open_chat_on_assignment?: boolean;
}

export interface CloseConversationBody {
	event_type: 'close_conversation';
	contact: { name: string; phone_number: string };
}

/** "retry_until must be a datetime in the future" [S §8], against the stand-in's clock. */
export function retryUntilErrors(body: SendTemplateBody, now: number): Record<string, string[]> {
	const until = body.template_message.retry_until;
	if (typeof until !== 'string' || Date.parse(until) > now) return {};
	return { 'template_message.retry_until': ['must lie in the future'] };
}

/**
 * The spec publishes two shapes of one command [S §2.5]: the schema's nested `assign_agent`, and
 * the sample's `agent.email` with a top-level `open_chat_on_assignment`. The sample's shape is its
 * two fields together; a body brings one shape or both, and both must then name the same agent
 * and the same choice.
 */
export function assignAgentErrors(body: AssignAgentBody): Record<string, string[]> {
	const { assign_agent: nested, agent, open_chat_on_assignment: openChat } = body;
	if (agent === undefined && openChat !== undefined)
		return { agent: ['is required with open_chat_on_assignment (the published sample)'] };
	if (agent !== undefined && openChat === undefined)
		return { open_chat_on_assignment: ['is required with agent (the published sample)'] };
	if (nested === undefined && agent === undefined)
		return { assign_agent: ['is required (or agent.email with open_chat_on_assignment)'] };
	if (nested === undefined || agent === undefined) return {};
	if (nested.agent_email !== agent.email || nested.open_chat_on_assignment !== openChat)
		return { assign_agent: ['disagrees with agent.email / open_chat_on_assignment'] };
	return {};
}
