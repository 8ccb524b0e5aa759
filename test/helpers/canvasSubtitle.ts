import { Workflow, type INode, type INodeParameters, type INodeType } from 'n8n-workflow';

import { SingleNodeTypes } from './singleNodeTypes';

/*
 * The subtitle n8n's editor shows under a node on the canvas: the description's `subtitle`
 * evaluated against the node's parameters in a workflow, in 'internal' mode, as the editor does.
 */

/** The canvas subtitle of a node of `nodeType` (saved as `type`, named `name`) with these parameters. */
export function canvasSubtitle(
	nodeType: INodeType,
	node: { name: string; type: string },
	parameters: INodeParameters,
): unknown {
	const saved: INode = {
		id: 'n1',
		name: node.name,
		type: node.type,
		typeVersion: 1,
		position: [0, 0],
		parameters,
	};
	const workflow = new Workflow({
		nodes: [saved],
		connections: {},
		active: false,
		nodeTypes: new SingleNodeTypes(nodeType),
	});
	return workflow.expression.getSimpleParameterValue(
		workflow.getNode(saved.name)!,
		nodeType.description.subtitle!,
		'internal',
		{},
		undefined,
		'[filled at execution time]',
	);
}
