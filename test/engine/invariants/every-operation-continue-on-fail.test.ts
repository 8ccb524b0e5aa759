/*
 * With Continue On Fail, every input item comes out exactly once, paired with itself, whatever
 * failed: here an expression that throws for one item only (it reads a field that item does not
 * have, so it falls back to a node that never ran). Run for every operation the node offers, in both node versions, straight from the node's
 * description, so an operation added later is covered without a line here. The poisoned parameter
 * is the operation's first one that takes an expression; the other parameters keep their
 * defaults, so items 0 and 2 may succeed or fail for their own reasons: either way each comes out
 * once, and item 1 comes out once as an error naming the failed expression.
 */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { ChatMessaging } from '../../../nodes/ChatMessaging/ChatMessaging.node';
import { useStandInService } from '../../helpers/standInFixture';
import { runChatMessaging } from '../../helpers/engineHarness';

const API_KEY = 'every-operation-cof-key-77d1';
const service = useStandInService({ apiKey: API_KEY });

const properties = new ChatMessaging().description.properties;

function shownFor(
	property: INodeProperties,
	resource: string,
	operation: string,
	version: number,
): boolean {
	const show = property.displayOptions?.show ?? {};
	const versions = show['@version'] as Array<number | { _cnd: { gte: number } }> | undefined;
	const versionShown = (allowed: number | { _cnd: { gte: number } }) =>
		typeof allowed === 'number' ? allowed === version : version >= allowed._cnd.gte;
	if (versions !== undefined && !versions.some(versionShown)) return false;
	const resources = show.resource as string[] | undefined;
	const operations = show.operation as string[] | undefined;
	return (
		(resources === undefined || resources.includes(resource)) &&
		(operations === undefined || operations.includes(operation))
	);
}

function pairsOf(version: number): Array<[string, string]> {
	const resources = (
		properties.find((p) => p.name === 'resource')!.options as INodePropertyOptions[]
	).map((o) => String(o.value));
	return resources.flatMap((resource) =>
		properties
			.filter((p) => p.name === 'operation' && shownFor(p, resource, '', version))
			.flatMap((p) =>
				(p.options as INodePropertyOptions[]).map((o): [string, string] => [
					resource,
					String(o.value),
				]),
			),
	);
}

const EXPRESSION_TYPES = ['string', 'number', 'json', 'dateTime', 'resourceLocator'];

/** The operation's top-level parameters a user can give as an expression. */
function expressionParameters(
	resource: string,
	operation: string,
	version: number,
): INodeProperties[] {
	return properties.filter(
		(p) =>
			p.displayOptions?.show?.operation !== undefined &&
			shownFor(p, resource, operation, version) &&
			p.noDataExpression !== true &&
			EXPRESSION_TYPES.includes(p.type),
	);
}

/** The first of them, and every required one (n8n does not run a node with one left empty). */
function poisonable(resource: string, operation: string, version: number): INodeProperties[] {
	const all = expressionParameters(resource, operation, version);
	return all.filter((p, index) => index === 0 || p.required === true);
}

/*
 * Send Template and Wait for Response takes one item per execution and sends nothing for several
 * (every item comes out failed with Continue On Fail): its own tests cover that
 * (send-and-wait.test.ts), so it has no item 1 to fail alone here.
 */
const ONE_ITEM_OPERATIONS = ['message:sendAndWait'];

const cases = [1, 2].flatMap((version) =>
	pairsOf(version)
		.filter(([resource, operation]) => !ONE_ITEM_OPERATIONS.includes(`${resource}:${operation}`))
		.map(([resource, operation]) => [version, resource, operation] as const),
);

test('the table covers every operation of both versions', () => {
	expect(cases.filter(([version]) => version === 2)).toHaveLength(33);
	for (const [version, resource, operation] of cases)
		expect(poisonable(resource, operation, version).length).toBeGreaterThan(0);
});

test.each(cases)(
	'version %i, %s → %s: an expression that throws for item 1 fails item 1 alone, once',
	async (version, resource, operation) => {
		const poisoned = poisonable(resource, operation, version);
		// Only item 1 takes the branch that reads a node which never ran: n8n throws for it alone.
		const expression = "={{ $json.value ?? $('Node That Never Ran').item.json.value }}";
		const parameters = Object.fromEntries(
			poisoned.map((p) => [
				p.name,
				p.type === 'resourceLocator' ? { __rl: true, mode: 'id', value: expression } : expression,
			]),
		);
		const good = { value: 'wat_1a2b3c4d5e6f7081', phone: '+14155550123', name: 'Ada' };
		const result = await runChatMessaging({
			items: [good, { phone: '+14155550124' }, { ...good, phone: '+14155550125' }],
			parameters: { resource, operation, ...parameters } as never,
			baseUrl: service.url,
			apiKey: API_KEY,
			continueOnFail: true,
			typeVersion: version,
		});
		expect(result.error).toBeUndefined();
		const output = result.output ?? [];
		const pairedWith = output.map((item) => (item.pairedItem as { item: number }).item);
		// Lists may give several records per item; everything else exactly one item per item.
		for (const itemIndex of [0, 2])
			expect(pairedWith.filter((paired) => paired === itemIndex).length).toBeGreaterThanOrEqual(1);
		const ofItem1 = output.filter((item) => (item.pairedItem as { item: number }).item === 1);
		expect(ofItem1).toHaveLength(1);
		// The error names the parameter, as the user sees it, and what went wrong in the expression.
		expect(ofItem1[0].json).toMatchObject({ outcome: 'not sent' });
		expect(poisoned.map((p) => `${p.displayName}: Referenced node doesn't exist`)).toContain(
			ofItem1[0].json.error,
		);
		if (!/^getMany|^getManyStatuses$/.test(operation)) expect(output).toHaveLength(3);
		// In input order: an item's outputs never come after a later item's.
		expect([...pairedWith].sort((a, b) => a - b)).toEqual(pairedWith);
		// Nothing was sent for item 1.
		for (const request of service.requests)
			expect(JSON.stringify(request.body ?? '')).not.toContain('+14155550124');
	},
);

test.each(cases)(
	'version %i, %s → %s without Continue On Fail: the node stops naming item 1, and nothing is changed',
	async (version, resource, operation) => {
		const poisoned = poisonable(resource, operation, version);
		const expression = "={{ $json.value ?? $('Node That Never Ran').item.json.value }}";
		const parameters = Object.fromEntries(
			poisoned.map((p) => [
				p.name,
				p.type === 'resourceLocator' ? { __rl: true, mode: 'id', value: expression } : expression,
			]),
		);
		const good = { value: 'wat_1a2b3c4d5e6f7081', phone: '+14155550123', name: 'Ada' };
		service.clearRequests();
		const result = await runChatMessaging({
			items: [good, { phone: '+14155550124' }, { ...good, phone: '+14155550125' }],
			parameters: { resource, operation, ...parameters } as never,
			baseUrl: service.url,
			apiKey: API_KEY,
			typeVersion: version,
		});
		const error = result.error as { message: string } | undefined;
		// Items are read in order, so the first unreadable one may be item 0 (its own values refused)
		// or item 1 (the expression): either way the run stops before anything that changes the service.
		expect(error?.message).toMatch(/\[item [01]\]/);
		expect(service.requests.filter((request) => request.method !== 'GET')).toEqual([]);
	},
);
