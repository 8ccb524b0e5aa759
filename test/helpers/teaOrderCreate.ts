/*
 * Order → Create of one tea (12.00 USD, in minor units) for Ada under the reference `reference`:
 * the order the Order engine tests create when what they check is the service's answer.
 */
export function teaOrderCreate(reference: string) {
	return {
		resource: 'order',
		operation: 'create',
		referenceId: reference,
		orderType: 'physical_goods',
		phoneNumber: '+14155550123',
		amountsAreIn: 'minor',
		currency: 'USD',
		lineItemsInput: 'fields',
		lineItems: { item: [{ name: 'Tea', amount: '1200', quantity: 1, saleAmount: '' }] },
	};
}
