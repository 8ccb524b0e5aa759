import { describeBulk, otherCores, runBulk, type BulkResult } from '../bulkRuns';
import type { LiveBench } from '../context';
import { formatNumber } from '../report';
import { EXPRESSION_ENGINE, OUR_DEFAULT_CONCURRENCY, SENDS, say } from '../settings';

/*
 * 2. Sends: Send Template at its defaults (expressions), one at a time, and HTTP Request, with the
 * same bodies; then Send Template with Map Automatically (no expression per item) beside HTTP Request
 * sending those same bodies mapped by expressions.
 */

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
		[bulk.sendOursAutomatic, 'Chat Messaging (Map Automatically)'],
		[bulk.sendHttpAsAutomatic, 'HTTP Request (defaults), the same bodies by expressions'],
	] as const) {
		say(`sending ${SENDS} templates: ${label}`);
		const result = await runBulk(bench, entry, label, SENDS);
		say(describeBulk(result));
		if (result.standIn.accepted !== SENDS)
			problems.push(`${label}: the stand-in accepted ${result.standIn.accepted} of ${SENDS}`);
		results.push(result);
	}
	const [ours, sequential, http, , automatic, httpAsAutomatic] = results;
	for (const [reference, others] of [
		[ours, [sequential, http]],
		[automatic, [httpAsAutomatic]],
	] as const) {
		const differing = others.filter(
			(other) => other.standIn.bodiesDigest !== reference.standIn.bodiesDigest,
		);
		for (const other of differing) {
			problems.push(
				`${other.label} sent other bodies than ${reference.label}, e.g. ${JSON.stringify(other.standIn.sampleBody)}`,
			);
		}
		if (!differing.length)
			say(
				`the same ${SENDS} bodies in ${reference.label} and ${others.map((other) => other.label).join(', ')} (digest ${reference.standIn.bodiesDigest})`,
			);
	}

	for (const result of results) {
		report.add(
			`send ${SENDS}: ${result.label}`,
			'items/s',
			perSecond(result),
			`node ${formatNumber(result.nodeMs)} ms, ${result.standIn.requests} requests; expression engine ${EXPRESSION_ENGINE}; ${otherCores(result)}`,
		);
	}
	const oursPerSecond = perSecond(ours);
	const versusHttp = oursPerSecond / perSecond(http);
	report.ratio('send, Chat Messaging default / HTTP Request default', versusHttp, 'x', undefined, {
		text: '≥ 4x',
		met: versusHttp >= 4,
	});
	// The same run under issue 26's name: the defaults users build by dragging fields in.
	report.ratio(
		'send defaults (drag-and-drop expressions) / HTTP Request',
		versusHttp,
		'x',
		`={{ $json.… }} parameters, read from the items (actions/run/draggedFields.ts); the same ${SENDS} bodies`,
		{ text: '≥ 4x', met: versusHttp >= 4 },
	);
	report.ratio(
		'send, Chat Messaging default / Chat Messaging 1 in parallel',
		oursPerSecond / perSecond(sequential),
		'x',
	);
	const automaticVersusHttp = perSecond(automatic) / perSecond(httpAsAutomatic);
	report.ratio(
		'send map-automatically / HTTP Request',
		automaticVersusHttp,
		'x',
		`the same ${SENDS} bodies; HTTP Request maps them by expressions (engine ${EXPRESSION_ENGINE})`,
		{
			text: '≥ 4x',
			met: automaticVersusHttp >= 4,
		},
	);
	return { sampleBody: JSON.stringify(ours.standIn.sampleBody), oursPerSecond };
}
