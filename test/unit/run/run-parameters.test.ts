import type { IExecuteFunctions, IGetNodeParameterOptions } from 'n8n-workflow';

import {
	RunParameters,
	isItemIndependent,
	isItemIndependentExpression,
	runParameters,
} from '../../../nodes/ChatMessaging/actions/run/runParameters';
import { ChatMessaging } from '../../../nodes/ChatMessaging/ChatMessaging.node';

/* Which parameters are read once per run, and that the others are read for every item. */

describe('isItemIndependent', () => {
	it.each([
		['plain text', 'wat_welcome'],
		['a number', 42],
		['a boolean', false],
		['null', null],
		['an empty collection', {}],
		[
			'a collection of plain values',
			{ contactName: 'Ada', retryWindow: { window: { startAt: '09:00' } } },
		],
		['an expression without {{ }}', '=wat_welcome'],
		['a literal in an expression', "={{ 'wat_' + 'welcome' }}"],
		['a variable', '={{ $vars.templateId }}'],
		['the workflow and execution', '={{ $workflow.name }}-{{ $execution.id }}'],
		["another node's first item", "={{ $('Config').first().json.templateId }}"],
		["another node's last item, double quotes", '={{ $("Config Node").last().json.id }}'],
		["another node's items, all of them", "={{ $('Config').all().length }}"],
		['the first input item', '={{ $input.first().json.templateId }}'],
		['a function of constants', '={{ $ifEmpty($vars.template, "wat_default") }}'],
		['a resource locator by ID', { __rl: true, mode: 'id', value: 'wat_1' }],
	])('%s is read once', (_case, raw) => {
		expect(isItemIndependent(raw)).toBe(true);
	});

	it.each([
		['$json', '={{ $json.phone }}'],
		['$json inside text', '=Hello {{ $json.name }}!'],
		['$binary', '={{ $binary.data.fileName }}'],
		['$item', '={{ $item(0).$node["Config"].json.id }}'],
		['$itemIndex', '={{ $itemIndex }}'],
		['$input.item', '={{ $input.item.json.phone }}'],
		["$('X').item", "={{ $('Config').item.json.id }}"],
		["$('X').itemMatching", "={{ $('Config').itemMatching($itemIndex).json.id }}"],
		["$('X').all()[$itemIndex]", "={{ $('Config').all()[$itemIndex].json.id }}"],
		['$node', '={{ $node["Config"].json.id }}'],
		['$data (old name of $json)', '={{ $data.phone }}'],
		['$parameter (may itself be per item)', '={{ $parameter.phoneNumber }}'],
		['$fromAI (an AI tool call)', "={{ $fromAI('phone') }}"],
		['$now (the clock)', '={{ $now.plus(1, "hour") }}'],
		['$today', '={{ $today }}'],
		['Date', '={{ new Date().toISOString() }}'],
		['DateTime', '={{ DateTime.now().toISO() }}'],
		['Math.random', '={{ Math.random() }}'],
		['a template literal', '={{ `${$vars.a}` }}'],
		['an unclosed expression', '={{ $vars.a'],
		[
			'one per-item row among plain ones',
			{
				variable: [
					{ name: 'first_name', value: '={{ $json.name }}' },
					{ name: 'x', value: 'y' },
				],
			},
		],
		[
			'a resource locator by expression',
			{ __rl: true, mode: 'id', value: '={{ $json.templateId }}' },
		],
	])('%s is read per item', (_case, raw) => {
		expect(isItemIndependent(raw)).toBe(false);
	});

	it('reads nothing of the text outside {{ }}: $json there is text', () => {
		expect(isItemIndependentExpression('costs $json {{ $vars.price }}')).toBe(true);
	});
});

/** An execute context whose parameters are evaluated by a stand-in evaluator that counts its calls. */
function fakeContext(parameters: Record<string, unknown>, items: Array<Record<string, unknown>>) {
	const evaluations: string[] = [];
	const raws: string[] = [];
	const evaluate = (value: unknown, itemIndex: number): unknown => {
		if (typeof value === 'string' && value.startsWith('=')) {
			const match = /\{\{ \$json\.(\w+)/.exec(value);
			if (value.includes('explode')) throw new Error(`cannot evaluate for item ${itemIndex}`);
			return match
				? items[itemIndex][match[1]]
				: value.slice(1).replace(/\{\{.*?\}\}/g, 'constant');
		}
		if (Array.isArray(value)) return value.map((inner) => evaluate(inner, itemIndex));
		if (value && typeof value === 'object') {
			return Object.fromEntries(
				Object.entries(value).map(([key, inner]) => [key, evaluate(inner, itemIndex)]),
			);
		}
		return value;
	};
	const context = {
		getInputData: () => items.map((json) => ({ json })),
		// The node itself, not its AI agent tool variant.
		getNode: () => ({ type: 'n8n-nodes-chat-messaging.chatMessaging' }),
		getNodeParameter(
			name: string,
			itemIndex: number,
			fallback?: unknown,
			options?: IGetNodeParameterOptions,
		) {
			const value = name in parameters ? parameters[name] : fallback;
			if (options?.rawExpressions) {
				raws.push(name);
				return value;
			}
			evaluations.push(`${name}@${itemIndex}`);
			return evaluate(value, itemIndex);
		},
	} as unknown as IExecuteFunctions;
	return { context, evaluations, raws };
}

describe('RunParameters', () => {
	const items = [{ phone: '+14155550101' }, { phone: '+14155550102' }, { phone: '+14155550103' }];

	it('reads a plain value and an item-independent expression once, and the raw form once', () => {
		const { context, evaluations, raws } = fakeContext(
			{
				templateId: 'wat_welcome',
				business: '={{ $vars.business }}',
				options: { requestsInParallel: 4 },
			},
			items,
		);
		const parameters = new RunParameters(context);
		const read = items.map((_item, index) => [
			parameters.get('templateId', index),
			parameters.get('business', index),
			parameters.get('options', index, {}),
		]);
		expect(read).toEqual(items.map(() => ['wat_welcome', 'constant', { requestsInParallel: 4 }]));
		expect(evaluations).toEqual(['templateId@0', 'business@0', 'options@0']);
		expect(raws).toEqual(['templateId', 'business', 'options']);
	});

	it('evaluates an expression of the item for every item, each its own value', () => {
		const { context, evaluations } = fakeContext(
			{ phoneNumber: '={{ $json.phone.trim() }}' },
			items,
		);
		const parameters = new RunParameters(context);
		expect(items.map((_item, index) => parameters.get('phoneNumber', index))).toEqual(
			items.map((item) => item.phone),
		);
		expect(evaluations).toEqual(['phoneNumber@0', 'phoneNumber@1', 'phoneNumber@2']);
	});

	it('reads a collection per item when any part of it depends on the item', () => {
		const { context, evaluations } = fakeContext(
			{
				additionalFields: { contactName: '={{ $json.phone.trim() }}', retryUntil: '2030-01-01' },
			},
			items,
		);
		const parameters = new RunParameters(context);
		expect(parameters.get('additionalFields', 2, {})).toEqual({
			contactName: '+14155550103',
			retryUntil: '2030-01-01',
		});
		parameters.get('additionalFields', 1, {});
		expect(evaluations).toEqual(['additionalFields@2', 'additionalFields@1']);
	});

	it('reads a dragged field from the item, without evaluating it', () => {
		const { context, evaluations } = fakeContext(
			{
				phoneNumber: '={{ $json.phone }}',
				additionalFields: { contactName: "={{ $json['phone'] }}", retryUntil: '2030-01-01' },
			},
			items,
		);
		const parameters = new RunParameters(context);
		expect(items.map((_item, index) => parameters.get('phoneNumber', index))).toEqual(
			items.map((item) => item.phone),
		);
		expect(parameters.get('additionalFields', 2, {})).toEqual({
			contactName: '+14155550103',
			retryUntil: '2030-01-01',
		});
		expect(evaluations).toEqual([]);
	});

	it('leaves an item whose field is not a plain value to n8n, that item alone', () => {
		const odd = [{ phone: '+14155550101' }, { phone: null }, {}, { phone: '+14155550104' }];
		const { context, evaluations } = fakeContext({ phoneNumber: '={{ $json.phone }}' }, odd);
		const parameters = new RunParameters(context);
		expect(odd.map((_item, index) => parameters.get('phoneNumber', index))).toEqual([
			'+14155550101',
			null,
			undefined,
			'+14155550104',
		]);
		expect(evaluations).toEqual(['phoneNumber@1', 'phoneNumber@2']);
	});

	it('leaves a dragged field to n8n when the read asks n8n for more (extractValue…)', () => {
		const { context, evaluations } = fakeContext({ phoneNumber: '={{ $json.phone }}' }, items);
		const parameters = new RunParameters(context);
		parameters.get('phoneNumber', 0, undefined, { extractValue: true });
		parameters.get('phoneNumber', 1, undefined, { extractValue: true });
		expect(evaluations).toEqual(['phoneNumber@0', 'phoneNumber@1']);
	});

	it('uses the fallback of a missing parameter, once', () => {
		const { context, evaluations } = fakeContext({}, items);
		const parameters = new RunParameters(context);
		expect(parameters.get('headerMedia', 0, 'none')).toBe('none');
		expect(parameters.get('headerMedia', 1, 'none')).toBe('none');
		expect(evaluations).toEqual(['headerMedia@0']);
	});

	it('freezes a reused object, so no item can change what the next one reads', () => {
		const { context } = fakeContext(
			{ additionalFields: { retryWindow: { window: { startAt: '09:00' } } } },
			items,
		);
		const parameters = new RunParameters(context);
		const first = parameters.get('additionalFields', 0, {}) as {
			retryWindow: { window: { startAt: string } };
		};
		expect(() => {
			first.retryWindow.window.startAt = '10:00';
		}).toThrow(TypeError);
		expect(parameters.get('additionalFields', 1, {})).toEqual({
			retryWindow: { window: { startAt: '09:00' } },
		});
	});

	it('after a failed evaluation, evaluates again for each item, so each reports its own error', () => {
		const { context, evaluations } = fakeContext({ templateId: '={{ $vars.explode }}' }, items);
		const parameters = new RunParameters(context);
		expect(() => parameters.get('templateId', 0)).toThrow('cannot evaluate for item 0');
		expect(() => parameters.get('templateId', 1)).toThrow('cannot evaluate for item 1');
		expect(evaluations).toEqual(['templateId@0', 'templateId@1']);
	});

	it('keeps one reader per run context', () => {
		const first = fakeContext({}, items).context;
		const second = fakeContext({}, items).context;
		expect(runParameters(first)).toBe(runParameters(first));
		expect(runParameters(first)).not.toBe(runParameters(second));
	});
});

describe('what reading dragged fields from the item relies on', () => {
	/*
	 * n8n converts a value after evaluating it only for a parameter with `validateType` (and the
	 * `.value` of a resource mapper read on its own): draggedFields.ts gives the value as evaluated,
	 * so no parameter of the node may have one. Adding one means teaching the fast path its conversion.
	 */
	it('no parameter of the node asks n8n to convert its value (validateType)', () => {
		const withValidateType: string[] = [];
		const visit = (value: unknown, path: string): void => {
			if (Array.isArray(value)) value.forEach((entry, index) => visit(entry, `${path}[${index}]`));
			else if (value !== null && typeof value === 'object') {
				for (const [key, inner] of Object.entries(value)) {
					if (key === 'validateType') withValidateType.push(path);
					visit(inner, `${path}.${key}`);
				}
			}
		};
		visit(new ChatMessaging().description.properties, 'properties');
		expect(withValidateType).toEqual([]);
	});
});
