import fc from 'fast-check';

import { startStandInService, type StandInService } from '../../../sandbox/server';
import { loadOpenApiContract, readContractDocument } from '../../helpers/openApiContract';

/*
 * A query parameter is text; the contract says which texts an integer or a boolean parameter takes.
 * A validator that coerces loosely reads `page=0x10`, `1e1`, ` 5`, `5.0` or `+5` as a number, so a
 * client sending one of them would pass the stand-in and meet the real service's refusal. The
 * stand-in takes an integer exactly when it is written as a decimal integer the usual way (no sign
 * but a leading minus, no leading zero, no spaces) within the document's bounds, and a boolean
 * exactly when it is `true` or `false`; anything else is the 422 naming the parameter, logged as a
 * contract violation, as every other refusal of the contract is.
 */

interface QueryParameter {
	path: string;
	name: string;
	schema: { type?: string; minimum?: number; maximum?: number };
}

/** Every integer and boolean query parameter of a GET the document declares, with its schema. */
function typedQueryParameters(): QueryParameter[] {
	const document = readContractDocument() as any;
	const shared = document.components?.parameters ?? {};
	const resolve = (parameter: any) =>
		parameter.$ref === undefined ? parameter : shared[parameter.$ref.split('/').at(-1)];
	const found: QueryParameter[] = [];
	for (const [path, item] of Object.entries<any>(document.paths)) {
		const get = item.get;
		if (get === undefined) continue;
		for (const parameter of [...(item.parameters ?? []), ...(get.parameters ?? [])].map(resolve)) {
			const type = parameter.schema?.type;
			if (parameter.in === 'query' && (type === 'integer' || type === 'boolean'))
				found.push({ path, name: parameter.name, schema: parameter.schema });
		}
	}
	return found;
}

const PARAMETERS = typedQueryParameters();
const INTEGERS = PARAMETERS.filter((parameter) => parameter.schema.type === 'integer');
const BOOLEANS = PARAMETERS.filter((parameter) => parameter.schema.type === 'boolean');

/** The contract's own reading of a query integer: decimal digits as an integer is written. */
function keepsIntegerContract(text: string, schema: QueryParameter['schema']): boolean {
	if (!/^(0|-?[1-9][0-9]*)$/.test(text)) return false;
	const value = BigInt(text);
	if (schema.minimum !== undefined && value < BigInt(schema.minimum)) return false;
	if (schema.maximum !== undefined && value > BigInt(schema.maximum)) return false;
	return true;
}

/** Texts around an integer: canonical ones in and out of bounds, and the other ways to write one. */
const integerTexts = fc.oneof(
	fc.integer({ min: -3, max: 1_003 }).map(String),
	fc.bigInt({ min: 0n, max: 10n ** 25n }).map(String),
	fc
		.tuple(
			fc.integer({ min: 0, max: 1_003 }),
			fc.constantFrom(
				(n: number) => `0x${n.toString(16)}`,
				(n: number) => `0o${n.toString(8)}`,
				(n: number) => `0b${n.toString(2)}`,
				(n: number) => n.toExponential(),
				(n: number) => `${n}e0`,
				(n: number) => `+${n}`,
				(n: number) => ` ${n}`,
				(n: number) => `${n} `,
				(n: number) => `\t${n}\n`,
				(n: number) => `${n}.0`,
				(n: number) => `${n}.`,
				(n: number) => `0${n}`,
				(n: number) => `00${n}`,
				(n: number) => `${n}_0`,
				(n: number) => `-${n}`,
			),
		)
		.map(([n, write]) => write(n)),
	fc.constantFrom('', '-0', '+0', '0', 'Infinity', 'NaN', 'true', 'null', '١٢', '１２'),
	fc.string({ maxLength: 6 }),
	fc.stringOf(fc.constantFrom('0', '1', '5', '9', '.', 'e', 'x', '+', '-', ' '), { maxLength: 6 }),
);

const booleanTexts = fc.oneof(
	fc.constantFrom('true', 'false', 'TRUE', 'False', '1', '0', '', ' true', 'true ', 'yes', 'null'),
	fc.string({ maxLength: 6 }),
);

let service: StandInService;

beforeAll(async () => {
	service = await startStandInService();
});
afterAll(() => service.close());

/** Asks for the list with one parameter, as text; whether it was taken, and what was refused. */
async function ask(parameter: QueryParameter, text: string) {
	service.clearRequests();
	const query = new URLSearchParams({ [parameter.name]: text });
	const response = await fetch(`${service.url}${parameter.path}?${query.toString()}`, {
		headers: { authorization: service.apiKey },
	});
	const body = (await response.json()) as any;
	return { status: response.status, body, logged: service.requests.at(-1)! };
}

test('the document has integer and boolean query parameters to hold (the test is not empty)', () => {
	expect(INTEGERS.map(({ path, name }) => `${path} ${name}`)).toEqual(
		expect.arrayContaining(['/api/v1/medias page', '/api/v1/medias per']),
	);
	expect(BOOLEANS.map(({ name }) => name)).toEqual(
		expect.arrayContaining(['escalated', 'has_call_permission']),
	);
});

test.each(INTEGERS.map((parameter) => [`${parameter.path} ${parameter.name}`, parameter] as const))(
	'%s: an integer is taken exactly when written as a decimal integer within the bounds',
	async (_, parameter) => {
		await fc.assert(
			fc.asyncProperty(integerTexts, async (text) => {
				const answer = await ask(parameter, text);
				if (keepsIntegerContract(text, parameter.schema)) {
					expect(answer.status).toBe(200);
					expect(answer.logged.contractViolation).toBeUndefined();
				} else {
					expect(answer.status).toBe(422);
					expect(Object.keys(answer.body.errors)).toEqual([parameter.name]);
					expect(Object.keys(answer.logged.contractViolation ?? {})).toEqual([parameter.name]);
				}
			}),
			{
				numRuns: 150,
				// The forms a loose reading takes for numbers are tried every run, not left to chance.
				examples: [['0x10'], ['1e1'], [' 5'], ['5.0'], ['+5'], [''], ['05'], ['1'], ['1000']],
			},
		);
	},
);

test.each(BOOLEANS.map((parameter) => [`${parameter.path} ${parameter.name}`, parameter] as const))(
	'%s: a boolean is taken exactly when written true or false',
	async (_, parameter) => {
		await fc.assert(
			fc.asyncProperty(booleanTexts, async (text) => {
				const answer = await ask(parameter, text);
				if (text === 'true' || text === 'false') {
					expect(answer.status).toBe(200);
					expect(answer.logged.contractViolation).toBeUndefined();
				} else {
					expect(answer.status).toBe(422);
					expect(Object.keys(answer.body.errors)).toEqual([parameter.name]);
					expect(Object.keys(answer.logged.contractViolation ?? {})).toEqual([parameter.name]);
				}
			}),
			{ numRuns: 100, examples: [['true'], ['false'], ['1'], ['TRUE'], ['']] },
		);
	},
);

// The tests' own reading of the document (test/helpers/openApiContract.ts), which judges every request the
// node makes in test/engine/contract/every-request-keeps-contract.test.ts, reads query integers the same way.
test.each(INTEGERS.map((parameter) => [`${parameter.path} ${parameter.name}`, parameter] as const))(
	"%s: the tests' reading of the document takes the same integers",
	async (_, parameter) => {
		const contract = await loadOpenApiContract();
		fc.assert(
			fc.property(integerTexts, (text) => {
				const problems = contract.requestProblems({
					method: 'GET',
					path: parameter.path,
					query: { [parameter.name]: text },
				});
				expect(problems.length === 0).toBe(keepsIntegerContract(text, parameter.schema));
			}),
			{ numRuns: 300, examples: [['0x10'], ['1e1'], [' 5'], ['5.0'], ['+5'], [''], ['1']] },
		);
	},
);
