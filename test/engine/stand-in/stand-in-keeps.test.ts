/*
 * The stand-in keeps what it accepts: what one operation made, another reads back, through the
 * engine as a user's workflow would.
 *
 * Was: POST /subscribers answered 201 and stored nothing, so a contact made by Create Many could not
 * be read with Contact → Get; assign_agent answered {} and no conversation showed the agent.
 */
import { runChatMessaging } from '../../helpers/engineHarness';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'stand-in-keeps-key-SECRET-90b4';
const service = useStandInService({ apiKey: API_KEY });

async function run(parameters: Record<string, unknown>, items: object[] = [{}]) {
	const result = await runChatMessaging({
		items,
		parameters: parameters as never,
		baseUrl: service.url,
		apiKey: API_KEY,
	});
	expect(result.error).toBeUndefined();
	return result.output!.map((item) => item.json);
}

test('a contact made by Create Many is read back by Contact → Get, with its details', async () => {
	const people = [
		{ phone: '+4930123450001', name: 'Rosa Kern', email: 'rosa@example.com' },
		{ phone: '+4930123450002', name: 'Emil Sand', email: 'emil@example.com' },
	];
	const created = await run(
		{
			resource: 'contact',
			operation: 'createMany',
			contactFields: 'defineBelow',
			phoneNumber: '={{ $json.phone }}',
			additionalFields: { name: '={{ $json.name }}', email: '={{ $json.email }}' },
		},
		people,
	);
	expect(created).toHaveLength(2);

	const read = await run(
		{ resource: 'contact', operation: 'get', phoneNumber: '={{ $json.phone }}' },
		people,
	);
	expect(read).toEqual(
		people.map((person) =>
			expect.objectContaining({
				phone_number: person.phone,
				name: person.name,
				email: person.email,
			}),
		),
	);
});

test('an agent assigned by Assign Agent shows on the contact’s conversation', async () => {
	await run({
		resource: 'conversation',
		operation: 'assignAgent',
		phoneNumber: '+14155550124',
		contactName: 'Grace Hopper',
		agentEmail: 'night-shift@example.com',
		openChatOnAssignment: true,
	});
	const conversations = await run({
		resource: 'conversation',
		operation: 'getMany',
		returnAll: true,
		filters: { phoneNumber: '+14155550124' },
	});
	expect(conversations.length).toBeGreaterThan(0);
	expect(conversations[0]).toMatchObject({
		assigned_agent_email: 'night-shift@example.com',
		last_activity_type: 'assignment',
	});
});
