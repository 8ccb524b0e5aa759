import type { IDataObject, INodeType, INodeTypes } from 'n8n-workflow';

/*
 * The node types of a workflow that holds one node: what n8n's Workflow asks for a node's type,
 * answered with the one node type the test gives.
 */
export class SingleNodeTypes implements INodeTypes {
	constructor(
		private readonly nodeType: INodeType,
		/** What getKnownTypes answers: the type's registration, where the code under test reads it. */
		private readonly knownTypes: IDataObject = {},
	) {}

	getByName(): INodeType {
		return this.nodeType;
	}

	getByNameAndVersion(): INodeType {
		return this.nodeType;
	}

	getKnownTypes(): IDataObject {
		return this.knownTypes;
	}
}
