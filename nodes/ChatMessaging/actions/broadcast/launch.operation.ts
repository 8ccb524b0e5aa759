import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { SendBroadcastBody } from '../../../shared/schemas/broadcasts';
import {
	MAX_BROADCAST_CONTACTS,
	launchBroadcastAnswer,
	sendBroadcastBody,
} from '../../../shared/schemas/broadcasts';
import type { ServiceAnswer } from '../../../shared/transport';
import { InvalidParameter, checkBody } from '../../../shared/validation';
import { readOneId } from '../message/messageReaders';
import type { Action, BatchOperation, PerItemOperation, PreparedRequest } from '../operationKinds';
import type { OperationRun } from '../run/operationRun';
import { runBatches } from '../run/batch';
import { runPerItem } from '../run/perItem';
import { answerFields, nodeOutput } from '../run/serviceAnswers';
import type { BroadcastSettings } from './broadcastSettings';
import type { ItemTemplates } from '../../methods/templateSend';
import { isVersion2, readItemTemplates } from '../../methods/templateSend';
import {
	checkSameSettings,
	launchLabelsOf,
	readBroadcastSettings,
	settingsMayVary,
} from './broadcastSettings';
import { AUDIENCE_LABEL, launchDescription } from './launch.description';
import type { BroadcastContact } from './launchContacts';
import { CONTACT_PHONE_LABEL, contactReader, contactVariableNames } from './launchContacts';

/*
 * Launch: `POST /api/v1/events` `{event_type: "send_broadcast", broadcast: {…}}`
 * (docs/service-contract.md, "The operations named without detail"). A launch is a send: the
 * transport never repeats it after the service may have received it.
 *
 * Its kind depends on the audience:
 * - Audience ID: one launch per input item (PerItemOperation), since each item may name its own
 *   audience. Two items that would send the same template to the same audience are refused: with a
 *   fixed Audience ID and N input items that is N copies to the same people.
 * - Contacts From Input Items: all items are ONE broadcast (a BatchOperation whose one batch holds
 *   every item). More items than a broadcast takes are refused, never split into several broadcasts.
 */

const path = '/api/v1/events';

/** IDs of other kinds, pasted where an audience ID belongs. */
const NOT_AN_AUDIENCE = [
	['wat_', 'a template ID'],
	['cmp_', 'a broadcast ID'],
	['evt_', 'an event ID'],
	['aiflw_', 'an AI agent ID'],
] as const;

function settingsOutput(settings: BroadcastSettings): IDataObject {
	const output: IDataObject = {
		name: settings.name,
		templateId: settings.chat_template_id,
		deliveryMode: settings.delivery_mode ?? null,
	};
	if (settings.scheduled_launch_time !== undefined)
		output.scheduledLaunchTime = settings.scheduled_launch_time;
	return output;
}

/** One launch per item, to the audience the item names; a fresh one per run (it remembers audiences). */
function launchToAudience(templates: ItemTemplates): PerItemOperation<SendBroadcastBody> {
	const launchedBy = new Map<string, number>();
	return {
		description: launchDescription,
		sendsAMessage: true,
		prepare(itemIndex): PreparedRequest<SendBroadcastBody> {
			const settings = readBroadcastSettings.call(this, itemIndex, templates);
			const labels = launchLabelsOf(this);
			const label = labels['broadcast.audience_id'];
			const audienceId = readOneId(
				this.getNodeParameter('audienceId', itemIndex),
				label,
				NOT_AN_AUDIENCE,
			);
			const key = JSON.stringify([audienceId, settings.chat_template_id]);
			const earlier = launchedBy.get(key);
			if (earlier !== undefined) {
				throw new InvalidParameter(
					label,
					`"${audienceId}" with template ${settings.chat_template_id} is already launched by item ${earlier}: each input item launches its own broadcast, so this would send the same template to the same people twice. To launch once, let one item reach this node (node Settings → Execute Once)`,
				);
			}
			const body = checkBody(
				sendBroadcastBody,
				{ event_type: 'send_broadcast', broadcast: { ...settings, audience_id: audienceId } },
				labels,
			);
			launchedBy.set(key, itemIndex);
			return { method: 'POST', path, body };
		},
		toOutput: (answer: ServiceAnswer, { body }: PreparedRequest<SendBroadcastBody>) =>
			nodeOutput(
				answerFields(answer),
				{
					launched: true,
					...settingsOutput(body.broadcast),
					audienceId: body.broadcast.audience_id ?? null,
					statusCode: answer.statusCode,
					retries: answer.retries,
				},
				['scheduledLaunchTime'],
			),
		answer: launchBroadcastAnswer,
	};
}

interface ContactEntry {
	contact: BroadcastContact;
	settings: BroadcastSettings;
}

/** An error of the first item's settings, as every other item reports it (they share the broadcast). */
function sharedSettingsError(error: unknown): unknown {
	if (!(error instanceof InvalidParameter)) return error;
	return new InvalidParameter(
		error.parameter,
		`${error.reason} (in item 0, which sets the broadcast for all items: nothing was launched)`,
	);
}

function launchToContacts(
	templates: ItemTemplates,
	labels: Record<string, string>,
): BatchOperation<ContactEntry, SendBroadcastBody> {
	return {
		description: launchDescription,
		// One batch, always: one broadcast. Never split (that would be several broadcasts).
		batchSize: { default: MAX_BROADCAST_CONTACTS, max: MAX_BROADCAST_CONTACTS },
		batchesInParallel: { default: 1, max: 1 },
		skipsItemsAlreadySent: true,
		sendsAMessage: true,
		entryReader(this: IExecuteFunctions) {
			const itemCount = this.getInputData().length;
			const readContact = contactReader.call(this);
			const mayVary = settingsMayVary.call(this);
			let first: { settings: BroadcastSettings } | { error: unknown } | undefined;
			const numbers = new Map<string, number>();
			return (itemIndex) => {
				if (itemCount > MAX_BROADCAST_CONTACTS) {
					throw new InvalidParameter(
						AUDIENCE_LABEL,
						`gets ${itemCount} input items, more contacts than one broadcast takes (at most ${MAX_BROADCAST_CONTACTS}): nothing was launched. Split the list into several launches`,
					);
				}
				if (first === undefined) {
					try {
						first = {
							settings: readBroadcastSettings.call(this, 0, templates, contactVariableNames),
						};
					} catch (error) {
						first = { error };
					}
				}
				if ('error' in first)
					throw itemIndex === 0 ? first.error : sharedSettingsError(first.error);
				if (itemIndex > 0 && mayVary)
					checkSameSettings.call(
						this,
						first.settings,
						readBroadcastSettings.call(this, itemIndex, templates, contactVariableNames),
					);
				const contact = readContact(itemIndex);
				const earlier = numbers.get(contact.phone_number);
				if (earlier !== undefined) {
					throw new InvalidParameter(
						CONTACT_PHONE_LABEL,
						`${contact.phone_number} is already the contact of item ${earlier}: one broadcast messages each number once`,
					);
				}
				numbers.set(contact.phone_number, itemIndex);
				return { contact, settings: first.settings };
			};
		},
		request: (entries) => ({
			method: 'POST',
			path,
			body: checkBody(
				sendBroadcastBody,
				{
					event_type: 'send_broadcast',
					broadcast: { ...entries[0].settings, contacts: entries.map((entry) => entry.contact) },
				},
				labels,
			),
		}),
		answer: launchBroadcastAnswer,
		succeeded: { launched: true },
		toOutput: ({ contact, settings }) => ({ contact, ...settingsOutput(settings) }),
	};
}

/** The launch's event id, flat on every item of the broadcast, as a launch to an audience has it. */
function withEventId(item: INodeExecutionData): INodeExecutionData {
	const answer = item.json.batchResponse as IDataObject | undefined;
	// Text or an integer, as the service wrote it.
	if (typeof answer?.event_id !== 'string' && typeof answer?.event_id !== 'number') return item;
	return { ...item, json: { ...item.json, event_id: answer.event_id } };
}

export const launch: Action = {
	description: launchDescription,
	async run(this: IExecuteFunctions, run: OperationRun) {
		const audience = this.getNodeParameter('audience', 0, 'audienceId');
		if (audience !== 'contactsFromInput' && audience !== 'audienceId') {
			throw run.optionError(
				new InvalidParameter(
					AUDIENCE_LABEL,
					`must be Audience ID or Contacts From Input Items, not ${JSON.stringify(audience)}`,
				),
			);
		}
		// Version 2: every template the items name is read once, before any item is prepared.
		const templates: ItemTemplates = isVersion2(this)
			? await readItemTemplates.call(this, run)
			: new Map();
		if (audience === 'contactsFromInput') {
			return (
				await runBatches.call(this, launchToContacts(templates, launchLabelsOf(this)), run)
			).map(withEventId);
		}
		return await runPerItem.call(this, launchToAudience(templates), run);
	},
};
