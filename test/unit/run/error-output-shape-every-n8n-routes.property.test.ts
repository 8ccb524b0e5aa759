/*
 * On Error "Continue (using error output)": which items n8n sends down the error output is decided by
 * n8n-core's WorkflowExecute.handleNodeErrorOutput, and its rule differs by version (read from the
 * installed n8n-core of each: 1.85.4's 1.83, 1.123.81's 1.122.48, 2.40.7's 2.40.3; the `details` rule
 * first appears in n8n-core 2.35.5 and 2.36.0). The node wrote `{error, details}` until 2026-11-28,
 * which only the newest rule routes: on n8n 1.x a refused send left by the success branch. For any
 * failure the node reports, the item it writes must pass every rule and keep every word.
 */
import fc from 'fast-check';
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { routeFailuresToErrorOutput } from '../../../nodes/ChatMessaging/actions/run/errorOutput';

type Rule = (json: IDataObject) => boolean;
const routedBy: Record<string, Rule> = {
	'n8n 1.85 to 2.35.0': (json) =>
		Boolean(json.error) &&
		(Object.keys(json).length === 1 || (Boolean(json.message) && Object.keys(json).length === 2)),
	'n8n-core 2.35.5, 2.36.0 and later': (json) =>
		Boolean(json.error) &&
		Object.keys(json).every((key) => ['error', 'message', 'details'].includes(key)),
};

function contextWith(onError: string) {
	return { getNode: () => ({ onError }) } as unknown as IExecuteFunctions;
}

const outcome = fc.constantFrom('not sent', 'may have been sent');
const field = fc
	.string({ minLength: 1, maxLength: 12 })
	.filter((key) => !['error', 'outcome'].includes(key));
const failure = fc.record({
	error: fc.string({ minLength: 1 }),
	outcome,
	more: fc.dictionary(field, fc.oneof(fc.string(), fc.integer(), fc.boolean()), { maxKeys: 5 }),
});

test('every failure the node reports is routed to the error output by every n8n version, every word kept', () => {
	fc.assert(
		fc.property(failure, ({ error, outcome, more }) => {
			const json: IDataObject = { error, outcome, ...more };
			const [written] = routeFailuresToErrorOutput.call(contextWith('continueErrorOutput'), [
				{ json, pairedItem: { item: 0 } },
			]);
			for (const [version, routes] of Object.entries(routedBy)) {
				if (!routes(written.json))
					throw new Error(`${version} would not route ${JSON.stringify(written.json)}`);
			}
			expect(written.pairedItem).toEqual({ item: 0 });
			// The message under `message`, every other word as the node reported it.
			const { message, ...rest } = written.json.error as IDataObject;
			expect(message).toBe(error);
			const { message: _overwritten, ...moreKept } = more;
			expect(rest).toEqual({ outcome, ...moreKept });
		}),
	);
});

test('the shape written until 2026-11-28 was not routed by n8n 1.x: the rule table tells the two apart', () => {
	const old = { error: 'Phone Number "12345" must start with +', details: { outcome: 'not sent' } };
	expect(routedBy['n8n 1.85 to 2.35.0'](old)).toBe(false);
	expect(routedBy['n8n-core 2.35.5, 2.36.0 and later'](old)).toBe(true);
});

test('a sent item, or an item whose service answer has a field named error, stays on the success output', () => {
	const items: INodeExecutionData[] = [
		{ json: { status: 'queued', eventId: 'e1' } },
		{ json: { error: 'none', status: 'sent' } },
		{ json: { error: 'skipped', outcome: 'skipped: already sent' } },
	];
	expect(routeFailuresToErrorOutput.call(contextWith('continueErrorOutput'), items)).toEqual(items);
});

test('with Continue (regular output) a failure keeps its flat shape', () => {
	const items: INodeExecutionData[] = [{ json: { error: 'refused', outcome: 'not sent' } }];
	expect(routeFailuresToErrorOutput.call(contextWith('continueRegularOutput'), items)).toEqual(
		items,
	);
});

test('an item Skip Items Already Sent did not send (held back, or its key twin not sent) is written in the shape every n8n routes', () => {
	const items: INodeExecutionData[] = [
		{
			json: {
				skipped: true,
				outcome: 'held: may have been sent',
				alreadySentKey: 'A-1',
				reason: 'An earlier run began sending an item with this key',
				toCheck: 'Look for a message',
			},
			pairedItem: { item: 0 },
		},
		{
			json: { skipped: true, outcome: 'not sent', alreadySentKey: 'A-2', reason: 'Item 1 …' },
			pairedItem: { item: 1 },
		},
	];
	const written = routeFailuresToErrorOutput.call(contextWith('continueErrorOutput'), items);
	for (const [index, item] of written.entries()) {
		for (const [version, routes] of Object.entries(routedBy)) {
			if (!routes(item.json)) throw new Error(`${version} would not route item ${index}`);
		}
		const { reason, ...rest } = items[index].json;
		expect(item.json.error).toEqual({ message: reason, ...rest });
		expect(item.pairedItem).toEqual({ item: index });
	}
});
