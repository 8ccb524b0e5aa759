/*
 * Broadcast Launch with Contacts From Input Items is one broadcast: every item must name the same
 * template, or the run is refused rather than item 0's template going to everyone. Template
 * Language is part of which template that is (a By Name template in en or es): set by an
 * expression that differs by item, the Spanish-speaking contacts would otherwise be sent the
 * English template that item 0 named, because only parameters known to vary were compared.
 */
import { useStandInService } from '../../helpers/standInFixture';
import { runChatMessaging } from '../../helpers/engineHarness';
import { mappedBelow, picked } from '../../helpers/savedParameters';

const API_KEY = 'broadcast-language-per-item-key';
const service = useStandInService({ apiKey: API_KEY });

const EVENTS = '/api/v1/events';
// order_update in es has these three; en has order_total besides.
const shared = { first_name: 'there', order_number: 'A-7', order_status: 'ready' };

const launch = {
	resource: 'broadcast',
	operation: 'launch',
	broadcastName: 'Restock',
	audience: 'contactsFromInput',
	contactFields: 'autoMapInputData',
	template: picked('order_update', 'name'),
	templateLanguage: '={{ $json.lang }}',
	templateVariablesMapped: mappedBelow(shared),
};

const launched = () =>
	service
		.acceptedSends(EVENTS)
		.map((request) => (request.body as { broadcast: Record<string, unknown> }).broadcast);

test('Template Language differing by item: refused, never item 0 language for everyone', async () => {
	const result = await runChatMessaging({
		items: [
			{ phone: '+14155550123', lang: 'es' },
			{ phone: '+14155550124', lang: 'en' },
		],
		parameters: launch as never,
		baseUrl: service.url,
		apiKey: API_KEY,
		typeVersion: 2,
	});
	expect(launched()).toEqual([]);
	expect((result.error as { message?: string } | undefined)?.message).toMatch(/\[item 1\]$/);
});

test('the same Template Language by expression on every item: one broadcast in that language', async () => {
	const result = await runChatMessaging({
		items: [
			{ phone: '+14155550123', lang: 'es' },
			{ phone: '+14155550124', lang: 'es' },
		],
		parameters: launch as never,
		baseUrl: service.url,
		apiKey: API_KEY,
		typeVersion: 2,
	});
	expect(result.error).toBeUndefined();
	expect(launched().map((broadcast) => broadcast.chat_template_id)).toEqual([
		'wat_2b3c4d5e6f708192',
	]);
});
