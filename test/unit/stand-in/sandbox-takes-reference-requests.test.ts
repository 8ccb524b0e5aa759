import {
	firstPlaceholderNumber,
	isRequestSide,
	readReferenceExamples,
	wholeRequestBody,
} from '../../helpers/referenceExamples';
import { useStandInService } from '../../helpers/standInFixture';

/*
 * The stand-in takes every request body the service's public reference shows
 * (test/fixtures/reference/) as docs/openapi.yaml does: a whole example is never refused as
 * outside the contract's shapes, and no example, whole or cut, makes the stand-in fail (5xx). What
 * the stand-in then says about the objects it names (an unknown template, an order it does not
 * hold) is its own business: the reference's ids are placeholders.
 */

/**
 * The rules the document states in words that a reference example can break by its age: its
 * examples were written in 2024, and an order's expiry must lie in the future.
 */
const AGED = /^must lie in the future$/;

const API_KEY = 'reference-requests-key-5d21';
const service = useStandInService({ apiKey: API_KEY });

const fixtures = readReferenceExamples();
const byFile = new Map(fixtures);
const requests = fixtures.filter(
	([, fixture]) => isRequestSide(fixture) && fixture.method !== 'GET',
);

async function send(method: string, path: string, body: unknown) {
	const response = await fetch(`${service.url}${path}`, {
		method,
		headers: { authorization: API_KEY, 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
	await response.arrayBuffer();
	return response.status;
}

test('there are request bodies to send', () => {
	expect(requests.length).toBeGreaterThan(10);
});

test.each(requests)('%s: taken as the contract takes it', async (file, fixture) => {
	const body = wholeRequestBody(file, firstPlaceholderNumber(fixture.example), byFile);
	const status = await send(fixture.method!, fixture.path!, body);
	const logged = service.requests.at(-1)!;
	expect(`${logged.method} ${logged.path}`).toBe(`${fixture.method} ${fixture.path}`);
	expect(status).toBeLessThan(500);
	if (!fixture.cut) {
		const refused = Object.values(logged.contractViolation ?? {}).flat();
		expect(refused.filter((message) => !AGED.test(message))).toEqual([]);
	}
});
