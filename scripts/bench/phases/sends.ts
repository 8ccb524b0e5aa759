import { describeBulk, otherCores, runBulk, type BulkResult } from '../bulkRuns';
import type { LiveBench } from '../context';
import { formatNumber } from '../report';
import { OUR_DEFAULT_CONCURRENCY, SENDS, say } from '../settings';

/* 2. Sends: Send Template at its defaults, one at a time, and HTTP Request, with the same bodies. */

export interface SendFigures {
	/** One body as the node sent it, for the stand-in's ceiling. */
	sampleBody: string;
	/** Send Template at its defaults. */
	oursPerSecond: number;
}

const perSecond = (result: BulkResult) => (result.items / result.nodeMs) * 1000;

export async function measureSends(bench: LiveBench): Promise<SendFigures> {
	const { bulk, report, problems } = bench;
	const results: BulkResult[] = [];
	for (const [entry, label] of [
		[bulk.sendOurs, `Chat Messaging (defaults: ${OUR_DEFAULT_CONCURRENCY} in parallel)`],
		[bulk.sendOursSequential, 'Chat Messaging (1 in parallel)'],
		[bulk.sendHttp, 'HTTP Request (defaults)'],
		[bulk.sendOursFixed, 'Chat Messaging (defaults), fixed values (diagnostic)'],
	] as const) {
		say(`sending ${SENDS} templates: ${label}`);
		const result = await runBulk(bench, entry, label, SENDS);
		say(describeBulk(result));
		if (result.standIn.accepted !== SENDS) problems.push(`${label}: the stand-in accepted ${result.standIn.accepted} of ${SENDS}`);
		results.push(result);
	}
	const [ours, sequential, http] = results;
	const differing = [sequential, http].filter((other) => other.standIn.bodiesDigest !== ours.standIn.bodiesDigest);
	for (const other of differing) {
		problems.push(`${other.label} sent other bodies than ${ours.label}, e.g. ${JSON.stringify(other.standIn.sampleBody)}`);
	}
	if (!differing.length) say(`the same ${SENDS} bodies in all three runs (digest ${ours.standIn.bodiesDigest})`);

	for (const result of results) {
		report.add(
			`send ${SENDS}: ${result.label}`,
			'items/s',
			perSecond(result),
			`node ${formatNumber(result.nodeMs)} ms, ${result.standIn.requests} requests; ${otherCores(result)}`,
		);
	}
	const oursPerSecond = perSecond(ours);
	const versusHttp = oursPerSecond / perSecond(http);
	report.ratio('send, Chat Messaging default / HTTP Request default', versusHttp, 'x', undefined, {
		text: '≥ 4x',
		met: versusHttp >= 4,
	});
	report.ratio('send, Chat Messaging default / Chat Messaging 1 in parallel', oursPerSecond / perSecond(sequential), 'x');
	return { sampleBody: JSON.stringify(ours.standIn.sampleBody), oursPerSecond };
}
