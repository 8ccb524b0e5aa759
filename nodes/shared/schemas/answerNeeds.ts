/*
 * What the node needs of each answer it reads, one table for every operation: the fields it checks
 * to decide success, to tell the answer is about what was asked, to find the next page, or to fill
 * its own output fields. Every other field passes through exactly as the service wrote it, whatever
 * its type (null, number, text, object, absent, extra): no reader refuses an answer for it.
 *
 * Paths name fields of the answer's body: `result.type` a nested field, `broadcasts[].id` a field of
 * every record of a list. Sources: `interface` the interface document (the service's own promise),
 * `reference` the service's public reference pages, `inference` ours (docs/service-contract.md,
 * "What the node needs of each answer", says why for each). docs/service-contract.md lists this
 * table; a test holds the two to each other, and a property test holds every reader to it.
 */

export type NeedSource = 'interface' | 'reference' | 'inference';
/**
 * Why the node reads a field: the verdict, the object's identity, the next page, its own output, or
 * a list's filter: a listed record's field compared with the filter of that name only when the user
 * set it (a record that leaves it out, or writes it null, says nothing against the filter).
 */
export type NeedPurpose = 'success' | 'identity' | 'paging' | 'output' | 'filter';

export interface NeededField {
	path: string;
	for: NeedPurpose;
	source: NeedSource;
}

export interface AnswerNeeds {
	/** docs/openapi.yaml's operationId of the request whose answer is read (the last, for several). */
	endpoint: string;
	/**
	 * For a list: the field its records are under, each record output as an item; `''` when the
	 * answer is the list itself, a bare JSON array (its records' fields are written `[].id`).
	 */
	records?: string;
	/**
	 * Set, saying why, when no item carries the answer as a whole: each item of a batch gets its
	 * own line of it, or a waiting item says only what the wait got.
	 */
	notCarried?: string;
	needs: readonly NeededField[];
}

const need = (path: string, purpose: NeedPurpose, source: NeedSource): NeededField => ({
	path,
	for: purpose,
	source,
});

/**
 * The failure signs every checked answer and every list page is read for (docs/failure-semantics.md,
 * "Which answers are read for a failure sign"): a `status` such as `failed`, `success: false`, an
 * `error` that says something. Read at the top of the answer only.
 */
export const FAILURE_SIGNS: readonly NeededField[] = [
	need('status', 'success', 'inference'),
	need('success', 'success', 'inference'),
	need('error', 'success', 'inference'),
];

/**
 * A list page: its records, and the link to the next page (the reference's `next`). The records
 * are needed as a list of records, not each of their fields: a record's field is needed only where
 * its row names it (`broadcasts[].id`).
 */
function page(endpoint: string, records: string, ...fields: NeededField[]): AnswerNeeds {
	return {
		endpoint,
		records,
		needs: [
			...FAILURE_SIGNS,
			need(records, 'paging', 'reference'),
			need('next', 'paging', 'reference'),
			// Read to stop once every record was read, and to tell a list that grew between pages.
			need('count', 'paging', 'reference'),
			...fields,
		],
	};
}

function one(endpoint: string, ...fields: NeededField[]): AnswerNeeds {
	return { endpoint, needs: [...FAILURE_SIGNS, ...fields] };
}

/** A send's answer repeats the request (interface §4.1): the contact and template are compared. */
const SEND = one(
	'sendEvent',
	need('event_id', 'output', 'inference'),
	need('contact.phone_number', 'identity', 'interface'),
	need('template_message.chat_template_id', 'identity', 'interface'),
);

/** A broadcast after a change: the one asked for, in the status the change leads to. */
function broadcastChange(endpoint: string): AnswerNeeds {
	return one(
		endpoint,
		need('id', 'identity', 'inference'),
		need('status', 'identity', 'inference'),
	);
}

/**
 * A template, as every reader of one reads it: its id (the template asked for), its name (which the
 * answer's check compares and a By Name match reads), and of its components what the output's
 * variables and header media are read from. `at` is `[].` for a record of the bare template list;
 * a created template's id is new, output and not compared.
 */
function templateNeeds(at = '', idFor: NeedPurpose = 'identity'): NeededField[] {
	return [
		need(`${at}id`, idFor, 'reference'),
		need(`${at}template_name`, 'identity', 'reference'),
		...['component_type', 'data_type', 'value', 'index'].map((field) =>
			need(`${at}components[].${field}`, 'output', 'reference'),
		),
	];
}

/** A template after Archive, Pause or Submit: the one asked for, in a status the change leads to. */
function templateStatusChange(endpoint: string): AnswerNeeds {
	return one(endpoint, ...templateNeeds(), need('status', 'identity', 'inference'));
}

/** Operation (`resource → operation`, as the editor names them) → what it needs of its answer. */
export const ANSWER_NEEDS: Readonly<Record<string, AnswerNeeds>> = {
	'message → sendTemplate': SEND,
	// Its send is Send Template's, answered the same way.
	'message → sendAndWait': {
		...SEND,
		notCarried:
			'the waiting item says only what this wait got: the input, `answered` and the send\'s event id (docs/send-and-wait.md, "What comes out")',
	},
	'message → getStatus': one(
		'getEvent',
		need('id', 'identity', 'reference'),
		need('status', 'output', 'reference'),
		need('result.type', 'output', 'reference'),
		need('result.id', 'output', 'reference'),
		need('result.status', 'output', 'reference'),
		need('result.failure_message', 'output', 'reference'),
	),
	'message → getManyStatuses': page(
		'listTemplateMessages',
		'template_messages',
		need('template_messages[].id', 'identity', 'reference'),
		need('template_messages[].broadcast_id', 'filter', 'inference'),
	),
	'message → getMany': page(
		'listMessages',
		'messages',
		need('messages[].id', 'identity', 'reference'),
		need('messages[].conversation_id', 'filter', 'reference'),
		need('messages[].phone_number', 'filter', 'reference'),
		need('messages[].direction', 'filter', 'reference'),
		need('messages[].business_phone_number', 'filter', 'reference'),
	),
	'aiAgent → connectContact': one(
		'sendEvent',
		need('status', 'success', 'interface'),
		need('event_id', 'output', 'interface'),
	),
	'conversation → assignAgent': one('sendEvent'),
	'conversation → close': one('sendEvent'),
	'conversation → getMany': page(
		'listConversations',
		'conversations',
		need('conversations[].id', 'identity', 'inference'),
		need('conversations[].status', 'filter', 'inference'),
		need('conversations[].phone_number', 'filter', 'inference'),
	),
	'conversation → updateStatus': one(
		'updateConversationStatus',
		need('id', 'identity', 'inference'),
		need('status', 'identity', 'inference'),
	),
	'contact → createMany': one('createContacts', need('phone_number', 'identity', 'interface')),
	'contact → createOrUpdate': one('upsertContacts', need('phone_number', 'identity', 'inference')),
	'contact → get': one('getContact', need('phone_number', 'identity', 'inference')),
	'contact → update': one('updateContact', need('phone_number', 'identity', 'inference')),
	'contact → updateCommunicationPreference': {
		...one(
			'updateCommunicationPreferences',
			need('communication_preference', 'identity', 'inference'),
			need('updated', 'output', 'inference'),
			need('not_found', 'output', 'inference'),
		),
		notCarried:
			'each item of the batch gets its own line (its number in `updated` or `not_found`), not a copy of an answer about up to 1,000 numbers',
	},
	'broadcast → launch': one('sendEvent', need('event_id', 'output', 'inference')),
	'broadcast → getStatus': one(
		'getEvent',
		need('id', 'identity', 'reference'),
		need('status', 'output', 'reference'),
		need('result.type', 'identity', 'reference'),
		need('result.id', 'output', 'reference'),
		need('result.status', 'output', 'inference'),
		need('result.name', 'output', 'reference'),
		need('result.audience_count', 'output', 'reference'),
		need('result.stats', 'output', 'reference'),
		need('result.phone_number', 'output', 'reference'),
		need('result.launch_time', 'output', 'reference'),
		need('result.whats_app_template.id', 'output', 'reference'),
		need('result.whats_app_template.template_name', 'output', 'reference'),
		need('result.template_messages_url', 'output', 'reference'),
	),
	'broadcast → get': one('getBroadcast', need('id', 'identity', 'inference')),
	'broadcast → getMany': page(
		'listBroadcasts',
		'broadcasts',
		need('broadcasts[].id', 'identity', 'inference'),
		need('broadcasts[].status', 'filter', 'inference'),
	),
	'broadcast → cancel': broadcastChange('cancelBroadcast'),
	'broadcast → archive': broadcastChange('archiveBroadcast'),
	'order → create': one(
		'createOrder',
		need('id', 'identity', 'reference'),
		need('reference_id', 'identity', 'reference'),
		need('items[].currency', 'identity', 'inference'),
	),
	'order → get': one('getOrder', need('id', 'identity', 'reference')),
	'order → refund': one(
		'refundOrder',
		need('id', 'success', 'inference'),
		need('order_id', 'identity', 'inference'),
		need('amount.value', 'identity', 'inference'),
		need('amount.currency', 'identity', 'inference'),
	),
	'media → getMany': page(
		'listMedia',
		'medias',
		need('medias[].id', 'identity', 'reference'),
		need('previous', 'paging', 'reference'),
	),
	'media → delete': one('deleteMedia', need('id', 'identity', 'inference')),
	// Upload Method JSON: the media item made. Its name, type and size are the output's where the
	// answer gives them, the file's own where it leaves them out.
	'media → upload': one(
		'addMedia',
		...['id', 'media_url', 'filename', 'content_type'].map((field) =>
			need(field, 'output', 'reference'),
		),
		need('byte_size', 'output', 'inference'),
	),

	// Templates: what every reader of a template needs of it (docs/service-contract.md, "What the
	// node reads of a template"): its id and name, and the components its output's variables come from.
	'template → getMany': {
		endpoint: 'listTemplates',
		records: '',
		needs: [
			...FAILURE_SIGNS,
			...templateNeeds('[].'),
			// Read only with the Status filter, which a service that ignores it is held to.
			need('[].status', 'filter', 'inference'),
		],
	},
	'template → get': one('getTemplate', ...templateNeeds()),
	'template → create': one(
		'createTemplate',
		...templateNeeds('', 'output'),
		// Compared with the language sent where the answer shows one as text.
		need('language', 'identity', 'reference'),
	),
	'template → update': one(
		'updateTemplate',
		...templateNeeds(),
		// Compared with the category sent, when one was.
		need('category', 'identity', 'reference'),
	),
	'template → archive': templateStatusChange('archiveTemplate'),
	'template → pause': templateStatusChange('pauseTemplate'),
	'template → submitForApproval': templateStatusChange('submitTemplate'),
};
