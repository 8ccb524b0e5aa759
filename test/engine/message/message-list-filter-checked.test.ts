/*
 * Message → Get Many with a filter outputs only what the service answered about that filter. A
 * service (or a gateway in front of it) that drops or ignores the query answers the whole history:
 * output as it was, the messages of every contact went on as the messages "with +44 20 7946 0018",
 * and a workflow acting on them acted on other people's conversations. A message that names
 * another contact, conversation, business number or direction than the one asked for fails the
 * item (nothing is output for it); a message that leaves the field out says nothing against it.
 */
import fc from 'fast-check';

import { runChatMessaging } from '../../helpers/engineHarness';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'adv4-message-list-filter-key-77d3';
const service = useStandInService({ apiKey: API_KEY });

/** Each filter as the user sets it, the value it asks for, and another value of the same field. */
const FILTERS = {
	phone_number: {
		filter: { phoneNumber: '+44 20 7946 0018' },
		asked: '+442079460018',
		other: '+14155550123',
	},
	conversation_id: { filter: { conversationId: 'conv_a1' }, asked: 'conv_a1', other: 'conv_b2' },
	business_phone_number: {
		filter: { businessPhoneNumber: '14155550100' },
		asked: '14155550100',
		other: '14155550199',
	},
	direction: { filter: { direction: 'inbound' }, asked: 'inbound', other: 'outbound' },
} as const;
type Field = keyof typeof FILTERS;

async function listWith(field: Field, messages: object[]) {
	service.clearFaults();
	service.injectFaults({
		status: 200,
		body: { count: messages.length, next: null, prev: null, messages },
		path: '/api/v1/messages',
	});
	const result = await runChatMessaging({
		items: [{}],
		parameters: {
			resource: 'message',
			operation: 'getMany',
			returnAll: true,
			filters: FILTERS[field].filter,
		} as never,
		baseUrl: service.url,
		apiKey: API_KEY,
		continueOnFail: true,
	});
	service.clearFaults();
	expect(result.error).toBeUndefined();
	return result.output!.map((item) => item.json);
}

test('a message about something other than the filter asked for: the item fails, nothing is output', async () => {
	await fc.assert(
		fc.asyncProperty(
			fc.constantFrom(...(Object.keys(FILTERS) as Field[])),
			fc.array(fc.constantFrom('asked' as const, 'absent' as const, 'other' as const), {
				minLength: 1,
				maxLength: 5,
			}),
			async (field, kinds) => {
				const messages = kinds.map((kind, index) => ({
					id: `msg_${index}`,
					...(kind === 'absent' ? {} : { [field]: FILTERS[field][kind] }),
				}));
				const output = await listWith(field, messages);
				if (kinds.includes('other')) {
					expect(output).toEqual([
						expect.objectContaining({
							outcome: 'not sent',
							error: expect.stringMatching(/filter/),
						}),
					]);
				} else {
					expect(output.map((item) => item.id)).toEqual(messages.map((message) => message.id));
				}
			},
		),
		{ numRuns: 12 },
	);
});

test('the phone number is compared as a number, however the service writes it', async () => {
	const output = await listWith('phone_number', [
		{ id: 'msg_1', phone_number: '+44 20 7946 0018' },
	]);
	expect(output.map((item) => item.id)).toEqual(['msg_1']);
});

// Found by answers-the-contract-allows.property.test.ts: a record naming its conversation or phone
// number as a JSON number (the contract leaves their type open) passed whatever it named.
test('a conversation or phone number written as a JSON number is compared as the number it names', async () => {
	service.clearFaults();
	const asked = await runFiltered({ conversationId: '42' }, [{ id: 'msg_1', conversation_id: 42 }]);
	expect(asked.map((item) => item.id)).toEqual(['msg_1']);
	const another = await runFiltered({ conversationId: '42' }, [
		{ id: 'msg_1', conversation_id: 7 },
	]);
	expect(another).toEqual([
		expect.objectContaining({ outcome: 'not sent', error: expect.stringMatching(/filter/) }),
	]);
	const otherPhone = await listWith('phone_number', [{ id: 'msg_1', phone_number: 14155550123 }]);
	expect(otherPhone).toEqual([
		expect.objectContaining({ outcome: 'not sent', error: expect.stringMatching(/filter/) }),
	]);
	const samePhone = await listWith('phone_number', [{ id: 'msg_1', phone_number: 442079460018 }]);
	expect(samePhone.map((item) => item.id)).toEqual(['msg_1']);
});

async function runFiltered(filters: object, messages: object[]) {
	service.clearFaults();
	service.injectFaults({
		status: 200,
		body: { count: messages.length, next: null, prev: null, messages },
		path: '/api/v1/messages',
	});
	const result = await runChatMessaging({
		items: [{}],
		parameters: { resource: 'message', operation: 'getMany', returnAll: true, filters } as never,
		baseUrl: service.url,
		apiKey: API_KEY,
		continueOnFail: true,
	});
	expect(result.error).toBeUndefined();
	return result.output!.map((item) => item.json);
}
