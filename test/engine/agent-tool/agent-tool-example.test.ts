/*
 * The example examples/agent-sends-order-update.json: its Chat Messaging tool nodes exactly as
 * the file sets them up, under a scripted agent through n8n-core's tool path, against the stand-in.
 * The model sees the example's descriptions, looks the template up, sends it and follows it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { INode } from 'n8n-workflow';

import { TOOL_TYPE, runAgent, type ToolNode, type ToolPath } from '../../helpers/agentToolHarness';
import { createServiceParts } from '../../../sandbox/serviceParts';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'agent-tool-example-key-3f7b';
// The stand-in's clock stands still: the status read right after the send is "queued" however long
// a loaded machine takes between the two tool calls (on the wall clock it is processed after 1 s).
const STAND_IN_NOW = Date.now();
const service = useStandInService({
	apiKey: API_KEY,
	parts: createServiceParts({ now: () => STAND_IN_NOW }),
});

const example = JSON.parse(
	readFileSync(join(__dirname, '../../../examples/agent-sends-order-update.json'), 'utf8'),
) as { nodes: INode[] };
const tools: ToolNode[] = example.nodes
	.filter((node) => node.type === TOOL_TYPE)
	.map((node) => ({ name: node.name, parameters: node.parameters, typeVersion: node.typeVersion }));

const paths: ToolPath[] = ['tool wrapper', 'engine requests'];

test('the model is offered the three tools with the descriptions the example gives them', async () => {
	const result = await runAgent({ tools, calls: [], baseUrl: `${service.url}/`, apiKey: API_KEY });
	expect(result.error).toBeUndefined();
	const byName = Object.fromEntries(result.offered.map((tool) => [tool.name, tool]));
	expect(Object.keys(byName).sort()).toEqual([
		'Get_message_status',
		'Get_template',
		'Send_order_update',
	]);
	for (const node of example.nodes.filter((candidate) => candidate.type === TOOL_TYPE)) {
		const offered = byName[node.name.replace(/ /g, '_')];
		expect(offered.description).toBe(node.parameters.toolDescription);
	}
	expect(Object.keys(byName.Send_order_update.arguments).sort()).toEqual([
		'phone_number',
		'template_variables',
	]);
	expect(byName.Send_order_update.arguments.phone_number.description).toMatch(
		/customer's phone number in international format/,
	);
});

test.each(paths)(
	'through n8n-core’s %s: look the template up, send the order update, follow it',
	async (path) => {
		const result = await runAgent({
			tools,
			path,
			baseUrl: `${service.url}/`,
			apiKey: API_KEY,
			calls: [
				{ tool: 'Get_template', args: { template_name: 'order_update', language: 'en' } },
				{
					tool: 'Send_order_update',
					args: {
						phone_number: '+1 415 555 0123',
						template_variables: {
							first_name: 'Grace',
							order_number: 'B-7',
							order_status: 'ready for pickup',
							order_total: '18.00',
						},
					},
				},
				{ tool: 'Get_message_status', args: { message_id: '{{answer 1 eventId}}' } },
			],
		});
		expect(result.error).toBeUndefined();
		expect(result.answers.map((answer) => answer.thrown)).toEqual([
			undefined,
			undefined,
			undefined,
		]);
		expect(result.parsed[0]).toEqual([
			expect.objectContaining({ id: 'wat_1a2b3c4d5e6f7081', status: 'approved' }),
		]);
		const sends = service.requests.filter(
			(r) => r.method === 'POST' && r.path === '/api/v1/events',
		);
		expect(sends.map((r) => r.body)).toEqual([
			{
				event_type: 'send_template_message',
				contact: { phone_number: '+14155550123' },
				template_message: {
					chat_template_id: 'wat_1a2b3c4d5e6f7081',
					liquid_values: {
						first_name: 'Grace',
						order_number: 'B-7',
						order_status: 'ready for pickup',
						order_total: '18.00',
					},
				},
			},
		]);
		expect(result.parsed[2]).toEqual([expect.objectContaining({ status: 'queued' })]);
	},
);
