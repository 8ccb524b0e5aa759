/*
 * Broadcast → Launch to contacts from the input items, with Skip Items Already Sent: contacts an
 * earlier launch reached are left out of the next broadcast, and keys are recorded only once the
 * service accepted the broadcast. Counted at the stand-in; n8n's store kept in memory.
 */
import { useStandInService } from '../../helpers/standInFixture';
import { runChatMessaging } from '../../helpers/engineHarness';
import { restockLaunch } from '../../helpers/orderUpdateSend';
import { useProcessedDataStore } from '../../helpers/processedDataStore';

const API_KEY = 'skip-already-sent-broadcast-SECRET-40c2';
const service = useStandInService({ apiKey: API_KEY });
const store = useProcessedDataStore();

const EVENTS = '/api/v1/events';
const customers = (...numbers: number[]) =>
	numbers.map((n) => ({ rowId: `row-${n}`, phone: `+1415555${1000 + n}`, first: `Customer ${n}` }));

async function launch(items: object[]) {
	return await runChatMessaging({
		items,
		parameters: {
			...restockLaunch(),
			audience: 'contactsFromInput',
			contactFields: 'defineBelow',
			phoneNumber: '={{ $json.phone }}',
			contactVariablesFrom: 'fields',
			contactVariables: { variable: [{ name: 'first_name', value: '={{ $json.first }}' }] },
			skipItemsAlreadySent: true,
			alreadySentKey: '={{ $json.rowId }}',
		} as never,
		baseUrl: service.url,
		apiKey: API_KEY,
	});
}

/** The numbers of each broadcast the stand-in accepted, in order. */
const acceptedBroadcasts = () =>
	service
		.acceptedSends(EVENTS)
		.map((request) =>
			(
				request.body as { broadcast: { contacts: Array<{ phone_number: string }> } }
			).broadcast.contacts.map((contact) => contact.phone_number),
		);

test('a second launch reaches only the contacts the first did not', async () => {
	const first = await launch(customers(1, 2, 3));
	expect(first.error).toBeUndefined();
	expect(store.keys().sort()).toEqual(['row-1', 'row-2', 'row-3']);

	const second = await launch(customers(1, 2, 3, 4));
	expect(second.error).toBeUndefined();
	expect(acceptedBroadcasts()).toEqual([
		['+14155551001', '+14155551002', '+14155551003'],
		['+14155551004'],
	]);
	expect(
		second.output!.map((item) => [item.json.outcome ?? item.json.launched, item.pairedItem]),
	).toEqual([
		['skipped: already sent', { item: 0 }],
		['skipped: already sent', { item: 1 }],
		['skipped: already sent', { item: 2 }],
		[true, { item: 3 }],
	]);
	expect(second.output![3].json).toMatchObject({
		alreadySentKey: 'row-4',
		alreadySentRecorded: true,
	});
});

test('every contact already reached: no broadcast is launched', async () => {
	await launch(customers(1, 2));
	service.clearRequests();
	const again = await launch(customers(2, 1));
	expect(again.error).toBeUndefined();
	expect(service.requests).toEqual([]);
	expect(again.output!.map((item) => item.json.outcome)).toEqual([
		'skipped: already sent',
		'skipped: already sent',
	]);
});

test('a launch that may have been sent records no key', async () => {
	service.injectFaults({ status: 500, path: EVENTS });
	const result = await launch(customers(1, 2));
	expect(result.error?.message).toMatch(/may have been sent/);
	expect(store.keys()).toEqual([]);
});
