/*
 * The node's two versions as n8n resolves them (n8n-workflow's own getNodeParameters, which applies
 * the '@version' display conditions): version 1 keeps Template ID and the typed-in variables,
 * version 2 picks the template and maps its variables; the editor methods the parameters name
 * are the ones the node registers.
 */
import type { INode, INodeParameters, INodeTypeDescription } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { ChatMessaging } from '../../../nodes/ChatMessaging/ChatMessaging.node';
import { withExample } from '../../../nodes/ChatMessaging/methods/templates';

const nodeType = new ChatMessaging();
const { description } = nodeType;

/** The parameters n8n keeps for a node of this version with these values set (defaults filled in). */
function resolved(typeVersion: number, parameters: INodeParameters): INodeParameters {
	const node = {
		name: 'Chat Messaging',
		type: 'n8n-nodes-chat-messaging.chatMessaging',
		typeVersion,
		parameters,
	} as unknown as INode;
	return NodeHelpers.getNodeParameters(
		description.properties,
		parameters,
		true,
		false,
		node,
		description as INodeTypeDescription,
	)!;
}

/** Whether n8n shows the parameter named `name` for these values (its own displayParameter). */
function shown(typeVersion: number, parameters: INodeParameters, name: string): boolean[] {
	const node = { name: 'Chat Messaging', typeVersion, parameters } as unknown as INode;
	const values = resolved(typeVersion, parameters);
	return description.properties
		.filter((property) => property.name === name)
		.map((property) =>
			NodeHelpers.displayParameter(values, property, node, description as INodeTypeDescription),
		);
}

describe('before a template is chosen: only the hint, not the mapper (issue 28, point 7)', () => {
	// n8n's mapper answers an empty field list with a red "No variables found … Retry" of its own,
	// so it is shown only once there is a template to read variables from.
	test.each([
		['message', 'sendTemplate'],
		['aiAgent', 'connectContact'],
	])('%s → %s', (resource, operation) => {
		const none = { resource, operation };
		expect(shown(2, none, 'templateVariablesMapped')).not.toContain(true);
		expect(shown(2, none, 'templateVariablesHint')).toContain(true);

		const chosen = {
			...none,
			template: { __rl: true, mode: 'list', value: 'wat_1a2b3c4d5e6f7081' },
		};
		expect(shown(2, chosen, 'templateVariablesMapped')).toContain(true);
		expect(shown(2, chosen, 'templateVariablesHint')).not.toContain(true);

		// A template set by an expression: the mapper says why it cannot list the variables.
		const byExpression = { ...none, template: { __rl: true, mode: 'id', value: '={{ $json.t }}' } };
		expect(shown(2, byExpression, 'templateVariablesMapped')).toContain(true);
	});
});

describe('the two versions of the node', () => {
	test('version 2 is what a new node gets; version 1 stays for saved workflows', () => {
		expect(description.version).toEqual([1, 2]);
		expect(description.defaultVersion).toBe(2);
	});

	test.each([
		['message', 'sendTemplate'],
		['aiAgent', 'connectContact'],
	])(
		'%s → %s, version 1: Template ID and the variables typed in, as before',
		(resource, operation) => {
			const parameters = resolved(1, { resource, operation });
			expect(parameters).toHaveProperty('templateId', '');
			expect(parameters).toHaveProperty('templateVariablesInput', 'fields');
			expect(parameters).toHaveProperty('templateVariables');
			expect(parameters).not.toHaveProperty('template');
			expect(parameters).not.toHaveProperty('templateVariablesMapped');
		},
	);

	test.each([
		['message', 'sendTemplate'],
		['aiAgent', 'connectContact'],
	])(
		'%s → %s, version 2: Template picked From List, its variables mapped',
		(resource, operation) => {
			const fresh = resolved(2, { resource, operation });
			expect(fresh.template).toEqual({ __rl: true, mode: 'list', value: '' });
			expect(fresh.templateVariablesInput).toBe('mapper');
			const template = { __rl: true, mode: 'list', value: 'wat_1a2b3c4d5e6f7081' };
			const parameters = resolved(2, { resource, operation, template });
			expect(parameters.templateVariablesMapped).toEqual({
				mappingMode: 'defineBelow',
				value: null,
			});
			expect(parameters).not.toHaveProperty('templateId');
			expect(parameters).not.toHaveProperty('templateVariables');
		},
	);

	test('version 2 keeps the typed-in ways: choosing one shows its fields instead of the mapper', () => {
		const rows = resolved(2, {
			resource: 'message',
			operation: 'sendTemplate',
			templateVariablesInput: 'fields',
		});
		expect(rows).toHaveProperty('templateVariables');
		expect(rows).not.toHaveProperty('templateVariablesMapped');
		const json = resolved(2, {
			resource: 'message',
			operation: 'sendTemplate',
			templateVariablesInput: 'json',
		});
		expect(json).toHaveProperty('templateVariablesJson', '{}');
	});

	test("Send Template: the Header Media fields go with the typed-in ways; with the mapper the header's link is a mapped field", () => {
		expect(resolved(1, { resource: 'message', operation: 'sendTemplate' })).toHaveProperty(
			'headerMedia',
			'none',
		);
		expect(
			resolved(2, {
				resource: 'message',
				operation: 'sendTemplate',
				templateVariablesInput: 'fields',
			}),
		).toHaveProperty('headerMedia', 'none');
		expect(resolved(2, { resource: 'message', operation: 'sendTemplate' })).not.toHaveProperty(
			'headerMedia',
		);
	});

	test('the picker and the mapper name methods the node registers', () => {
		const locator = description.properties.find((p) => p.name === 'template')!;
		const listMode = locator.modes!.find((mode) => mode.name === 'list')!;
		expect(Object.keys(nodeType.methods.listSearch)).toContain(
			listMode.typeOptions!.searchListMethod,
		);
		const mapper = description.properties.find((p) => p.name === 'templateVariablesMapped')!;
		expect(Object.keys(nodeType.methods.resourceMapping)).toContain(
			mapper.typeOptions!.resourceMapper!.resourceMapperMethod,
		);
		expect(mapper.typeOptions!.resourceMapper!.supportAutoMap).toBe(true);
		expect(mapper.typeOptions!.loadOptionsDependsOn).toEqual([
			'template.value',
			'templateLanguage',
		]);
	});

	test('By ID accepts any ID that stays one part of the address', () => {
		const locator = description.properties.find((p) => p.name === 'template')!;
		const byId = locator.modes!.find((mode) => mode.name === 'id')!;
		const pattern = new RegExp(
			(byId.validation![0] as unknown as { properties: { regex: string } }).properties.regex,
		);
		for (const id of ['wat_1a2b3c4d5e6f7081', 'template_prefix_id_1', 'wt_template_id_1'])
			expect(pattern.test(id)).toBe(true);
		for (const wrong of ['wat_1 2', ' wat_1', 'wat_1/archive', '..'])
			expect(pattern.test(wrong)).toBe(false);
	});
});

describe("a mapper field's label", () => {
	test("the name first, then the template's example; a long example is cut short", () => {
		expect(withExample('first_name', 'Ada')).toBe('first_name (e.g. Ada)');
		expect(withExample('first_name', undefined)).toBe('first_name');
		expect(withExample('first_name', '  ')).toBe('first_name');
		expect(withExample('note', 'x'.repeat(60))).toBe(`note (e.g. ${'x'.repeat(40)}…)`);
	});
});
