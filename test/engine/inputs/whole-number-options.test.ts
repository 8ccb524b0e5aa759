/*
 * Offered but refused: number fields the run takes only as whole numbers (Requests in Parallel,
 * Timeout, Retries When Rate Limited, Maximum Total Wait, History Size, Limit). n8n's editor lets a
 * number field take decimals unless the field gives numberPrecision, so it offered 2.5 and the run
 * refused it ("must be a whole number"). Each such field now tells the editor (numberPrecision 0),
 * and the run still refuses a decimal from an expression, naming the field.
 */
import { nodeProperties } from '../../../nodes/ChatMessaging/actions/registry';
import { numberFields } from '../../helpers/numberFields';
import { useStandInService } from '../../helpers/standInFixture';
import { runChatMessaging } from '../../helpers/engineHarness';
import { useProcessedDataStore } from '../../helpers/processedDataStore';
import { orderUpdateSend } from '../../helpers/orderUpdateSend';

const API_KEY = 'adv3-whole-numbers-key-SECRET-c5e7';
const service = useStandInService({ apiKey: API_KEY });
useProcessedDataStore();
jest.setTimeout(60_000);

const sendTemplate = {
	...orderUpdateSend({ phoneNumber: '+14155550100' }),
};

/** Each field, where it sits in the parameters, and the label the run's refusal names. */
const wholeNumberFields: Array<{ name: string; label: string; parameters: object }> = [
	{
		name: 'requestsInParallel',
		label: 'Requests in Parallel',
		parameters: { ...sendTemplate, options: { requestsInParallel: 2.5 } },
	},
	{
		name: 'timeoutSeconds',
		label: 'Timeout (Seconds)',
		parameters: { ...sendTemplate, options: { timeoutSeconds: 2.5 } },
	},
	{
		name: 'maxRetries',
		label: 'Retries When Rate Limited',
		parameters: { ...sendTemplate, options: { maxRetries: 2.5 } },
	},
	{
		name: 'maxTotalWaitSeconds',
		label: 'Maximum Total Wait (Seconds)',
		parameters: { ...sendTemplate, options: { maxTotalWaitSeconds: 2.5 } },
	},
	{
		name: 'alreadySentHistorySize',
		label: 'History Size',
		parameters: {
			...sendTemplate,
			skipItemsAlreadySent: true,
			alreadySentKey: 'A-7',
			alreadySentHistorySize: 2.5,
		},
	},
	{
		name: 'limit',
		label: 'Limit',
		parameters: { resource: 'message', operation: 'getMany', returnAll: false, limit: 2.5 },
	},
];

describe.each(wholeNumberFields)('$label', ({ name, label, parameters }) => {
	test('the run takes only a whole number', async () => {
		const result = await runChatMessaging({
			items: [{}],
			parameters: parameters as never,
			baseUrl: service.url,
			apiKey: API_KEY,
		});
		expect(result.error?.message).toContain(label);
		expect(result.error?.message).toMatch(/whole number/);
		expect(service.requests).toEqual([]);
	});

	test('so the editor offers only whole numbers', () => {
		const found = numberFields(nodeProperties()).filter((property) => property.name === name);
		expect(found.length).toBeGreaterThan(0);
		for (const property of found) expect(property.typeOptions?.numberPrecision).toBe(0);
	});
});
