/*
 * The example workflows a newcomer imports (issue 28, points 3-5): every Chat Messaging node is the
 * version a new node gets, a template is picked From List with its variables mapped, every template
 * is one the stand-in's account has and can send, and the form ends on n8n's own Form Ending pages,
 * so the person filling it in learns whether the message went out (issue 36).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { ChatMessaging } from '../../../nodes/ChatMessaging/ChatMessaging.node';
import { readTemplateVariables } from '../../../nodes/shared/templateComponents';
import { seedTemplates } from '../../../sandbox/service/templateCatalogue';
import { PROJECT_ROOT } from '../../../scripts/n8n/install';

interface WorkflowNode {
	name: string;
	type: string;
	typeVersion: number;
	parameters: Record<string, any>;
	onError?: string;
}

const folder = join(PROJECT_ROOT, 'examples');
const workflows = readdirSync(folder)
	.filter((file) => file.endsWith('.json'))
	.map((file) => ({
		file,
		...(JSON.parse(readFileSync(join(folder, file), 'utf8')) as {
			nodes: WorkflowNode[];
			connections: Record<string, { main: Array<Array<{ node: string }>> }>;
		}),
	}));
const chatNodes = workflows.flatMap(({ file, nodes }) =>
	nodes
		.filter((node) => node.type === 'n8n-nodes-chat-messaging.chatMessaging')
		.map((node) => [`${file}: ${node.name}`, node] as const),
);
const SENDS_A_TEMPLATE = ['sendTemplate', 'sendAndWait', 'connectContact', 'launch'];
const templateNodes = chatNodes.filter(([, node]) =>
	SENDS_A_TEMPLATE.includes(node.parameters.operation),
);
const catalogue = seedTemplates();

test('there are examples with Chat Messaging nodes and template sends', () => {
	expect(chatNodes.length).toBeGreaterThanOrEqual(4);
	expect(templateNodes.length).toBeGreaterThanOrEqual(2);
});

test.each(chatNodes)('%s is the version a new node gets', (_name, node) => {
	expect(node.typeVersion).toBe(new ChatMessaging().description.defaultVersion);
});

test.each(templateNodes)(
	"%s picks an approved template of the stand-in's account From List and maps its variables",
	(_name, node) => {
		const { template, templateVariablesInput, templateVariablesMapped, templateId } =
			node.parameters;
		expect(templateId).toBeUndefined();
		expect(template).toMatchObject({ __rl: true, mode: 'list' });
		const known = catalogue.find((t) => t.id === template.value);
		expect(known).toMatchObject({ status: 'approved' });
		expect(templateVariablesInput ?? 'mapper').toBe('mapper');
		// Send Template and Wait for Response fills its response link variable itself, and its mapper
		// leaves that variable out (test/engine/message/send-and-wait-editor.test.ts).
		const variables = readTemplateVariables(known!.components)
			.variables.map((v) => v.name)
			.filter((name) => name !== node.parameters.responseLinkVariable);
		expect(Object.keys(templateVariablesMapped.value).sort()).toEqual([...variables].sort());
		expect(templateVariablesMapped.schema.map((field: { id: string }) => field.id)).toEqual(
			variables,
		);
	},
);

test("the form example ends on n8n's own Form Ending pages: one when the message is on its way, one when it is not", () => {
	const workflow = workflows.find(({ file }) => file === 'form-to-send-template.json')!;
	const send = workflow.nodes.find(
		(node) => node.type === 'n8n-nodes-chat-messaging.chatMessaging',
	)!;
	// A failed send leaves by the node's error output, not by an error that ends the run.
	expect(send.onError).toBe('continueErrorOutput');
	const [onItsWay, notSent] = workflow.connections[send.name].main.map((output) =>
		output.map((link) => workflow.nodes.find((node) => node.name === link.node)!),
	);
	for (const [ending] of [onItsWay, notSent]) {
		expect(ending).toMatchObject({
			type: 'n8n-nodes-base.form',
			parameters: { operation: 'completion' },
		});
	}
	// With Form nodes after it, n8n answers the form with its ending page, whatever Respond When says.
	const form = workflow.nodes.find((node) => node.type === 'n8n-nodes-base.formTrigger')!;
	expect(form.parameters.responseMode).toBeUndefined();
});
