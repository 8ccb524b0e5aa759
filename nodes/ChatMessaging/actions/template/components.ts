import type { IDataObject, IDisplayOptions, INodeProperties } from 'n8n-workflow';

import { templateComponentAttributes } from '../../../shared/schemas/templates';
import {
	InvalidParameter,
	normalisePhoneNumber,
	readHttpUrl,
	optionalText,
	requiredText,
} from '../../../shared/validation';

/*
 * The component fields of Create (header, body, footer, buttons) and how they become
 * `components_attributes`, each checked before sending. Which template, and what an answer about
 * one becomes, is templateIdentity.ts.
 */

const headerTypes = ['none', 'text', 'image', 'video', 'document'] as const;

/** The scheme and host of a link: where a variable may not stand. */
const LINK_AUTHORITY = /^https?:\/\/[^/?#]*/i;

/**
 * A URL button's link, sent as written. A variable after the host ({{order}}, or with its example
 * {{order | example: 'A-1042'}}, as every text field of a template writes it, spaces included) is
 * checked as one word of the link, so the spaces inside it do not make the link "no URL"; the rest
 * of the link is checked whole, as any link is.
 */
function readUrlButtonLink(given: unknown, name: string): string {
	const link = requiredText(given, name);
	const authority = LINK_AUTHORITY.exec(link)?.[0].length ?? 0;
	const variablesAsWords =
		link.slice(0, authority) + link.slice(authority).replace(/\{\{[^{}]*\}\}/g, 'variable');
	try {
		readHttpUrl(variablesAsWords, name);
		return link;
	} catch {
		// Refused in the user's own words, not those of the link with its variables replaced.
		return readHttpUrl(link, name);
	}
}
type HeaderType = (typeof headerTypes)[number];

/** Header, Body, Footer and Buttons of Create, shown for `displayOptions`. */
export function componentFields(displayOptions: IDisplayOptions): INodeProperties[] {
	const show = displayOptions.show ?? {};
	return [
		{
			displayName: 'Header',
			name: 'headerType',
			type: 'options',
			options: [
				{ name: 'Document', value: 'document' },
				{ name: 'Image', value: 'image' },
				{ name: 'None', value: 'none' },
				{ name: 'Text', value: 'text' },
				{ name: 'Video', value: 'video' },
			],
			default: 'none',
			displayOptions,
			description:
				'What the message shows above its text. A media header makes every send of the template need a header media file.',
		},
		{
			displayName: 'Header Text',
			name: 'headerText',
			type: 'string',
			required: true,
			default: '',
			placeholder: "Order {{order_number | example: 'A-1042'}}",
			displayOptions: { show: { ...show, headerType: ['text'] } },
			description: "The header line; variables are written {{name}} or {{name | example: 'value'}}",
		},
		{
			displayName: 'Header Sample URL',
			name: 'headerSampleUrl',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'https://cdn.example.com/sample.jpg',
			displayOptions: { show: { ...show, headerType: ['image', 'video', 'document'] } },
			description:
				'A sample file of the header media, shown to WhatsApp for review; each send gives its own file',
		},
		{
			displayName: 'Body',
			name: 'bodyText',
			type: 'string',
			typeOptions: { rows: 4 },
			required: true,
			default: '',
			placeholder: "Hi {{first_name | example: 'Ada'}}, your order {{order_number}} has shipped.",
			displayOptions,
			description:
				"The message text; variables are written {{name}} or {{name | example: 'value'}}",
		},
		{
			displayName: 'Footer',
			name: 'footerText',
			type: 'string',
			default: '',
			placeholder: 'Reply STOP to opt out',
			displayOptions,
			description: 'A short line under the text, without variables; sent only when set',
		},
		{
			displayName: 'Buttons',
			name: 'buttons',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true },
			placeholder: 'Add Button',
			default: {},
			displayOptions,
			description: 'Buttons under the message; sent only when added',
			options: [
				{
					displayName: 'Quick Reply',
					name: 'quickReply',
					values: [
						{
							displayName: 'Text',
							name: 'text',
							type: 'string',
							default: '',
							description: 'The reply the customer taps',
						},
					],
				},
				{
					displayName: 'URL',
					name: 'url',
					values: [
						{
							displayName: 'URL',
							name: 'url',
							type: 'string',
							default: '',
							placeholder: 'https://shop.example.com/orders/{{order_number}}',
							description: 'The link the button opens; it may end with a variable',
						},
					],
				},
				{
					displayName: 'Phone Number',
					name: 'phoneNumber',
					values: [
						{
							displayName: 'Phone Number',
							name: 'phoneNumber',
							type: 'string',
							default: '',
							placeholder: '+14155550123',
							description: 'The number the button calls, in international format',
						},
					],
				},
			],
		},
	];
}

export interface ComponentInput {
	headerType: unknown;
	headerText?: unknown;
	headerSampleUrl?: unknown;
	bodyText: unknown;
	footerText?: unknown;
	buttons?: unknown;
}

type Component = IDataObject & {
	component_type: string;
	data_type: string;
	value: string;
	index: number;
};

/** One component, checked by the wire schema now, so a complaint names the field the user filled. */
function checked(component: Component, label: string): Component {
	const result = templateComponentAttributes.safeParse(component);
	if (!result.success) throw new InvalidParameter(label, result.error.issues[0].message);
	return component;
}

const BUTTON_KINDS = [
	['quickReply', 'text', 'quick_reply', 'Buttons: Quick Reply'],
	['url', 'url', 'url', 'Buttons: URL'],
	['phoneNumber', 'phoneNumber', 'phone_number', 'Buttons: Phone Number'],
] as const;

/** The Create fields → `components_attributes`, in reading order, each kind indexed from 0. */
export function buildComponents(input: ComponentInput): Component[] {
	const components: Component[] = [];
	const headerType = input.headerType as HeaderType;
	if (!headerTypes.includes(headerType)) {
		throw new InvalidParameter(
			'Header',
			`must be one of ${headerTypes.join(', ')}, not ${JSON.stringify(input.headerType)}`,
		);
	}
	if (headerType === 'text') {
		const value = requiredText(input.headerText, 'Header Text');
		components.push(
			checked({ component_type: 'header', data_type: 'text', value, index: 0 }, 'Header Text'),
		);
	} else if (headerType !== 'none') {
		const value = requiredText(input.headerSampleUrl, 'Header Sample URL');
		if (!/^https?:\/\/\S+$/i.test(value)) {
			throw new InvalidParameter(
				'Header Sample URL',
				`"${value}" must be a link starting with https:// or http://`,
			);
		}
		components.push(
			checked(
				{ component_type: 'header', data_type: headerType, value, index: 0 },
				'Header Sample URL',
			),
		);
	}
	const body = requiredText(input.bodyText, 'Body');
	components.push(
		checked({ component_type: 'body', data_type: 'text', value: body, index: 0 }, 'Body'),
	);
	const footer = optionalText(input.footerText, 'Footer');
	if (footer !== undefined) {
		if (footer.includes('{{'))
			throw new InvalidParameter(
				'Footer',
				'cannot hold variables: WhatsApp footers are fixed text',
			);
		components.push(
			checked({ component_type: 'footer', data_type: 'text', value: footer, index: 0 }, 'Footer'),
		);
	}
	const buttons = (input.buttons ?? {}) as Record<string, unknown>;
	let index = 0;
	for (const [group, field, subType, label] of BUTTON_KINDS) {
		const entries = buttons[group];
		if (entries === undefined) continue;
		(Array.isArray(entries) ? entries : [entries]).forEach((entry, position) => {
			const name = `${label} ${position + 1}`;
			const given = (entry as IDataObject | null)?.[field];
			// Every recipient's phone dials this number: without its country code it would call
			// someone else in each recipient's own country, so it is read as a contact's number is.
			// A URL button opens its link on every recipient's phone: a public http(s) link only.
			const value =
				subType === 'phone_number'
					? normalisePhoneNumber(given, name)
					: subType === 'url'
						? readUrlButtonLink(given, name)
						: requiredText(given, name);
			components.push(
				checked(
					{
						component_type: 'buttons',
						sub_type: subType,
						data_type: 'text',
						value,
						index: index++,
					},
					name,
				),
			);
		});
	}
	return components;
}
