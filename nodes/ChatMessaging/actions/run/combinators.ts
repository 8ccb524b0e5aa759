import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { InvalidParameter } from '../../../shared/validation';
import type { Action } from '../operationKinds';
import { BATCH_RUNNER_FIELDS } from './batch';
import type { OperationRun } from './operationRun';
import { FIELDS_THE_NODE_OWNS_IN_EVERY_OUTPUT, nodeOutput } from './serviceAnswers';

/*
 * Small ways of making one Action from others, for an operation the user sees as one but that runs
 * in more than one way (Contact → Create or Update: one request per item, or in bulk).
 */

export interface RunChoice {
	/** The parameter that decides; read once per run from item 0, as options are. */
	parameter: string;
	/** Its editor label, for the error when its value names no way of running. */
	label: string;
	fallback: string | boolean;
}

/**
 * One operation with several ways of running, chosen by a parameter (`String(value)` → Action).
 * `description` is the operation's whole description, once: the ways share their parameters.
 */
export function chosenBy(
	choice: RunChoice,
	description: INodeProperties[],
	ways: Record<string, Action>,
): Action {
	return {
		description,
		async run(this: IExecuteFunctions, run: OperationRun): Promise<INodeExecutionData[]> {
			const value = this.getNodeParameter(choice.parameter, 0, choice.fallback) as unknown;
			const way = Object.prototype.hasOwnProperty.call(ways, String(value))
				? ways[String(value)]
				: undefined;
			if (way === undefined) {
				throw run.optionError(
					new InvalidParameter(
						choice.label,
						`must be one of ${Object.keys(ways).join(', ')}, not ${JSON.stringify(value)}`,
					),
				);
			}
			return await way.run.call(this, run);
		},
	};
}

/** One successful item of a batch, as the batch runner (run/batch.ts) made it. */
export interface BatchItem {
	json: IDataObject;
	/** The batch's answer as the runner put it (`batchResponse`). */
	batchResponse: IDataObject;
}

/**
 * A batch operation whose service answers each entry inside the batch's answer (a bulk upsert's
 * array of contacts, a preference update's lists of numbers). The runner puts the whole answer on
 * every item of the batch, which is large and not the item's own; `ownAnswer` is given the batch's
 * items in input order and returns each one's new fields (its own part of the answer), or undefined
 * for an item whose part it cannot find with certainty: that item keeps the batch's answer.
 */
export function withOwnAnswers(
	action: Action,
	ownAnswer: (batch: BatchItem[]) => Array<IDataObject | undefined>,
): Action {
	return {
		description: action.description,
		async run(this: IExecuteFunctions, run: OperationRun): Promise<INodeExecutionData[]> {
			const output = await action.run.call(this, run);
			const batches = new Map<unknown, INodeExecutionData[]>();
			for (const item of output) {
				const { batch, batchResponse } = item.json;
				// Failure items carry no batchResponse: they stay as the runner made them.
				if (batchResponse === undefined || batch === null || typeof batch !== 'object') continue;
				const number = (batch as IDataObject).number;
				const members = batches.get(number);
				if (members) members.push(item);
				else batches.set(number, [item]);
			}
			for (const members of batches.values()) {
				const own = ownAnswer(
					members.map(({ json }) => ({ json, batchResponse: json.batchResponse as IDataObject })),
				);
				members.forEach((item, index) => {
					const fields = own[index];
					if (fields === undefined) return;
					// The batch's answer is replaced by this item's own fields, not kept beside them. Those
					// replace the entry as sent, never the runner's own fields (the batch, its status code
					// and retries, a key's recording): one of the answer's so named goes under fromService.
					const sentEntry: IDataObject = {};
					const runnerFields: IDataObject = {};
					for (const [name, value] of Object.entries(item.json)) {
						if (name === 'batchResponse') continue;
						if (
							BATCH_RUNNER_FIELDS.includes(name) ||
							FIELDS_THE_NODE_OWNS_IN_EVERY_OUTPUT.includes(name)
						)
							runnerFields[name] = value;
						else sentEntry[name] = value;
					}
					item.json = nodeOutput({ ...sentEntry, ...fields }, runnerFields);
				});
			}
			return output;
		},
	};
}
