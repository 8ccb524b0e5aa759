import { audienceErrors, type SendBroadcastBody } from '../contract/bodies/broadcasts';
import { DEFAULT_BUSINESS_NUMBER, newId } from './clock';
import { audiences } from './contactBook';
import type { BroadcastStore, LaunchContact } from './broadcasts';
import type { createEventStore } from './events';
import { hasErrors } from './contractChecks';
import { ok, outsideContract, parameterError, type RouteAnswer } from './routes';
import { missingVariables, type TemplateStore } from './templateStore';

/*
 * `POST /api/v1/events` with `event_type: send_broadcast`. dispatch.ts owns the events endpoint and
 * hands these bodies over, held to docs/openapi.yaml (SendBroadcastCommand) already. Checked like
 * the service: one audience (contacts or audience_id, which the document gives as alternatives), a known
 * and approved template, a known audience, and every recipient's variables (the template's
 * placeholders, and `header_media` for a media header) unless `skip_liquid_values_validation`.
 * Accepted launches are answered 200 `{"status":"success","event_id":"evt_…"}`, as the service
 * answers connect_to_ai_agent, with `Location: /api/v1/events/evt_…`; the event is then polled on
 * `GET /api/v1/events/:id`.
 */

/** A 422 listing thousands of contacts helps nobody: the first ones, then a count. */
const MAX_LISTED_RECIPIENTS = 20;

interface Dependencies {
	templates: TemplateStore;
	broadcasts: BroadcastStore;
	events: ReturnType<typeof createEventStore>;
}

export function createBroadcastLauncher({ templates, broadcasts, events }: Dependencies) {
	return function handleSendBroadcast(body: unknown): RouteAnswer {
		const launch = body as SendBroadcastBody;
		const audience = audienceErrors(launch);
		if (hasErrors(audience)) return outsideContract(audience);
		const { broadcast, skip_liquid_values_validation: skipVariables } = launch;

		const template = templates.byId(broadcast.chat_template_id);
		if (template === undefined) {
			return parameterError({
				'broadcast.chat_template_id': ['is not a template of this account'],
			});
		}
		if (template.status !== 'approved') {
			return parameterError({
				'broadcast.chat_template_id': [
					`is ${template.status}: only an approved template can be sent`,
				],
			});
		}

		let recipients: LaunchContact[];
		if (broadcast.audience_id !== undefined) {
			// Own keys only: "constructor" or "toString" is no audience, whatever an object inherits.
			const audience = Object.prototype.hasOwnProperty.call(audiences, broadcast.audience_id)
				? audiences[broadcast.audience_id]
				: undefined;
			if (audience === undefined) {
				return parameterError({ 'broadcast.audience_id': ['is not an audience of this account'] });
			}
			recipients = audience;
		} else recipients = broadcast.contacts!;

		if (skipVariables !== true) {
			const shared = broadcast.liquid_values ?? {};
			const errors: Record<string, string[]> = {};
			let short = 0;
			recipients.forEach((recipient, k) => {
				const values: Record<string, unknown> = { ...shared, ...recipient.liquid_values };
				const missing = missingVariables(template, values);
				if (missing.length === 0) return;
				short++;
				if (short > MAX_LISTED_RECIPIENTS) return;
				// An audience's contacts are not in the body: their gaps are the broadcast's values'.
				if (broadcast.audience_id === undefined) {
					errors[`broadcast.contacts[${k}].liquid_values`] = [`misses ${missing.join(', ')}`];
				} else {
					(errors['broadcast.liquid_values'] ??= []).push(
						`misses ${missing.join(', ')} for audience contact ${recipient.phone_number}`,
					);
				}
			});
			if (short > MAX_LISTED_RECIPIENTS) {
				errors['broadcast'] = [
					`${short} recipients miss variables; the first ${MAX_LISTED_RECIPIENTS} are listed`,
				];
			}
			if (short > 0) return parameterError(errors, 'missing_variables');
		}

		const launched = broadcasts.launch({
			name: broadcast.name,
			chatTemplateId: template.id,
			deliveryMode: broadcast.delivery_mode ?? 'instant',
			liquidValues: broadcast.liquid_values ?? {},
			contacts: recipients,
			audienceId: broadcast.audience_id ?? null,
			phoneNumber: broadcast.phone_number ?? DEFAULT_BUSINESS_NUMBER,
			scheduledLaunchTime:
				broadcast.scheduled_launch_time === undefined
					? null
					: Date.parse(broadcast.scheduled_launch_time),
		});
		const eventId = newId('evt');
		events.add(eventId, { type: 'campaign', broadcastId: launched.id });
		// Like every events answer of the stand-in, the event is named in a Location header too.
		return {
			...ok({ status: 'success', event_id: eventId }),
			headers: { location: `/api/v1/events/${eventId}` },
		};
	};
}
