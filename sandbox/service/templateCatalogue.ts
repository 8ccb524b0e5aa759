import type { NewComponent, TemplateStatus } from '../contract/bodies/templates';
import { DAY, iso } from './clock';

/*
 * The account's templates when the stand-in starts: enough variety for the template picker and
 * the variable mapper to meet every case (languages, categories, every status, every header kind,
 * variables with and without examples, none at all, a variable in a URL button, one name in two
 * languages, an example given only in a later component, a variable in a text header, a media
 * header without any variable, and one legacy template with a malformed placeholder). Ids are fixed
 * so tests and example workflows can name them.
 */

/**
 * A component as created, with the id the template holds it under, and always a value and index.
 * The id is an integer as seen in the wild, or a string as the reference writes it (TemplateIds).
 */
export interface TemplateComponent extends NewComponent {
	id: number | string;
	value: string;
	index: number;
}

export interface Template {
	id: string;
	template_name: string;
	language: string;
	/** null for a draft not yet categorised: the reference does not promise a value here. */
	category: 'MARKETING' | 'UTILITY' | 'AUTHENTICATION' | null;
	status: TemplateStatus;
	whats_app_business_account_id: number | null;
	components: TemplateComponent[];
	created_at: string;
	updated_at: string;
}

export const BUSINESS_ACCOUNT_ID = 104583216;

type Part = [TemplateComponent['component_type'], TemplateComponent['data_type'], string, string?];

const text = (type: 'header' | 'body' | 'footer', value: string): Part => [type, 'text', value];
const media = (type: 'image' | 'video' | 'document', sample: string): Part => [
	'header',
	type,
	sample,
];
const button = (subType: string, value: string): Part => ['buttons', 'text', value, subType];

/**
 * How the stand-in writes ids. `service` (the default): template ids `wat_…` and integer component
 * ids, as seen in the wild. `reference`: as the public reference's own examples write them, template
 * ids without that prefix (`template_prefix_id_1`) and component ids as strings (`component_id_1`).
 * The reference types a component id as a string; which the live service writes is unconfirmed.
 */
export type TemplateIds = 'service' | 'reference';

/** Each id in the writing asked for: the reference's form keeps the number, so ids stay unique. */
export function templateIdIn(ids: TemplateIds, serviceId: string): string {
	return ids === 'service' ? serviceId : serviceId.replace(/^wat_/, 'template_prefix_id_');
}
export function componentIdIn(ids: TemplateIds, serial: number): number | string {
	return ids === 'service' ? serial : `component_id_${serial}`;
}

const catalogue: Array<[string, string, string, Template['category'], TemplateStatus, Part[]]> = [
	[
		'wat_1a2b3c4d5e6f7081',
		'order_update',
		'en',
		'UTILITY',
		'approved',
		[
			text('header', "Order {{order_number | example: 'A-1042'}}"),
			text(
				'body',
				"Hi {{first_name | example: 'Ada'}}, your order {{order_number}} is {{ order_status | example: 'on its way' }}. Total: {{order_total | example: '42.50'}}.",
			),
			text('footer', 'Reply STOP to opt out'),
			button('url', 'https://shop.example.com/orders/{{order_number}}'),
		],
	],
	[
		'wat_2b3c4d5e6f708192',
		'order_update',
		'es',
		'UTILITY',
		'approved',
		[
			text(
				'body',
				"Hola {{first_name | example: 'Lucía'}}, tu pedido {{order_number | example: 'A-1042'}} está {{order_status}}.",
			),
		],
	],
	[
		'wat_3c4d5e6f70819203',
		'spring_sale',
		'en',
		'MARKETING',
		'approved',
		[
			media('image', 'https://cdn.example.com/templates/spring-sale.jpg'),
			text(
				'body',
				"{{first_name | example: \"Ada\"}}, our spring sale starts now: {{discount | example: '20%'}} off everything until {{end_date | example: 'May 31'}}.",
			),
			button('quick_reply', 'Show me'),
			button('quick_reply', 'Not interested'),
		],
	],
	[
		'wat_4d5e6f7081920314',
		'welcome_message',
		'pt_BR',
		'UTILITY',
		'approved',
		[text('body', 'Olá! Obrigado por falar com a gente. Como podemos ajudar?')],
	],
	[
		'wat_5e6f708192031425',
		'invoice_ready',
		'de',
		'UTILITY',
		'approved',
		[
			media('document', 'https://cdn.example.com/templates/sample-invoice.pdf'),
			text(
				'body',
				"Hallo {{first_name}}, Ihre Rechnung {{invoice_number | example: 'RE-2024-001'}} liegt bei.",
			),
			text('footer', 'Fragen? Antworten Sie einfach auf diese Nachricht.'),
		],
	],
	[
		'wat_6f70819203142536',
		'product_demo',
		'en',
		'MARKETING',
		'paused',
		[
			media('video', 'https://cdn.example.com/templates/x2-demo.mp4'),
			text(
				'body',
				"Hi {{first_name | example: 'Ada'}}, see {{product_name | example: 'the new X2'}} in action.",
			),
		],
	],
	[
		'wat_7081920314253647',
		'login_code',
		'en',
		'AUTHENTICATION',
		'pending',
		[
			text(
				'body',
				"{{code | example: '123456'}} is your verification code. For your security, do not share this code.",
			),
			text('footer', 'This code expires in 10 minutes.'),
		],
	],
	[
		'wat_8192031425364758',
		'appointment_reminder',
		'de',
		'UTILITY',
		'rejected',
		[
			text('header', 'Terminerinnerung'),
			text(
				'body',
				"Hallo {{first_name | example: 'Jonas'}}, Ihr Termin ist am {{date | example: '12.05.'}} um {{time | example: '14:30'}}.",
			),
		],
	],
	[
		'wat_9203142536475869',
		'black_friday_teaser',
		'en',
		'MARKETING',
		'draft',
		[text('body', "{{first_name}}, something big is coming on {{date | example: 'Nov 28'}}.")],
	],
	[
		'wat_a31425364758697a',
		'shipping_delay',
		'es',
		'UTILITY',
		'disabled',
		[
			text('body', 'Hola {{first_name}}, tu envío {{tracking_number}} llegará con retraso.'),
			button('url', "https://track.example.com/{{tracking_number | example: 'TRK123'}}"),
		],
	],
	[
		'wat_b425364758697a8b',
		'feedback_request',
		'pt_BR',
		'MARKETING',
		'approved',
		[
			text('header', 'Sua opinião importa'),
			text('body', "Oi {{first_name | example: 'João'}}, como foi sua compra? Responda de 1 a 5."),
			button('quick_reply', 'Responder'),
		],
	],
	[
		'wat_c5364758697a8b9c',
		'summer_newsletter',
		'en',
		'MARKETING',
		'archived',
		[text('body', "{{first_name | example: 'Ada'}}, here is what is new this summer.")],
	],
	[
		'wat_d64758697a8b9cad',
		'delivery_video',
		'en',
		'UTILITY',
		'approved',
		[
			media('video', 'https://cdn.example.com/templates/unboxing.mp4'),
			text(
				'body',
				"Hi {{first_name | example: 'Ada'}}, your parcel {{tracking_number}} arrives {{delivery_day | example: 'tomorrow'}}.",
			),
			button('url', 'https://track.example.com/{{tracking_number}}'),
		],
	],
	[
		'wat_e758697a8b9cadbe',
		'catalogue_launch',
		'it',
		'MARKETING',
		'approved',
		[
			media('image', 'https://cdn.example.com/templates/catalogo.jpg'),
			text('body', 'Il nuovo catalogo è arrivato! Scoprilo nel nostro negozio.'),
			button('quick_reply', 'Mostrami'),
		],
	],
	[
		'wat_f68697a8b9cadbec',
		'appointment_confirmation',
		'fr',
		'UTILITY',
		'approved',
		[
			text('header', "Rendez-vous avec {{doctor_name | example: 'Dr Martin'}}"),
			text(
				'body',
				"Bonjour {{first_name | example: 'Camille'}}, votre rendez-vous est confirmé le {{date}} à {{time | example: '09:30'}}.",
			),
			text('footer', 'Répondez ANNULER pour annuler.'),
			button('phone_number', '+33 1 23 45 67 89'),
			button('url', "https://rdv.example.com/{{booking_code | example: 'RDV-88'}}"),
		],
	],
	// Written before the service checked placeholders: one is malformed and is not a variable.
	[
		'wat_0797a8b9cadbecf1',
		'loyalty_points',
		'en',
		'MARKETING',
		'approved',
		[
			text(
				'body',
				"Hi {{first_name | example: 'Ada'}}, you have {{ points | example: '120' }} points. Use code {{promo code}} at checkout.",
			),
		],
	],
	// What a sign-up form sends (examples/form-to-send-template.json, the README's first workflow).
	[
		'wat_1b2c3d4e5f607182',
		'welcome',
		'en',
		'UTILITY',
		'approved',
		[
			text(
				'body',
				"Hi {{first_name | example: 'Ada'}}, thanks for signing up! Your updates will arrive here.",
			),
			text('footer', 'Reply STOP to opt out'),
		],
	],
	// A question answered through a link in a variable: Send Template and Wait for Response.
	[
		'wat_7e6d5c4b3a291807',
		'refund_approval',
		'en',
		'UTILITY',
		'approved',
		[
			text(
				'body',
				"Refund of {{amount | example: '40.00 EUR'}} for order {{order_number | example: 'A-1042'}} needs your decision. Open {{approval_link | example: 'https://n8n.example.com/webhook-waiting/1/a'}} to approve or decline.",
			),
		],
	],
	// A draft not yet categorised: the service writes `category: null` until one is chosen. The
	// picker lists it as not sendable, and every other template stays usable beside it.
	[
		'wat_8a9b0c1d2e3f4051',
		'autumn_teaser',
		'en',
		null,
		'draft',
		[text('body', "Autumn arrives soon, {{first_name | example: 'Ada'}}: watch this space.")],
	],
];

/** A fresh copy of the catalogue, dated relative to `now` (older templates first). */
export function seedTemplates(now: number = Date.now(), ids: TemplateIds = 'service'): Template[] {
	let componentId = 1000;
	return catalogue.map(([id, name, language, category, status, parts], position) => {
		const created = now - (60 - position * 3) * DAY;
		const indexes: Record<string, number> = {};
		return {
			id: templateIdIn(ids, id),
			template_name: name,
			language,
			category,
			status,
			// A draft not yet categorised belongs to no business account yet either (assumption).
			whats_app_business_account_id: category === null ? null : BUSINESS_ACCOUNT_ID,
			components: parts.map(([componentType, dataType, value, subType]) => ({
				id: componentIdIn(ids, ++componentId),
				component_type: componentType,
				data_type: dataType,
				value,
				index: (indexes[componentType] = (indexes[componentType] ?? -1) + 1),
				...(subType === undefined ? {} : { sub_type: subType }),
			})),
			created_at: iso(created),
			updated_at: iso(created + DAY),
		};
	});
}
