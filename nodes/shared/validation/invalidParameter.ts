import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/**
 * A value the user gave that the service would refuse. Raised before any request, so it always
 * means "nothing was sent". `parameter` is the name the user reads in the editor.
 */
export class InvalidParameter extends Error {
	constructor(
		readonly parameter: string,
		readonly reason: string,
	) {
		super(`${parameter}: ${reason}`);
		this.name = 'InvalidParameter';
	}
}

export function toNodeOperationError(node: INode, error: InvalidParameter, itemIndex: number) {
	return new NodeOperationError(node, `${error.parameter} ${error.reason} [item ${itemIndex}]`, {
		itemIndex,
		description: `Nothing was sent. Fix "${error.parameter}" for item ${itemIndex} (counting from 0) and run again.`,
	});
}

/** A value's kind in the user's words, for "must be text, not a list". */
export function describeType(value: unknown): string {
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'a list';
	if (typeof value === 'object') return 'an object';
	if (value === undefined) return 'empty (the expression gave no value)';
	return `a ${typeof value}`;
}
