import type { IDisplayOptions, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { InvalidParameter, describeType } from '../../../shared/validation';
import { readRunSetting } from './requestOptions';

/*
 * Skip Items Already Sent: each item names itself by a key the user chooses (an order id, a row id).
 * The keys are kept in n8n's own processed-data store, the one its Remove Duplicates node uses, so
 * every worker of a queue-mode instance reads the same record (run/sentRecord.ts).
 */

export const SKIP_ITEMS_ALREADY_SENT = 'skipItemsAlreadySent';
export const KEY_LABEL = 'Key of Each Item';
/** How many keys are kept by default (Remove Duplicates keeps 1000; a send list is often longer). */
export const DEFAULT_HISTORY_SIZE = 10000;
const MAX_KEY_LENGTH = 512;

export type SentRecordScope = 'workflow' | 'node';

export const MAY_HAVE_BEEN_SENT = 'itemsThatMayHaveBeenSent';
const MAY_HAVE_BEEN_SENT_LABEL = 'Items That May Have Been Sent';
/** What a run does with an item an earlier run may have sent: Send Again or Hold Back. */
export type MayHaveBeenSent = 'sendAgain' | 'holdBack';

export function skipItemsAlreadySentFields(displayOptions: IDisplayOptions): INodeProperties[] {
	const whenOn = { show: { ...displayOptions.show, [SKIP_ITEMS_ALREADY_SENT]: [true] } };
	return [
		{
			displayName: 'Skip Items Already Sent',
			name: SKIP_ITEMS_ALREADY_SENT,
			type: 'boolean',
			default: false,
			displayOptions,
			description:
				"Whether to skip items whose key an earlier run already sent. A key is recorded in n8n's database only after the service accepted the message, so running the workflow again after a failure sends only what the service did not accept. An item whose send may have reached the service (a timeout, a broken connection, n8n stopped between the service's answer and its record) is sent again or held back, as Items That May Have Been Sent says.",
		},
		{
			displayName: KEY_LABEL,
			name: 'alreadySentKey',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. {{ $json.orderId }}',
			displayOptions: whenOn,
			description:
				'What makes an item the same item next time: an order ID, a row ID. Items with the same key are sent once.',
		},
		{
			displayName: 'Items That May Have Been Sent',
			name: MAY_HAVE_BEEN_SENT,
			type: 'options',
			// Send Again, as before this choice existed: n8n saves only the parameters that differ from
			// their default, so a new default would change every saved workflow that uses the option.
			default: 'sendAgain',
			displayOptions: whenOn,
			description:
				'What a later run does with an item whose send an earlier run began but never saw answered (a timeout, a broken connection, n8n stopped before recording the answer): the service may have accepted it',
			options: [
				{
					name: 'Send Again',
					value: 'sendAgain',
					description:
						'Send it: a message the service did accept arrives twice, but none is left unsent',
				},
				{
					name: 'Hold Back',
					value: 'holdBack',
					description:
						'Don\'t send it: it comes out marked "held: may have been sent", to check with Message → Get Many Statuses. Costs one more write to n8n\'s database per message.',
				},
			],
		},
		{
			displayName: 'Keys Kept Per',
			name: 'alreadySentScope',
			type: 'options',
			// Per node, as Remove Duplicates keeps its own: each sending node sends its own message, and
			// two of them keyed by the same field (an order's "shipped", then its "delivered") would
			// otherwise find each other's keys and skip messages never sent.
			default: 'node',
			displayOptions: whenOn,
			options: [
				{ name: 'Node', value: 'node', description: 'Only keys sent by this node count' },
				{
					name: 'Workflow',
					value: 'workflow',
					description:
						"Keys sent by any node of this workflow count: a key another node sent skips this node's message too",
				},
			],
		},
		{
			displayName: 'History Size',
			name: 'alreadySentHistorySize',
			type: 'number',
			typeOptions: { minValue: 1, numberPrecision: 0 },
			default: DEFAULT_HISTORY_SIZE,
			displayOptions: whenOn,
			description:
				'How many keys n8n keeps; the oldest are forgotten first, and an item whose key was forgotten is sent again',
		},
	];
}

export interface SkipSettings {
	scope: SentRecordScope;
	historySize: number;
	mayHaveBeenSent: MayHaveBeenSent;
}

/** The run's settings (read from item 0), or undefined when the option is off. */
export function readSkipSettings(this: IExecuteFunctions): SkipSettings | undefined {
	if (readRunSetting(this, SKIP_ITEMS_ALREADY_SENT, 'Skip Items Already Sent', false) !== true)
		return undefined;
	const scope = readRunSetting(this, 'alreadySentScope', 'Keys Kept Per', 'node');
	if (scope !== 'workflow' && scope !== 'node') {
		throw new InvalidParameter('Keys Kept Per', `must be Workflow or Node, not ${String(scope)}`);
	}
	const historySize = readRunSetting(
		this,
		'alreadySentHistorySize',
		'History Size',
		DEFAULT_HISTORY_SIZE,
	);
	if (typeof historySize !== 'number' || !Number.isInteger(historySize) || historySize < 1) {
		throw new InvalidParameter(
			'History Size',
			`must be a whole number of at least 1, not ${JSON.stringify(historySize)}`,
		);
	}
	const mayHaveBeenSent = readRunSetting(
		this,
		MAY_HAVE_BEEN_SENT,
		MAY_HAVE_BEEN_SENT_LABEL,
		'sendAgain',
	);
	if (mayHaveBeenSent !== 'sendAgain' && mayHaveBeenSent !== 'holdBack') {
		throw new InvalidParameter(
			MAY_HAVE_BEEN_SENT_LABEL,
			`must be Send Again or Hold Back, not ${String(mayHaveBeenSent)}`,
		);
	}
	return { scope, historySize, mayHaveBeenSent };
}

/** One item's key, as text; an empty or missing key is refused, since it cannot tell items apart. */
export function readAlreadySentKey(this: IExecuteFunctions, itemIndex: number): string {
	const value = this.getNodeParameter('alreadySentKey', itemIndex, '');
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	if (value !== undefined && value !== null && typeof value !== 'string') {
		throw new InvalidParameter(KEY_LABEL, `must be text or a number, not ${describeType(value)}`);
	}
	const key = (value ?? '').trim();
	if (key === '') {
		throw new InvalidParameter(
			KEY_LABEL,
			'is empty: with Skip Items Already Sent on, every item needs a key (e.g. {{ $json.orderId }})',
		);
	}
	if (key.length > MAX_KEY_LENGTH) {
		throw new InvalidParameter(KEY_LABEL, `is longer than ${MAX_KEY_LENGTH} characters`);
	}
	return key;
}
