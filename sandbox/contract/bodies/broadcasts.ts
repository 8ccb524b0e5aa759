import type { TemplateValues } from './commands';

/*
 * `send_broadcast` on `POST /api/v1/events`, as the stand-in reads it. docs/openapi.yaml
 * (SendBroadcastCommand) has held the body to its shape before a handler runs; what is left here
 * is its audience, which the document gives as two alternatives.
 */

/** The reference says instant|gradual, the vendor's MCP server instant|smart: all three are taken. */
export type DeliveryMode = 'instant' | 'gradual' | 'smart';
/** What the list's `status` filter names (vendor-clients). */
export type BroadcastStatus = 'archived' | 'draft' | 'queued' | 'sending' | 'sent';

export interface BroadcastRecipient {
	phone_number: string;
	name?: string;
	liquid_values?: TemplateValues;
}

export interface SendBroadcastBody {
	event_type: 'send_broadcast';
	broadcast: {
		name: string;
		chat_template_id: string;
		delivery_mode?: DeliveryMode;
		liquid_values?: TemplateValues;
		contacts?: BroadcastRecipient[];
		audience_id?: string;
		scheduled_launch_time?: string;
		/** The sending number, digits only. */
		phone_number?: string;
	};
	skip_phone_validation?: boolean;
	skip_liquid_values_validation?: boolean;
}

/** "`contacts` and `audience_id` exclude each other; one of them is required." */
export function audienceErrors({ broadcast }: SendBroadcastBody): Record<string, string[]> {
	const { contacts, audience_id: audience } = broadcast;
	if (contacts !== undefined && audience !== undefined)
		return {
			'broadcast.audience_id': ['cannot be given together with contacts: choose one audience'],
		};
	if (contacts === undefined && audience === undefined)
		return { 'broadcast.contacts': ['is required (or audience_id)'] };
	return {};
}
