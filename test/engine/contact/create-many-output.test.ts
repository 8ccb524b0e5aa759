/*
 * Create Many: the service answers a whole batch with one object (the spec shows a single contact).
 * No contact may be shown that answer as if it were its own: each output item has its own contact
 * as sent, the batch's status, and the batch's answer under a name that says it is the batch's.
 */
import { runChatMessaging } from '../../helpers/engineHarness';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'create-many-output-key-SECRET-2b9d';
const service = useStandInService({ apiKey: API_KEY });

const phones = ['+14155550101', '+14155550102', '+14155550103', '+14155550104', '+14155550105'];

test.each(['defineBelow', 'autoMapInputData'])(
	"contact fields %s: each item has its own contact and the batch's answer as the batch's",
	async (contactFields) => {
		const result = await runChatMessaging({
			items: phones.map((phone, index) => ({ phone, name: `Person ${index}` })),
			parameters: {
				resource: 'contact',
				operation: 'createMany',
				contactFields,
				phoneNumber: '={{ $json.phone }}',
				additionalFields: { name: '={{ $json.name }}' },
				options: { batchSize: 2 },
			} as never,
			baseUrl: service.url,
			apiKey: API_KEY,
		});

		expect(result.error).toBeUndefined();
		const answers = service.requests.map((request) => request);
		expect(answers).toHaveLength(3);
		result.output!.forEach((item, index) => {
			const batchIndex = Math.floor(index / 2);
			expect(item.pairedItem).toEqual({ item: index });
			expect(item.json).toEqual({
				created: true,
				contact: { phone_number: phones[index], name: `Person ${index}` },
				batch: { number: batchIndex + 1, size: batchIndex < 2 ? 2 : 1 },
				statusCode: 201,
				batchResponse: expect.objectContaining({ id: expect.stringMatching(/^ct_/) }),
				retries: 0,
			});
			// The one answer of a batch is the same for its contacts, and names itself the batch's.
			expect(item.json.batchResponse).toEqual(result.output![batchIndex * 2].json.batchResponse);
			expect(item.json).not.toHaveProperty('id');
			expect(item.json).not.toHaveProperty('response');
		});
		// Different batches, different answers: nothing of batch 1 leaks into batch 2.
		expect(result.output![2].json.batchResponse).not.toEqual(result.output![0].json.batchResponse);
	},
);
