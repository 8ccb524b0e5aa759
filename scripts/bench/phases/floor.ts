import { describeBulk, otherCores, runBulk } from '../bulkRuns';
import type { LiveBench } from '../context';
import { formatNumber } from '../report';
import { SENDS, say } from '../settings';

/*
 * Issue 26: how close Send Template at its defaults (fields dragged in) comes to n8n's floor, a
 * minimal node (floorNode/) that sends ready-made bodies through the same n8n HTTP helper, with
 * the same request options and as many at once, and does nothing else. The two must send the same
 * bodies (the stand-in's digest).
 */
export async function measureFloor(bench: LiveBench): Promise<void> {
	const { bulk, report, problems } = bench;
	const results = [];
	for (const [entry, label] of [
		[bulk.sendFloor, 'n8n floor (ready-made bodies, the HTTP helper only)'],
		[bulk.sendOurs, 'Chat Messaging (defaults: drag-and-drop expressions)'],
	] as const) {
		say(`sending ${SENDS} templates: ${label}`);
		const result = await runBulk(bench, entry, label, SENDS);
		say(describeBulk(result));
		if (result.standIn.accepted !== SENDS)
			problems.push(`${label}: the stand-in accepted ${result.standIn.accepted} of ${SENDS}`);
		results.push(result);
	}
	const [floor, ours] = results;
	if (floor.standIn.bodiesDigest !== ours.standIn.bodiesDigest)
		problems.push(
			`${floor.label} sent other bodies than ${ours.label}, e.g. ${JSON.stringify(floor.standIn.sampleBody)}`,
		);
	report.add(
		`send ${SENDS}: ${floor.label}`,
		'items/s',
		(floor.items / floor.nodeMs) * 1000,
		`node ${formatNumber(floor.nodeMs)} ms; ${otherCores(floor)}`,
	);
	const share = (floor.nodeMs / ours.nodeMs) * 100;
	report.ratio(
		'send path / n8n floor',
		share,
		'%',
		`Chat Messaging's items/s as a share of the floor's: ${formatNumber(ours.nodeMs)} ms beside ${formatNumber(floor.nodeMs)} ms`,
		{ text: '≥ 80 %', met: share >= 80 },
	);
}
