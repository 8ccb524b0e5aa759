import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

import type { IDataObject } from 'n8n-workflow';

import { classifyWebhook } from '../../../nodes/ChatMessagingTrigger/events';

/*
 * The trigger's reading of the payloads the service's public reference prints (issue 34, items 1
 * to 3): an interactive message's integer id, an AI-agent event whose `data` is the agent, and flow
 * executions whose `data.status` is "created" whatever happened. The fixtures are the reference's
 * examples as captured (test/fixtures/reference/webhooks/README.md).
 */

const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'reference', 'webhooks');

function example(name: string): IDataObject {
	const fixture = JSON.parse(readFileSync(join(FIXTURES, `${name}.json`), 'utf8')) as {
		example: IDataObject;
	};
	return fixture.example;
}

describe('delivery of an interactive message (integer message id)', () => {
	it('outputs the id as the service sent it, with the kind of message it numbers', () => {
		const event = classifyWebhook(example('older-message-delivery-sent-interactive-message'));
		expect(event).toMatchObject({ messageId: 1, messageType: 'message', status: 'sent' });
	});

	it('never makes two different messages look the same', () => {
		const one = example('newer-message-delivery-delivered-interactive-message');
		const two = structuredClone(one) as { data: { message: { id: number } } };
		two.data.message.id = 2;
		const first = classifyWebhook(one);
		const second = classifyWebhook(two as unknown as IDataObject);
		expect([first.messageType, first.messageId, first.status]).not.toEqual([
			second.messageType,
			second.messageId,
			second.status,
		]);
	});

	it('keeps a template message id and an interactive one apart even when they read alike', () => {
		const template = example('newer-message-delivery-sent-template-message') as any;
		template.data.message.id = '1';
		const interactive = example('newer-message-delivery-sent-interactive-message');
		const a = classifyWebhook(template as IDataObject);
		const b = classifyWebhook(interactive);
		expect([a.messageType, a.messageId]).not.toEqual([b.messageType, b.messageId]);
	});
});

describe('AI agent events: data is the agent, not an execution', () => {
	const events = ['started', 'escalated', 'completed', 'analyzed'];

	it.each(events)(
		'ai_flow_execution.%s: the event from the type, the agent as the agent',
		(name) => {
			const event = classifyWebhook(example(`older-ai-flow-execution-${name}`));
			expect(event).toMatchObject({
				kind: 'aiAgentExecution',
				event: name,
				status: name,
				agentId: 'aiflw_1234abcd',
				agentName: 'Customer engagement',
				agentStatus: '<one of draft or published>',
				contactPhone: null,
				notSent: ['contact', 'conversation', 'execution id'],
			});
			expect(event).not.toHaveProperty('executionId');
		},
	);

	it('reads the newer naming (ai_agent_execution.*) the same way', () => {
		const older = example('older-ai-flow-execution-escalated') as { type: string };
		const newer = { ...older, type: 'ai_agent_execution.escalated' };
		expect(classifyWebhook(newer as IDataObject)).toEqual(classifyWebhook(older as IDataObject));
	});
});

describe('flow executions: data.status is "created" in every reference example', () => {
	it('takes the status from the type, so pending, in progress and completed differ', () => {
		const read = ['pending', 'in-progress', 'completed'].map((name) =>
			classifyWebhook(example(`older-flow-execution-${name}`)),
		);
		expect(read.map((event) => event.status)).toEqual(['pending', 'in_progress', 'completed']);
		expect(read.map((event) => event.executionId)).toEqual([
			'fe_1234abcd',
			'fe_1234abcd',
			'fe_1234abcd',
		]);
		const keys = new Set(read.map((event) => `${String(event.executionId)} ${event.status}`));
		expect(keys.size).toBe(3);
	});
});

test('every captured example is read by this file or the engine test', () => {
	expect(readdirSync(FIXTURES).filter((name) => name.endsWith('.json')).length).toBe(17);
});
