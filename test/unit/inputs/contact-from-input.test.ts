import {
	contactFieldsFromInput,
	sendContactFromInput,
} from '../../../nodes/ChatMessaging/actions/fields/contactFromInput';

/* A contact read straight from an input item's fields, by the names people give them. */

const labels = { phoneNumber: 'Phone Number', name: 'Contact Name', email: 'Contact Email' };

describe('sendContactFromInput', () => {
	it.each([
		[{ phone_number: '+14155550101', name: 'Ada', email: 'ada@example.com' }],
		[{ phone: '+14155550101', Name: 'Ada', 'E-mail': 'ada@example.com' }],
		[{ 'Phone Number': '+14155550101', full_name: 'Ada', email_address: 'ada@example.com' }],
		[
			{
				phoneNumber: '+14155550101',
				contactName: 'Ada',
				Email: 'ada@example.com',
				other: 'ignored',
			},
		],
	])('reads %j', (json) => {
		expect(sendContactFromInput(json, labels)).toEqual({
			phoneNumber: '+14155550101',
			name: 'Ada',
			email: 'ada@example.com',
		});
	});

	it('leaves out a name and e-mail the item does not have', () => {
		expect(sendContactFromInput({ phone: '+14155550101' }, labels)).toEqual({
			phoneNumber: '+14155550101',
			name: undefined,
			email: undefined,
		});
	});

	it.each([
		[
			{ name: 'Ada' },
			/Phone Number.*is missing: the input item has no phone_number or phone field \(Contact Fields: Map Automatically From Input\)/,
		],
		[{ phone: '' }, /is missing: .* \(it is empty\)/],
		[{ phone: null }, /is missing: .* \(it is null\)/],
	])('refuses %j: no phone number', (json, message) => {
		expect(() => sendContactFromInput(json, labels)).toThrow(message);
	});

	it('refuses two fields for the phone number that disagree, rather than pick one', () => {
		expect(() =>
			sendContactFromInput({ phone: '+14155550101', phone_number: '+14155550199' }, labels),
		).toThrow(
			/Phone Number.*is given twice in the input item, differently: "phone" and "phone_number"/,
		);
		expect(
			sendContactFromInput({ phone: '+14155550101', phone_number: '+14155550101' }, labels)
				.phoneNumber,
		).toBe('+14155550101');
	});
});

describe('contactFieldsFromInput', () => {
	it('reads only the fields asked for', () => {
		expect(
			contactFieldsFromInput(
				{ name: 'Ada', metadata: { a: '1' } },
				['name'],
				{ name: 'Name' },
				'test',
			),
		).toEqual({ name: 'Ada' });
	});
});
