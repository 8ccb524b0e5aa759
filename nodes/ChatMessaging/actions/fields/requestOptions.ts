import type { IDisplayOptions, IExecuteFunctions, INode, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { RetryPolicy } from '../../../shared/transport';
import { DEFAULT_RETRY_POLICY } from '../../../shared/transport';
import { InvalidParameter } from '../../../shared/validation';

/* How requests are made, shared by all operations; each may add options of its own. */

export const MAX_PARALLEL_REQUESTS = 20;
/*
 * Four requests in flight hide most of the network round trip while staying far from what a
 * messaging API would call a burst; the pool halves it on the first 429 anyway.
 */
export const DEFAULT_PARALLEL_REQUESTS = 4;

export const requestsInParallelField: INodeProperties = {
	displayName: 'Requests in Parallel',
	name: 'requestsInParallel',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: MAX_PARALLEL_REQUESTS, numberPrecision: 0 },
	default: 4,
	description:
		'How many items may be sent at once (1 sends one after another). Output order is the input order either way, and the node slows down by itself when the service says "too many requests".',
};

function requestOptionFields(): INodeProperties[] {
	return [
		{
			displayName: 'Timeout (Seconds)',
			name: 'timeoutSeconds',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 300, numberPrecision: 0 },
			default: 30,
			description:
				"How long to wait for the service's answer. A request that times out is not repeated, since the service may have acted on it.",
		},
		{
			displayName: 'Retries When Rate Limited',
			name: 'maxRetries',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: 10, numberPrecision: 0 },
			default: 3,
			description:
				'How often to try again when the service says "too many requests" (429, or 503 with Retry-After) or cannot be reached at all. Nothing else is retried. Operations that change something refuse to run with the node setting Retry On Fail on, which would send again what the service already accepted.',
		},
		{
			displayName: 'Maximum Total Wait (Seconds)',
			name: 'maxTotalWaitSeconds',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: 600, numberPrecision: 0 },
			default: 60,
			description:
				'Longest time this run may spend waiting between retries, all items together, including waits the service asks for with Retry-After. Once it is used up, items the service still turns away fail at once as not sent.',
		},
	];
}

export function optionsCollection(
	displayOptions: IDisplayOptions,
	extra: INodeProperties[] = [],
): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions,
		options: [...extra, ...requestOptionFields()].sort((a, b) =>
			a.displayName.localeCompare(b.displayName),
		),
	};
}

function wholeNumber(value: unknown, parameter: string, min: number, max: number): number {
	const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
	if (typeof number !== 'number' || !Number.isInteger(number) || number < min || number > max) {
		throw new InvalidParameter(
			parameter,
			`must be a whole number from ${min} to ${max}, not ${JSON.stringify(value)}`,
		);
	}
	return number;
}

/**
 * The error of a run setting (read once, from item 0, before any request) that n8n could not
 * evaluate: it names the setting and gives n8n's own words, and says nothing was sent.
 */
export function unreadRunSetting(
	node: INode,
	label: string | undefined,
	error: unknown,
): NodeOperationError {
	const setting = label === undefined ? 'an option' : `"${label}"`;
	const detail = (error as { description?: unknown } | null)?.description;
	return new NodeOperationError(
		node,
		`${setting} could not be read: ${error instanceof Error ? error.message : String(error)} [item 0]`,
		{
			itemIndex: 0,
			description: `Nothing was sent: the run's options are read from item 0 before the first request. ${typeof detail === 'string' && detail ? `${detail} ` : ''}Fix the expression in ${setting} and run again.`,
		},
	);
}

/**
 * A run setting read from item 0. n8n names the parameter on most expression errors, not on all (a
 * syntax error names none), so the setting being read is named here.
 */
export function readRunSetting(
	context: IExecuteFunctions,
	name: string,
	label: string,
	fallback: unknown,
	properties: INodeProperties[] = [],
): unknown {
	try {
		return context.getNodeParameter(name, 0, fallback);
	} catch (error) {
		const option = failingOption(context, name, properties);
		throw unreadRunSetting(context.getNode(), option ? `${label} → ${option}` : label, error);
	}
}

/**
 * The option of a collection (Options) whose expression n8n could not evaluate, in the editor's
 * words where `properties` holds the collection: n8n names only the collection, and the user has
 * to know which of its options to fix (Limit Wait Time, Timeout…).
 */
export function failingOption(
	context: IExecuteFunctions,
	name: string,
	properties: INodeProperties[],
	itemIndex = 0,
): string | undefined {
	const saved = context.getNode().parameters[name];
	if (saved === null || typeof saved !== 'object' || Array.isArray(saved)) return undefined;
	for (const key of Object.keys(saved)) {
		try {
			context.getNodeParameter(`${name}.${key}`, itemIndex);
		} catch {
			const collection = properties.find((property) => property.name === name);
			const option = collection?.options?.find((entry) => entry.name === key);
			return option !== undefined && 'displayName' in option ? option.displayName : key;
		}
	}
	return undefined;
}

/**
 * Options are read once per run (item 0): they shape how the node works, not what it sends.
 * `properties`, the operation's parameters, name an option whose expression fails.
 */
export function readRetryPolicy(
	this: IExecuteFunctions,
	properties: INodeProperties[] = [],
): RetryPolicy {
	const options = readRunSetting(this, 'options', 'Options', {}, properties) as Record<
		string,
		unknown
	>;
	return {
		timeoutMs:
			wholeNumber(
				options.timeoutSeconds ?? DEFAULT_RETRY_POLICY.timeoutMs / 1000,
				'Timeout (Seconds)',
				1,
				300,
			) * 1000,
		maxRetries: wholeNumber(
			options.maxRetries ?? DEFAULT_RETRY_POLICY.maxRetries,
			'Retries When Rate Limited',
			0,
			10,
		),
		maxTotalWaitMs:
			wholeNumber(
				options.maxTotalWaitSeconds ?? DEFAULT_RETRY_POLICY.maxTotalWaitMs / 1000,
				'Maximum Total Wait (Seconds)',
				0,
				600,
			) * 1000,
	};
}

export function readWholeNumberOption(
	this: IExecuteFunctions,
	name: string,
	parameter: string,
	fallback: number,
	min: number,
	max: number,
): number {
	const options = readRunSetting(this, 'options', 'Options', {}) as Record<string, unknown>;
	return wholeNumber(options[name] ?? fallback, parameter, min, max);
}
