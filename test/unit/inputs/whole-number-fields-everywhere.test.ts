/*
 * Offered but refused, for every number field: n8n's editor lets a number field take decimals
 * unless it gives numberPrecision, so a field the run reads only as a whole number (and refuses
 * 2.5, naming it) must say numberPrecision 0. test/engine/inputs/whole-number-options.test.ts
 * covers the request options, History Size and Limit with their runs; this covers the rest, and
 * makes every number field of both nodes be classed, so a new one cannot be forgotten.
 *
 * Was: Batch Size and Batches in Parallel (Contact → Create Many, Create or Update in bulk, Update
 * Communication Preference; run/batch.ts readWholeNumberOption), an Order line item's Quantity
 * (order/lineItems.ts, a whole number from 1) and Template → Update's Component ID took decimals in
 * the editor. Component ID is a text field now (a component's id may be text, as the reference
 * writes it); a number given there is still refused unless whole (template/update.operation.ts).
 */
import { nodeProperties } from '../../../nodes/ChatMessaging/actions/registry';
import { numberFields } from '../../helpers/numberFields';
import { TRIGGER_PROPERTIES } from '../../../nodes/ChatMessagingTrigger/description';

/** Number fields whose run accepts only whole numbers, and the code that refuses a decimal. */
const WHOLE: Record<string, string> = {
	requestsInParallel: 'fields/requestOptions.ts',
	timeoutSeconds: 'fields/requestOptions.ts',
	maxRetries: 'fields/requestOptions.ts',
	maxTotalWaitSeconds: 'fields/requestOptions.ts',
	alreadySentHistorySize: 'fields/skipItemsAlreadySent.ts',
	limit: 'run/pages.ts',
	batchSize: 'run/batch.ts',
	batchesInParallel: 'run/batch.ts',
	quantity: 'order/lineItems.ts',
};

/** Number fields whose run takes decimals too. */
const DECIMALS_TAKEN: Record<string, string> = {
	resumeAmount: 'Send and Wait: 1.5 hours is a wait',
	timestampToleranceSeconds: 'the trigger: any positive number of seconds',
};

const everyNumberField = [...numberFields(nodeProperties()), ...numberFields(TRIGGER_PROPERTIES)];

test('every number field is classed as whole or as taking decimals', () => {
	const unclassed = everyNumberField
		.map((property) => property.name)
		.filter((name) => !(name in WHOLE) && !(name in DECIMALS_TAKEN));
	expect(unclassed).toEqual([]);
});

describe.each(Object.keys(WHOLE))('%s', (name) => {
	test('the editor offers only whole numbers, wherever the field appears', () => {
		const found = everyNumberField.filter((property) => property.name === name);
		expect(found.length).toBeGreaterThan(0);
		for (const property of found)
			expect({
				field: property.displayName,
				precision: property.typeOptions?.numberPrecision,
			}).toEqual({
				field: property.displayName,
				precision: 0,
			});
	});
});
