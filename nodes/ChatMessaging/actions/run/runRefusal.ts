import type { INode, INodeProperties } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { parameterLabel } from './operationRun';
import type { RequestsBegun } from './requestsBegun';

/*
 * An error that ended the whole run, not one item: the node's own refusals (already worded), or
 * anything else, such as a setting read when the operation needs it whose expression n8n could not
 * evaluate. The latter is worded here: the setting n8n names, in the editor's words, and what became
 * of the items, told by whether a request to the service had begun for each (requestsBegun.ts),
 * never by the error's words.
 */

export interface RunRefusal {
	message: string;
	description?: string;
	/** The setting it is about, in the editor's words, when n8n named one. */
	parameter?: string;
}

function textOf(value: unknown): string | undefined {
	return typeof value === 'string' && value !== '' ? value : undefined;
}

/** Items as a stopped run names them: "item 0", "items 0, 2". */
function itemsNamed(itemIndexes: number[]): string {
	return `item${itemIndexes.length === 1 ? '' : 's'} ${itemIndexes.join(', ')}`;
}

export function runRefusalOf(
	error: unknown,
	requestsBegun: RequestsBegun,
	itemCount: number,
	properties: INodeProperties[],
): RunRefusal {
	const description = textOf((error as { description?: unknown } | null)?.description);
	if (error instanceof NodeOperationError || error instanceof NodeApiError) {
		return { message: error.message, description };
	}
	const parameter = parameterLabel(error, properties);
	const said = error instanceof Error ? error.message : String(error);
	const began = Array.from({ length: itemCount }, (_item, itemIndex) => itemIndex).filter(
		(itemIndex) => requestsBegun.beganFor(itemIndex),
	);
	const fix = parameter === undefined ? '' : ` Fix the expression in "${parameter}" and run again.`;
	const fate =
		began.length === 0
			? `Nothing was sent: no request to the service had begun.${fix}`
			: `A request to the service had begun for ${itemsNamed(began)}: ${began.length === 1 ? 'it' : 'they'} may have been sent, so check at the service before running ${began.length === 1 ? 'it' : 'them'} again. No request had begun for the other items: they were not sent.`;
	return {
		message:
			parameter === undefined
				? `Unexpected error: ${said}`
				: `"${parameter}" could not be read: ${said}`,
		description: description === undefined ? fate : `${fate} ${description}`,
		...(parameter === undefined ? {} : { parameter }),
	};
}

/** Without Continue On Fail: the error n8n shows, the node's own as it is. */
export function runRefusalError(node: INode, error: unknown, refusal: RunRefusal): Error {
	if (error instanceof NodeOperationError || error instanceof NodeApiError) return error;
	return new NodeOperationError(node, refusal.message, { description: refusal.description });
}
