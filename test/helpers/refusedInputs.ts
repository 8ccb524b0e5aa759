import type { StandInService } from '../../sandbox/server';
import type { WorkflowRun } from './engineHarness';

/*
 * What the bad-input tests share: the parameter an expression fills from each item's `value` (so
 * item 0 can carry the valid value and item 1 the bad one, as real workflows read them), valid
 * parameters of the four sending operations, and the check that a bad value stopped the run
 * before the first request, naming the field and the item.
 */

/** The item's `value`, as the parameter an expression fills. */
export const fromItem = '={{ $json.value }}';

export type SendingOperation = 'sendTemplate' | 'connectContact' | 'assignAgent' | 'createMany';

/** The least a user sets for each sending operation to send: a row merges its bad field over these. */
export const validSendingParameters: Record<SendingOperation, Record<string, unknown>> = {
	sendTemplate: {
		resource: 'message',
		operation: 'sendTemplate',
		phoneNumber: '+14155550123',
		templateId: 'wat_welcome',
	},
	connectContact: {
		resource: 'aiAgent',
		operation: 'connectContact',
		phoneNumber: '+14155550123',
		aiAgentId: 'aiflw_support',
		templateId: 'wat_welcome',
	},
	assignAgent: {
		resource: 'conversation',
		operation: 'assignAgent',
		contactName: 'Ada Lovelace',
		phoneNumber: '+14155550123',
		agentEmail: 'agent@example.com',
		openChatOnAssignment: true,
	},
	createMany: { resource: 'contact', operation: 'createMany', phoneNumber: '+14155550123' },
};

export interface Refusal {
	/** The editor's label the message must start with (and the description names). */
	label: string;
	/** Words of the reason, proving the message says what is wrong. */
	reason: RegExp;
	/** The item the message must name: 1 (the bad item) unless given. */
	itemIndex?: number;
	/** When given, the run's whole record must not contain it. */
	apiKey?: string;
}

/**
 * Asserts the run stopped before any request reached the stand-in (not the bad item, not a valid
 * one before it), with no output, a message "<label> <reason> [item N]" and a description that
 * says nothing was sent and which field of which item to fix.
 */
export function expectRefusedBeforeAnyRequest(
	result: Pick<WorkflowRun, 'error' | 'everything'> & { output: unknown },
	service: Pick<StandInService, 'requests'>,
	{ label, reason, itemIndex = 1, apiKey }: Refusal,
): void {
	expect(service.requests).toEqual([]);
	expect(result.output).toBeUndefined();
	const error = result.error as unknown as { message: string; description?: string } | undefined;
	expect(error).toBeDefined();
	expect(error!.message.startsWith(`${label} `)).toBe(true);
	expect(error!.message).toMatch(reason);
	expect(error!.message.endsWith(`[item ${itemIndex}]`)).toBe(true);
	expect(error!.description).toBe(
		`Nothing was sent. Fix "${label}" for item ${itemIndex} (counting from 0) and run again.`,
	);
	if (apiKey !== undefined) expect(result.everything()).not.toContain(apiKey);
}
