import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { Action } from './operationKinds';

/*
 * How a resource file declares itself (message/Message.resource.ts and its neighbours). The compiler
 * holds the Operation options and the operations table to each other: an option without an
 * operation, or an operation without an option, does not compile.
 */

export interface OperationOption<Operation extends string> extends INodePropertyOptions {
	value: Operation;
	action: string;
}

/** The resource's Operation parameter, written out in its file so n8n's lint can read its wording. */
export interface OperationParameter<Operation extends string> extends INodeProperties {
	options: Array<OperationOption<Operation>>;
	default: NoInfer<Operation>;
}

export interface Resource<Name extends string, Operation extends string> {
	/** The resource's entry in the Resource parameter. */
	option: { name: string; value: Name };
	operationParameter: OperationParameter<Operation>;
	operations: Record<Operation, Action>;
	/** Every operation's parameters, in the order the operations are listed. */
	properties: INodeProperties[];
}

export function defineResource<
	const Name extends string,
	const Operation extends string,
>(resource: {
	name: string;
	value: Name;
	operation: OperationParameter<Operation>;
	/** Operation value → its implementation, made by perItem(), inBatches() or asList(). */
	operations: Record<NoInfer<Operation>, Action>;
}): Resource<Name, Operation> {
	const { name, value, operation, operations } = resource;
	return {
		option: { name, value },
		operationParameter: operation,
		operations,
		properties: operation.options.flatMap((option) => operations[option.value].description),
	};
}
