/*
 * The stand-in answers what it keeps: POST /subscribers (Create Many) answers the first contact as
 * it now stands, the one Contact → Get reads back, not the body as sent. A contact that already
 * existed keeps its other details and merges its metadata, so "as sent" would show a contact the
 * service does not hold.
 */
import { runChatMessaging } from '../../helpers/engineHarness';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'adv-account-answers-key-SECRET-0c2e';
const service = useStandInService({ apiKey: API_KEY });

async function run(parameters: Record<string, unknown>, items: object[]) {
	const result = await runChatMessaging({
		items,
		parameters: parameters as never,
		baseUrl: service.url,
		apiKey: API_KEY,
	});
	expect(result.error).toBeUndefined();
	return result.output!.map((item) => item.json);
}

test('Create Many for a contact the service already has answers the contact as kept', async () => {
	// Ada is in the stand-in's contact book, with a name and metadata of her own.
	const ada = '+14155550123';
	const [created] = await run(
		{
			resource: 'contact',
			operation: 'createMany',
			contactFields: 'defineBelow',
			phoneNumber: '={{ $json.phone }}',
			additionalFields: {
				email: 'ada@example.com',
				metadata: { property: [{ key: 'team', value: 'engines' }] },
			},
		},
		[{ phone: '00 1 415 555 0123' }],
	);
	const [read] = await run({ resource: 'contact', operation: 'get', phoneNumber: ada }, [{}]);
	expect(read).toMatchObject({
		phone_number: ada,
		email: 'ada@example.com',
		metadata: expect.objectContaining({ team: 'engines' }),
	});
	expect(created.batchResponse).toEqual(read);
});
