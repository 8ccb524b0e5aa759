import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { DateTime } from 'luxon';

import type { SendTemplateBody } from '../../../shared/schemas';
import { TIME_OF_DAY_PATTERN, sendTemplateAnswer, sendTemplateBody } from '../../../shared/schemas';
import type { ServiceAnswer } from '../../../shared/transport';
import {
	InvalidParameter,
	checkBody,
	describeType,
	normaliseBusinessPhoneNumber,
	normaliseTimeZone,
	optionalText,
	readHeaderMediaFileName,
	readHeaderMediaUrl,
	readIdentifier,
} from '../../../shared/validation';
import type { ItemTemplates, TemplateSendOperation } from '../../methods/templateSend';
import { isVersion2, readTemplateOfVersion } from '../../methods/templateSend';
import { TEMPLATE_LABEL } from '../../methods/templateParameters';
import { buildContact } from '../fields/contactFields';
import {
	CONTACT_FIELDS_PARAMETER,
	MAP_AUTOMATICALLY,
	MAP_AUTOMATICALLY_TEXT,
	sendContactFromInput,
} from '../fields/contactFromInput';
import { readTemplateVariableValues, refuseEmptyVariables } from '../fields/templateVariableValues';
import { wireLabels } from '../fields/wireLabels';
import { sentEventId } from './sentEventId';
import {
	readHeaderMediaFile,
	sendWithHeaderMediaUpload,
	withUploadedHeaderMedia,
} from '../media/headerMediaFromBinary';
import type { PreparedRequest } from '../operationKinds';
import { runParameters } from '../run/runParameters';
import { answerFields, nodeOutput } from '../run/serviceAnswers';

/** Send Template's fields written only sometimes: the event when the answer names one, an uploaded header file. */
const SEND_TEMPLATE_SOMETIMES_OWNED = ['eventId', 'headerMedia'];
import type { FilledVariables } from './filledVariables';
import { addFilledVariables } from './filledVariables';
import { sendTemplateDescription } from './sendTemplate.description';
import { checkAnswerIsAboutThisSend } from './sendTemplateAnswer';

/** Wire field → the parameter that fills it, so a schema complaint names the field the user set. */
const version1Labels = wireLabels(sendTemplateDescription, {
	'contact.phone_number': 'phoneNumber',
	'contact.name': 'contactName',
	'contact.email': 'contactEmail',
	'contact.metadata': 'contactMetadata',
	'template_message.chat_template_id': 'templateId',
	'template_message.liquid_values': 'templateVariables',
	'template_message.liquid_values.header_media': 'headerMediaUrl',
	'template_message.retry_until': 'retryUntil',
	'template_message.retry_window': 'retryWindow',
	'template_message.business_phone_number': 'businessPhoneNumber',
	'template_message.reply_automation': 'replyAutomationAppId',
});
const version2Labels = { ...version1Labels, 'template_message.chat_template_id': TEMPLATE_LABEL };

/** An offset or Z at the end of a written date-time: then the moment is fixed whatever the zone. */
const WRITTEN_OFFSET = /T.*(?:Z|[+-]\d\d(?::?\d\d)?)$/i;

/**
 * A date-time from the picker, an expression's DateTime or Date, or typed text → ISO 8601 with
 * offset. Text without an offset is read in the workflow's time zone; a time that zone skips
 * (clocks go forward) or passes twice (clocks go back) is refused rather than moved or picked.
 */
export function readRetryUntil(value: unknown, timezone: string, now: number): string | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	let moment: DateTime;
	if (DateTime.isDateTime(value)) moment = value;
	else if (value instanceof Date) moment = DateTime.fromJSDate(value);
	else if (typeof value === 'string') moment = readWrittenMoment(value.trim(), timezone);
	else
		throw new InvalidParameter(
			'Retry Until',
			`must be a date and time, not ${describeType(value)}`,
		);
	if (!moment.isValid) {
		throw new InvalidParameter(
			'Retry Until',
			`"${String(value)}" is not a date and time (use e.g. 2030-01-31T18:00:00)`,
		);
	}
	if (moment.toMillis() <= now) {
		throw new InvalidParameter('Retry Until', `${moment.toISO()} is not in the future`);
	}
	return moment.toISO({ suppressMilliseconds: true }) ?? undefined;
}

function readWrittenMoment(text: string, timezone: string): DateTime {
	// A calendar date first: luxon would read "18:00" as today and "2030" as New Year's Day.
	if (!/^\d{4}-\d{2}-\d{2}(?:$|T)/.test(text)) {
		throw new InvalidParameter(
			'Retry Until',
			`"${text}" is not a date and time with a calendar date (use e.g. 2030-01-31T18:00:00)`,
		);
	}
	const moment = DateTime.fromISO(text, { zone: timezone, setZone: true });
	if (!moment.isValid || WRITTEN_OFFSET.test(text)) return moment;
	const wallClock = DateTime.fromISO(text, { zone: 'UTC' });
	const format = "yyyy-MM-dd'T'HH:mm:ss.SSS";
	if (wallClock.isValid && wallClock.toFormat(format) !== moment.toFormat(format)) {
		throw new InvalidParameter(
			'Retry Until',
			`${text} does not exist in ${timezone}: the clocks skip it when summer time begins. Give another time, or add the offset (e.g. ${text}+01:00)`,
		);
	}
	const offsets = moment.getPossibleOffsets();
	if (offsets.length > 1) {
		const choices = offsets
			.map((possible) => possible.toISO({ suppressMilliseconds: true }))
			.join(' or ');
		throw new InvalidParameter(
			'Retry Until',
			`${text} happens twice in ${timezone} (the clocks go back): add the offset to say which, ${choices}`,
		);
	}
	return moment;
}

function readRetryWindow(collection: unknown): IDataObject | undefined {
	const window = (collection as IDataObject | undefined)?.window as IDataObject | undefined;
	if (!window) return undefined;
	const result: IDataObject = {};
	for (const [key, wire, label] of [
		['startAt', 'start_at', 'Retry Window: Start At'],
		['endAt', 'end_at', 'Retry Window: End At'],
	] as const) {
		const time = typeof window[key] === 'string' ? (window[key] as string).trim() : window[key];
		if (typeof time !== 'string' || !TIME_OF_DAY_PATTERN.test(time)) {
			throw new InvalidParameter(
				label,
				`${JSON.stringify(time)} is not a 24-hour time of day such as 09:00 or 18:30`,
			);
		}
		result[wire] = time;
	}
	if (result.start_at === result.end_at) {
		throw new InvalidParameter(
			'Retry Window',
			'start and end are the same time, which leaves no time to retry',
		);
	}
	const timezone = optionalText(window.timezone, 'Retry Window: Time Zone');
	if (timezone !== undefined)
		result.timezone = normaliseTimeZone(timezone, 'Retry Window: Time Zone');
	return result;
}

/** The Header Media fields; the template variable header_media is read by the same two readers. */
function readHeaderMedia(
	this: IExecuteFunctions,
	itemIndex: number,
): string | IDataObject | undefined {
	const parameters = runParameters(this);
	const kind = parameters.get('headerMedia', itemIndex, 'none') as string;
	if (kind === 'none') return undefined;
	// A file from the input item is checked here and uploaded just before the send (media/headerMediaFromBinary.ts).
	const fromFile = readHeaderMediaFile.call(
		this,
		itemIndex,
		(name, fallback) => parameters.get(name, itemIndex, fallback),
		kind,
	);
	const link =
		fromFile?.link ?? readHeaderMediaUrl(parameters.get('headerMediaUrl', itemIndex, ''));
	// Only document headers take a file name (spec §2.2); an image or video is sent as its link.
	if (kind === 'url') return link;
	const raw = parameters.get('headerMediaFilename', itemIndex, '');
	const filename = readHeaderMediaFileName(
		typeof raw === 'string' && raw.trim() === '' ? fromFile?.filename : raw,
	);
	return filename === undefined ? { link } : { link, filename };
}

/** The variables typed in by name, with the Header Media fields as header_media (version 1; version 2's typed-in ways). */
function typedInVariables(
	this: IExecuteFunctions,
	itemIndex: number,
): Record<string, string | number | IDataObject> {
	const liquidValues = readTemplateVariableValues.call(this, itemIndex, true);
	const headerMedia = readHeaderMedia.call(this, itemIndex);
	if (headerMedia !== undefined) {
		if ('header_media' in liquidValues) {
			throw new InvalidParameter(
				'Template Variables',
				'has a variable named header_media and Header Media is set too; keep one',
			);
		}
		liquidValues.header_media = headerMedia;
	}
	return liquidValues;
}

/**
 * The contact: from the fields below, or read from the input item's own fields (Map Automatically
 * From Input), where a Contact Name or Email set below would be a second answer to the same question.
 */
function readContactValues(this: IExecuteFunctions, itemIndex: number, additional: IDataObject) {
	const parameters = runParameters(this);
	if (parameters.get(CONTACT_FIELDS_PARAMETER, itemIndex, 'defineBelow') !== MAP_AUTOMATICALLY) {
		return {
			phoneNumber: parameters.get('phoneNumber', itemIndex),
			name: additional.contactName,
			email: additional.contactEmail,
			metadata: additional.contactMetadata,
		};
	}
	for (const [field, label] of [
		['contactName', 'Contact Name'],
		['contactEmail', 'Contact Email'],
	] as const) {
		if (additional[field] !== undefined && additional[field] !== '') {
			throw new InvalidParameter(
				label,
				`is set, but ${MAP_AUTOMATICALLY_TEXT} takes it from the input item: remove it from Additional Fields, or choose Map Each Field Below`,
			);
		}
	}
	const json = this.getInputData()[itemIndex]?.json ?? {};
	const fromItem = sendContactFromInput(json, {
		phoneNumber: 'Phone Number',
		name: 'Contact Name',
		email: 'Contact Email',
	});
	return { ...fromItem, metadata: additional.contactMetadata };
}

function prepare(
	this: IExecuteFunctions,
	itemIndex: number,
	templates: ItemTemplates,
	/** Variables the node fills itself (Send Template and Wait for Response: the response link). */
	filled?: FilledVariables,
): PreparedRequest<SendTemplateBody> {
	const now = Date.now();
	// Read once per run when they cannot differ by item (run/runParameters.ts); per item otherwise.
	const additional = runParameters(this).get('additionalFields', itemIndex, {}) as IDataObject;

	const contact = buildContact(readContactValues.call(this, itemIndex, additional), {
		name: 'Contact Name',
		email: 'Contact Email',
		metadata: 'Contact Metadata',
	});

	const { chatTemplateId, liquidValues } = readTemplateOfVersion.call(this, itemIndex, templates, {
		numbersAllowed: true,
		manualValues: typedInVariables,
		givenElsewhere: filled === undefined ? undefined : () => Object.keys(filled),
	});
	if (filled !== undefined) addFilledVariables(liquidValues, filled);
	refuseEmptyVariables.call(this, itemIndex, liquidValues);
	const templateMessage: IDataObject = { chat_template_id: chatTemplateId };
	if (Object.keys(liquidValues).length > 0) templateMessage.liquid_values = liquidValues;

	const retryUntil = readRetryUntil(additional.retryUntil, this.getTimezone(), now);
	if (retryUntil !== undefined) templateMessage.retry_until = retryUntil;
	const retryWindow = readRetryWindow(additional.retryWindow);
	if (retryWindow !== undefined) templateMessage.retry_window = retryWindow;
	if (optionalText(additional.businessPhoneNumber, 'Business Phone Number') !== undefined) {
		templateMessage.business_phone_number = normaliseBusinessPhoneNumber(
			additional.businessPhoneNumber,
			'Business Phone Number',
		);
	}
	const appId = optionalText(additional.replyAutomationAppId, 'Reply Automation App ID');
	if (appId !== undefined) {
		templateMessage.reply_automation = {
			app_id: readIdentifier(appId, 'Reply Automation App ID', 'replyApp'),
		};
	}

	const body = checkBody(
		// Its retry_until rule checks against the clock at parse time, after readRetryUntil did.
		sendTemplateBody,
		{ event_type: 'send_template_message', contact, template_message: templateMessage },
		isVersion2(this) ? version2Labels : version1Labels,
	);
	// Asked before every attempt: a retry_until that passes while the item waits out throttling is not sent.
	const sendBefore = retryUntil === undefined ? undefined : Date.parse(retryUntil);
	const stillWanted =
		sendBefore === undefined
			? undefined
			: () =>
					Date.now() >= sendBefore
						? `Retry Until (${retryUntil}) passed before the message could be sent`
						: undefined;
	return { method: 'POST', path: '/api/v1/events', body, stillWanted };
}

function toOutput(
	answer: ServiceAnswer,
	{ body: sent }: PreparedRequest<SendTemplateBody>,
): IDataObject {
	checkAnswerIsAboutThisSend(answer, sent);
	const eventId = sentEventId(answer);
	// The node's verdict and what it sent, written over the answer (which echoes the request): an
	// answer's own `status`, `queued` or `error` is kept under fromService, never taken for these.
	return nodeOutput(
		answerFields(answer),
		{
			queued: true,
			status: 'queued',
			phoneNumber: sent.contact.phone_number,
			templateId: sent.template_message.chat_template_id,
			...(eventId === undefined ? {} : { eventId }),
			statusCode: answer.statusCode,
			retries: answer.retries,
		},
		SEND_TEMPLATE_SOMETIMES_OWNED,
	);
}

/** Send Template's request, with variables the calling operation fills itself. */
export { prepare as prepareSendTemplate };

export const sendTemplate: TemplateSendOperation<SendTemplateBody> = {
	description: sendTemplateDescription,
	prepare,
	toOutput: withUploadedHeaderMedia(toOutput),
	answer: sendTemplateAnswer,
	send: sendWithHeaderMediaUpload(sendTemplateAnswer),
	skipsItemsAlreadySent: true,
	sendsAMessage: true,
};
