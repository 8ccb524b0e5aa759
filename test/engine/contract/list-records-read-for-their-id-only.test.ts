/*
 * Message → Get Many Statuses, Media → Get Many, Conversation → Get Many and Broadcast → Get Many
 * need of each record only its id (the needs table, nodes/shared/schemas/answerNeeds.ts; a record's
 * status only to check a Status filter the user set): a record whose status or link the service has
 * not written yet (null, absent), writes as another type, or whose id it writes as an integer is
 * output as written, and the others with it, instead of the whole page being refused.
 */
import { useStandInService } from '../../helpers/standInFixture';
import { runChatMessaging } from '../../helpers/engineHarness';

const API_KEY = 'records-read-for-their-id-key-SECRET-5d1e';
const service = useStandInService({ apiKey: API_KEY });

async function listAnswered(path: string, parameters: object, body: object) {
	service.injectFaults([{ path, answer: { status: 200, body } }]);
	const result = await runChatMessaging({
		items: [{}],
		parameters: { returnAll: true, ...parameters } as never,
		baseUrl: service.url,
		apiKey: API_KEY,
	});
	expect(result.error).toBeUndefined();
	return result.output!.map((item) => item.json);
}

test('Get Many Statuses: an integer id and a null or absent status are read, each record as written', async () => {
	const records = [
		{ id: 17, status: 'sent', phone_number: '+14155550123' },
		{ id: 'tm_2', status: null },
		{ id: 'tm_3' },
	];
	const output = await listAnswered(
		'/api/v1/template_messages',
		{ resource: 'message', operation: 'getManyStatuses' },
		{ template_messages: records, next: null },
	);
	expect(output).toHaveLength(3);
	records.forEach((record, index) => expect(output[index]).toMatchObject(record));
});

test('Media → Get Many: a media item without its link yet (null, absent) is read with the others', async () => {
	const records = [
		{ id: 1, media_url: 'https://cdn.example.com/a.png', filename: 'a.png' },
		{ id: 'med_2', media_url: null, filename: 'b.pdf' },
		{ id: 3, filename: 'c.mp4' },
	];
	const output = await listAnswered(
		'/api/v1/medias',
		{ resource: 'media', operation: 'getMany' },
		{ medias: records, next: null },
	);
	expect(output).toHaveLength(3);
	records.forEach((record, index) => expect(output[index]).toMatchObject(record));
});

describe.each([
	['conversation', '/api/v1/conversations', 'conversations', 'open'],
	['broadcast', '/api/v1/broadcasts', 'broadcasts', 'sent'],
])(
	'%s → Get Many: a status null, absent or not text is read with the others',
	(resource, path, key, status) => {
		const records = [
			{ id: 'first', status },
			{ id: 'second', status: [] },
			{ id: 3, status: null },
			{ id: 'fourth' },
		];

		test('without a Status filter', async () => {
			const output = await listAnswered(
				path,
				{ resource, operation: 'getMany' },
				{ [key]: records, next: null },
			);
			expect(output).toHaveLength(4);
			records.forEach((record, index) => expect(output[index]).toMatchObject(record));
		});

		test('with a Status filter: a record that names no status says nothing against it', async () => {
			const output = await listAnswered(
				path,
				{ resource, operation: 'getMany', filters: { status } },
				{ [key]: records, next: null },
			);
			expect(output).toHaveLength(4);
			records.forEach((record, index) => expect(output[index]).toMatchObject(record));
		});
	},
);
