/*
 * An answer about one object is read for what the node needs of it (the needs table,
 * nodes/shared/schemas/answerNeeds.ts) and given back as the service wrote it. Broadcast → Get and
 * Order → Refund read `status` only as a failure sign, yet refused an answer whose status was null
 * or absent (a broadcast or refund whose status the service has not written yet).
 */
import { useStandInService } from '../../helpers/standInFixture';
import { runNamedOperation } from '../../helpers/runNamedOperation';

const API_KEY = 'single-answers-read-key-SECRET-0b7d';
const service = useStandInService({ apiKey: API_KEY });

async function answered(name: string, path: string, body: object) {
	service.injectFaults([{ path, answer: { status: 200, body } }]);
	return await runNamedOperation(name, service, API_KEY);
}

test.each([
	['null', { id: 'cmp_1', status: null, name: 'Spring sale' }],
	['absent', { id: 'cmp_1', name: 'Spring sale' }],
])('Broadcast → Get: a status %s is output as written', async (_how, body) => {
	const output = await answered('broadcast → get', '/api/v1/broadcasts/cmp_1', body);
	expect(output).toStrictEqual(body);
});

test.each([
	['null', { id: 'rf_1', status: null, order_id: 'wa_ord_1' }],
	['absent', { id: 7, order_id: 'wa_ord_1' }],
])('Order → Refund: a status %s is output as written', async (_how, body) => {
	const output = await answered('order → refund', '/api/v1/orders/wa_ord_1/refunds', body);
	expect(output).toMatchObject(body);
	expect('status' in output ? output.status : undefined).toStrictEqual(
		'status' in body ? body.status : undefined,
	);
});
