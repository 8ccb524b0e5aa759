import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { judgeSecret, normaliseSecret } from './secret';
import type { SettingsProblem } from './settingsProblem';
import { DEFAULT_EVENTS, DELIVERY_STATUSES, EVENT_KINDS, type EventSelection } from './events';
import {
	DEFAULT_SECRET_HEADER,
	DEFAULT_SIGNATURE_HEADER,
	DEFAULT_TIMESTAMP_HEADER,
	DEFAULT_TOLERANCE_SECONDS,
	type CallerCheck,
	type SignatureEncoding,
} from './verify';

/*
 * The trigger's settings, read and judged in one place. The same judgement runs when the workflow
 * is published or listens for a test event (a problem then stops the webhook from being
 * registered, with the message shown in the editor) and on every call (a problem then refuses the
 * call with its reason, logged), because a credential or an expression can change after
 * publishing. Anything the trigger cannot trust is a problem: it never falls back to a weaker
 * check.
 */

const WEBHOOK_CREDENTIAL_TYPE = 'chatMessagingWebhookApi';
const CREDENTIAL_NAME = 'Chat Messaging Webhook';

export interface TriggerSettings {
	check: CallerCheck;
	selection: EventSelection;
}

export type SettingsVerdict =
	| { ok: true; settings: TriggerSettings }
	| { ok: false; problem: SettingsProblem };

/** What both n8n contexts that read settings offer: webhook calls and webhook registration. */
export interface SettingsSource {
	getNodeParameter(name: string, fallback: unknown): unknown;
	getCredentials(type: string): Promise<ICredentialDataDecryptedObject>;
}

/** A problem for a parameter whose value the trigger cannot use. */
function parameterProblem(reason: string, fix: string): SettingsProblem {
	return { reason, message: `${reason}: ${fix}` };
}

/** A setting's value, or why the trigger cannot use it. */
type Reading<T> = { value: T } | { problem: SettingsProblem };

const failed = <T>(reading: Reading<T>): reading is { problem: SettingsProblem } =>
	'problem' in reading;

// RFC 9110 token characters: anything else can never be the name of a header n8n receives.
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

function shown(value: unknown): string {
	return typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
}

function read(
	source: SettingsSource,
	name: string,
	label: string,
	fallback: unknown,
): Reading<unknown> {
	try {
		return { value: source.getNodeParameter(name, fallback) };
	} catch (error) {
		// An expression that throws says nothing the trigger could rely on.
		return {
			problem: parameterProblem(
				`${label} could not be read`,
				`its expression failed (${(error as Error).message}). Fix the expression or enter a fixed value.`,
			),
		};
	}
}

function readHeaderName(
	source: SettingsSource,
	name: string,
	label: string,
	fallback: string,
): Reading<string> {
	const reading = read(source, name, label, fallback);
	if (failed(reading)) return reading;
	const { value } = reading;
	if (typeof value !== 'string' || !HEADER_NAME.test(value.trim())) {
		return {
			problem: parameterProblem(
				`${label} is not a valid HTTP header name`,
				`${JSON.stringify(shown(value))} cannot be the name of a header. Enter the name only, such as ${fallback}, without a colon or a value.`,
			),
		};
	}
	return { value: value.trim() };
}

function readList<T extends string>(
	source: SettingsSource,
	name: string,
	label: string,
	fallback: T[],
	known: readonly T[],
): Reading<T[]> {
	const reading = read(source, name, label, fallback);
	if (failed(reading)) return reading;
	const { value } = reading;
	if (!Array.isArray(value) || !value.every((item) => known.includes(item as T))) {
		return {
			problem: parameterProblem(
				`${label} is not a list of the trigger's ${label === 'Events' ? 'events' : 'statuses'}`,
				`got ${shown(value)}. Choose the options from the list instead of an expression.`,
			),
		};
	}
	return { value: value as T[] };
}

async function readSecret(source: SettingsSource): Promise<Reading<string>> {
	let stored: unknown;
	try {
		stored = (await source.getCredentials(WEBHOOK_CREDENTIAL_TYPE)).secret;
	} catch {
		return {
			problem: {
				reason: `no ${CREDENTIAL_NAME} credential could be read`,
				message: `No ${CREDENTIAL_NAME} credential could be read: choose one under Authentication, or set Authentication to None.`,
			},
		};
	}
	const verdict = judgeSecret(stored);
	if (!verdict.ok) {
		// In the editor, say which credential: "No secret" or "Too short" alone would not.
		return {
			problem: {
				reason: verdict.problem.reason,
				message: `${verdict.problem.message} (${CREDENTIAL_NAME} credential)`,
			},
		};
	}
	return { value: normaliseSecret(stored) };
}

type HmacCheck = Extract<CallerCheck, { mode: 'hmac' }>;

function readTimestampRule(source: SettingsSource): Reading<HmacCheck['timestamp']> {
	const required = read(source, 'requireTimestamp', 'Require Timestamp', false);
	if (failed(required)) return required;
	if (typeof required.value !== 'boolean') {
		return {
			problem: parameterProblem(
				'Require Timestamp is not true or false',
				`got ${shown(required.value)}.`,
			),
		};
	}
	if (!required.value) return { value: undefined };

	const headerName = readHeaderName(
		source,
		'timestampHeaderName',
		'Timestamp Header Name',
		DEFAULT_TIMESTAMP_HEADER,
	);
	if (failed(headerName)) return headerName;
	const tolerance = read(
		source,
		'timestampToleranceSeconds',
		'Tolerance (Seconds)',
		DEFAULT_TOLERANCE_SECONDS,
	);
	if (failed(tolerance)) return tolerance;
	const seconds = tolerance.value;
	// Anything else, text included, would compare as "never too old" and switch replay
	// protection off without a word.
	if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds <= 0) {
		return {
			problem: parameterProblem(
				'Tolerance (Seconds) is not a positive number',
				`got ${shown(seconds)}. Enter a number of seconds such as ${DEFAULT_TOLERANCE_SECONDS}.`,
			),
		};
	}
	return { value: { headerName: headerName.value, toleranceSeconds: seconds } };
}

async function readCallerCheck(source: SettingsSource): Promise<Reading<CallerCheck>> {
	const mode = read(source, 'authentication', 'Authentication', 'none');
	if (failed(mode)) return mode;
	if (mode.value === 'none') return { value: { mode: 'none' } };

	if (mode.value === 'headerSecret') {
		const headerName = readHeaderName(source, 'headerName', 'Header Name', DEFAULT_SECRET_HEADER);
		if (failed(headerName)) return headerName;
		const secret = await readSecret(source);
		if (failed(secret)) return secret;
		return { value: { mode: 'headerSecret', headerName: headerName.value, secret: secret.value } };
	}

	if (mode.value === 'hmac') {
		const headerName = readHeaderName(
			source,
			'signatureHeaderName',
			'Signature Header Name',
			DEFAULT_SIGNATURE_HEADER,
		);
		if (failed(headerName)) return headerName;
		const encoding = read(source, 'signatureEncoding', 'Signature Encoding', 'hex');
		if (failed(encoding)) return encoding;
		if (encoding.value !== 'hex' && encoding.value !== 'base64') {
			return {
				problem: parameterProblem(
					`Signature Encoding ${JSON.stringify(shown(encoding.value))} is not one the trigger knows`,
					'choose Hex or Base64.',
				),
			};
		}
		const timestamp = readTimestampRule(source);
		if (failed(timestamp)) return timestamp;
		const secret = await readSecret(source);
		if (failed(secret)) return secret;
		return {
			value: {
				mode: 'hmac',
				headerName: headerName.value,
				encoding: encoding.value as SignatureEncoding,
				timestamp: timestamp.value,
				secret: secret.value,
			},
		};
	}

	return {
		problem: parameterProblem(
			`Authentication ${JSON.stringify(shown(mode.value))} is not one the trigger knows`,
			'choose None, Header Secret or HMAC-SHA256 Signature.',
		),
	};
}

/** Reads every setting a call depends on, or says which one the trigger cannot use. */
export async function readTriggerSettings(source: SettingsSource): Promise<SettingsVerdict> {
	const check = await readCallerCheck(source);
	if (failed(check)) return { ok: false, problem: check.problem };
	const events = readList(source, 'events', 'Events', DEFAULT_EVENTS, EVENT_KINDS);
	if (failed(events)) return { ok: false, problem: events.problem };
	// Delivery Statuses is hidden, and so not read, unless Message Delivery Status is chosen.
	const statuses = events.value.includes('messageDelivery')
		? readList(source, 'deliveryStatuses', 'Delivery Statuses', [], DELIVERY_STATUSES)
		: { value: [] };
	if (failed(statuses)) return { ok: false, problem: statuses.problem };
	return {
		ok: true,
		settings: {
			check: check.value,
			selection: { events: events.value, deliveryStatuses: statuses.value },
		},
	};
}
