import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { SendBroadcastBody } from '../../../shared/schemas/broadcasts';
import { deliveryModes } from '../../../shared/schemas/broadcasts';
import {
	InvalidParameter,
	normaliseBusinessPhoneNumber,
	optionalText,
	requiredText,
} from '../../../shared/validation';
import { readTemplateVariableValues } from '../fields/templateVariableValues';
import { wireLabels } from '../fields/wireLabels';
import { readMoment } from '../message/messageReaders';
import { MAPPER_LABEL, MAPPER_PARAMETER, TEMPLATE_LABEL } from '../../methods/templateParameters';
import { LANGUAGE_PARAMETER, TEMPLATE_PARAMETER } from '../../methods/resourceMapping';
import type { ItemTemplates } from '../../methods/templateSend';
import { isVersion2, readTemplateOfVersion } from '../../methods/templateSend';
import { CONTACTS_FROM_INPUT_TEXT, launchDescription } from './launch.description';

/*
 * What makes a broadcast apart from its audience: name, template, delivery mode, the variables every
 * recipient shares, the sending number and the launch time. Read the same way whichever audience it
 * goes to; only fields the user set are sent.
 */

// `deliveries` is the reference's, never sent by the node (broadcasts.ts).
export type BroadcastSettings = Omit<
	SendBroadcastBody['broadcast'],
	'contacts' | 'audience_id' | 'deliveries'
>;

/** Wire field → the parameter that fills it, so a schema complaint names the field the user set. */
export const launchLabels = wireLabels(launchDescription, {
	'broadcast.name': 'broadcastName',
	'broadcast.chat_template_id': 'templateId',
	'broadcast.delivery_mode': 'deliveryMode',
	'broadcast.liquid_values': 'templateVariables',
	'broadcast.audience_id': 'audienceId',
	'broadcast.contacts': 'audience',
	'broadcast.scheduled_launch_time': 'scheduledLaunchTime',
	'broadcast.phone_number': 'businessPhoneNumber',
});

/** Version 2 picks the template and maps its variables: complaints name those fields. */
export const launchLabelsVersion2 = {
	...launchLabels,
	'broadcast.chat_template_id': TEMPLATE_LABEL,
	'broadcast.liquid_values': MAPPER_LABEL,
};

/** The labels of the node version that runs. */
export function launchLabelsOf(context: IExecuteFunctions): Record<string, string> {
	return isVersion2(context) ? launchLabelsVersion2 : launchLabels;
}

/** Wire field of the settings → its label, for "differs between items". */
function settingLabelsOf(labels: Record<string, string>): Record<keyof BroadcastSettings, string> {
	return {
		name: labels['broadcast.name'],
		chat_template_id: labels['broadcast.chat_template_id'],
		delivery_mode: labels['broadcast.delivery_mode'],
		liquid_values: labels['broadcast.liquid_values'],
		scheduled_launch_time: labels['broadcast.scheduled_launch_time'],
		phone_number: labels['broadcast.phone_number'],
	};
}

/**
 * The parameters the settings are read from: an expression in any of them may differ by item.
 * Template Language is one: with a template By Name it says which template goes out.
 */
const SETTING_PARAMETERS = [
	'broadcastName',
	'templateId',
	'deliveryMode',
	'templateVariablesInput',
	'templateVariables',
	'templateVariablesJson',
	TEMPLATE_PARAMETER,
	LANGUAGE_PARAMETER,
	MAPPER_PARAMETER,
	'businessPhoneNumber',
	'additionalFields',
];

/**
 * One item's broadcast settings. `templates` are those read for this execution (version 2, once
 * per template); version 1 reads the Template ID and the variables as typed in.
 */
export function readBroadcastSettings(
	this: IExecuteFunctions,
	itemIndex: number,
	templates: ItemTemplates,
	/** With contacts from input items, the variables every contact carries count as given. */
	contactVariables?: (this: IExecuteFunctions, itemIndex: number) => string[],
): BroadcastSettings {
	const label = settingLabelsOf(launchLabelsOf(this));
	const name = requiredText(this.getNodeParameter('broadcastName', itemIndex), label.name);
	const template = readTemplateOfVersion.call(this, itemIndex, templates, {
		numbersAllowed: true,
		manualValues(this: IExecuteFunctions, index: number) {
			return readTemplateVariableValues.call(this, index, true);
		},
		givenElsewhere: contactVariables,
	});
	const settings: BroadcastSettings = { name, chat_template_id: template.chatTemplateId };
	if (contactVariables !== undefined && mapsVariablesAutomatically(this)) {
		// Mapped automatically, the "shared" values are this item's own fields. A variable its
		// contact carries too is that contact's: kept here it would be item 0's value for everyone.
		for (const carried of contactVariables.call(this, itemIndex))
			delete template.liquidValues[carried];
	}

	const mode = this.getNodeParameter('deliveryMode', itemIndex, 'instant');
	if (!deliveryModes.includes(mode as BroadcastSettings['delivery_mode'] & string)) {
		throw new InvalidParameter(
			label.delivery_mode,
			`must be one of ${deliveryModes.join(', ')}, not ${JSON.stringify(mode)}`,
		);
	}
	settings.delivery_mode = mode as BroadcastSettings['delivery_mode'];

	if (Object.keys(template.liquidValues).length > 0)
		settings.liquid_values = template.liquidValues as BroadcastSettings['liquid_values'];

	const number = this.getNodeParameter('businessPhoneNumber', itemIndex, '');
	if (optionalText(number, label.phone_number) !== undefined) {
		settings.phone_number = normaliseBusinessPhoneNumber(number, label.phone_number);
	}

	const additional = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const launchAt = readMoment(
		additional.scheduledLaunchTime,
		label.scheduled_launch_time,
		this.getTimezone(),
	);
	if (launchAt !== undefined) {
		// Checked again by the body's schema at the moment of sending.
		if (Date.parse(launchAt) <= Date.now()) {
			throw new InvalidParameter(label.scheduled_launch_time, `${launchAt} is not in the future`);
		}
		settings.scheduled_launch_time = launchAt;
	}
	return settings;
}

function hasExpression(value: unknown): boolean {
	if (typeof value === 'string') return value.startsWith('=');
	if (Array.isArray(value)) return value.some(hasExpression);
	if (value !== null && typeof value === 'object') return Object.values(value).some(hasExpression);
	return false;
}

/**
 * Version 2's Template Variables set to Map Automatically: each item's own fields are its values,
 * so they differ from item to item although no parameter holds an expression.
 */
function mapsVariablesAutomatically(context: IExecuteFunctions): boolean {
	if (!isVersion2(context)) return false;
	const parameters = context.getNode().parameters;
	const mode = parameters.templateVariablesInput ?? 'mapper';
	const mapper = parameters[MAPPER_PARAMETER] as IDataObject | undefined;
	return mode === 'mapper' && mapper?.mappingMode === 'autoMapInputData';
}

/**
 * Whether any setting could differ from one item to the next: an expression, or variables mapped
 * automatically from each item's fields.
 */
export function settingsMayVary(this: IExecuteFunctions): boolean {
	const parameters = this.getNode().parameters;
	return (
		mapsVariablesAutomatically(this) ||
		SETTING_PARAMETERS.some((name) => hasExpression(parameters[name]))
	);
}

/*
 * A launch time from an expression such as {{ $now.plus(1, 'hour') }} is computed anew for each
 * item, milliseconds apart: a minute's difference is the same launch, not a disagreement.
 */
const SAME_LAUNCH_TIME_MS = 60_000;

/**
 * Refuses an item whose settings differ from the first item's: with contacts from input items all
 * items are one broadcast, and picking one item's template or name over another's would be a guess.
 */
export function checkSameSettings(
	this: IExecuteFunctions,
	first: BroadcastSettings,
	item: BroadcastSettings,
): void {
	const settingLabels = settingLabelsOf(launchLabelsOf(this));
	const keys = new Set([...Object.keys(first), ...Object.keys(item)] as Array<
		keyof BroadcastSettings
	>);
	for (const key of keys) {
		const [a, b] = [first[key], item[key]];
		if (JSON.stringify(a) === JSON.stringify(b)) continue;
		if (key === 'scheduled_launch_time' && typeof a === 'string' && typeof b === 'string') {
			if (Math.abs(Date.parse(a) - Date.parse(b)) < SAME_LAUNCH_TIME_MS) continue;
		}
		const shown = (value: unknown) => (value === undefined ? 'not set' : JSON.stringify(value));
		const hint =
			key === 'liquid_values' && mapsVariablesAutomatically(this)
				? ". Map Automatically reads each item's fields; to give each contact its own values, set Contact Variables to From Input Item Fields"
				: '';
		throw new InvalidParameter(
			settingLabels[key],
			`is ${shown(b)} for this item but ${shown(a)} for item 0: with ${CONTACTS_FROM_INPUT_TEXT} all input items form one broadcast, so it must be the same for every item${hint}`,
		);
	}
}
