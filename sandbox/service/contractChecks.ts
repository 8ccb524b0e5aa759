/*
 * Checks written from docs/service-contract.md and docs/operations/*.md alone, after the request
 * was held to docs/openapi.yaml (../contract/openApiRequests.ts). Each refuses what the contract
 * says in words and the document's schemas cannot: an IANA zone as IANA writes it, the links and
 * numbers a template's components carry.
 */

let listedZones: Set<string> | undefined;

/**
 * An IANA zone name as IANA writes it (`Europe/Berlin`, `UTC`): letter case included, since the
 * contract's examples and the node's own rule ("written as IANA writes them") leave no room for
 * `europe/berlin`. A name the runtime lists must be written as listed. Another name the runtime
 * knows is an IANA name its zone data calls otherwise (Node 20 lists Asia/Kolkata as Asia/Calcutta,
 * Europe/Kyiv as Europe/Kiev): the real service takes it as written, so here it is taken when each
 * of its parts begins with a capital, which is as far as the runtime's data can check its case.
 */
export function isIanaZoneName(name: string): boolean {
	if (name === 'UTC') return true;
	if (!name.includes('/')) return false;
	listedZones ??= new Set(
		(Intl as unknown as { supportedValuesOf(key: 'timeZone'): string[] }).supportedValuesOf(
			'timeZone',
		),
	);
	if (listedZones.has(name)) return true;
	let known: string;
	try {
		known = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
	} catch {
		return false;
	}
	if (known === name) return true;
	const listedSpelling = [...listedZones].some((zone) => zone.toLowerCase() === name.toLowerCase());
	return !listedSpelling && name.split('/').every((part) => /^[A-Z]/.test(part));
}

const IANA_MESSAGE = 'must be an IANA time zone name as IANA writes it, e.g. Europe/Berlin or UTC';

const isObject = (value: unknown): value is Record<string, unknown> =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

/** `template_message.retry_window.timezone` of send_template_message ([S §2.2], "canonical IANA"). */
export function sendTemplateErrors(body: unknown): Record<string, string[]> {
	const window =
		isObject(body) && isObject(body.template_message)
			? body.template_message.retry_window
			: undefined;
	if (isObject(window) && typeof window.timezone === 'string' && !isIanaZoneName(window.timezone)) {
		return { 'template_message.retry_window.timezone': [IANA_MESSAGE] };
	}
	return {};
}

/** A contact's `timezone` (upsert, bulk upsert, PATCH): "an IANA name (Europe/Berlin, UTC)". */
export function contactTimezoneErrors(body: unknown): Record<string, string[]> {
	const errors: Record<string, string[]> = {};
	const check = (contact: unknown, prefix: string) => {
		if (isObject(contact) && typeof contact.timezone === 'string') {
			if (!isIanaZoneName(contact.timezone)) errors[`${prefix}timezone`] = [IANA_MESSAGE];
		}
	};
	if (Array.isArray(body)) body.forEach((contact, k) => check(contact, `[${k}].`));
	else check(body, '');
	return errors;
}

/** The button kinds docs/operations/template.md names: Text, URL, Phone Number. */
export const DOCUMENTED_BUTTON_SUB_TYPES = ['quick_reply', 'url', 'phone_number'] as const;
const HTTP_LINK = /^https?:\/\/[^\s/{}]+/i;
const E164 = /^\+[1-9]\d{6,14}$/;

interface ComponentLike {
	component_type?: unknown;
	data_type?: unknown;
	sub_type?: unknown;
	value?: unknown;
}

/**
 * What docs/operations/template.md says a component's value is: a media header's value is the
 * "Header Sample URL (http(s) link)", a URL button's a link, a call button's a number in
 * international format (`+14155550100`); and a button is one of the three kinds it names.
 */
export function componentErrors(component: ComponentLike): Record<string, string[]> {
	const errors: Record<string, string[]> = {};
	const { component_type: type, data_type: dataType, sub_type: subType, value } = component;
	if (type === 'buttons' && subType !== undefined) {
		if (!(DOCUMENTED_BUTTON_SUB_TYPES as readonly unknown[]).includes(subType)) {
			errors.sub_type = [`must be one of ${DOCUMENTED_BUTTON_SUB_TYPES.join(', ')}`];
		}
	}
	if (typeof value !== 'string') return errors;
	if (
		type === 'header' &&
		(dataType === 'image' || dataType === 'video' || dataType === 'document')
	) {
		if (!/^https?:\/\/\S+$/i.test(value)) {
			errors.value = [`must be an http(s) link to a sample ${dataType} (a media header's sample)`];
		}
	}
	if (type === 'buttons' && subType === 'url' && !HTTP_LINK.test(value)) {
		errors.value = ['must be an http(s) link (a URL button)'];
	}
	if (type === 'buttons' && subType === 'phone_number' && !E164.test(value)) {
		errors.value = [
			'must be a phone number in international format with a leading +, e.g. +14155550123',
		];
	}
	return errors;
}

/** componentErrors over `components_attributes`, named as the 422s name fields. */
export function componentListErrors(
	components: readonly ComponentLike[],
	prefix = 'whats_app_template.components_attributes',
): Record<string, string[]> {
	const errors: Record<string, string[]> = {};
	components.forEach((component, k) => {
		for (const [field, messages] of Object.entries(componentErrors(component))) {
			errors[`${prefix}[${k}].${field}`] = messages;
		}
	});
	return errors;
}

export const hasErrors = (errors: Record<string, string[]>) => Object.keys(errors).length > 0;
