import { describeBulk, otherCores, runBulk, type BulkResult } from '../bulkRuns';
import type { LiveBench } from '../context';
import { formatNumber } from '../report';
import { CONTACTS, say } from '../settings';

/* 1. Contacts: Create Many (both mappings) against HTTP Request with one contact per item. */

export async function measureContacts(bench: LiveBench): Promise<void> {
	const { bulk, report, problems } = bench;
	say(`creating ${CONTACTS} contacts: Create Many (Map Automatically From Input)`);
	const automatic = await runBulk(
		bench,
		bulk.contactsOursAutomatic,
		'Create Many (Map Automatically)',
		CONTACTS,
	);
	say(describeBulk(automatic));
	say(`creating ${CONTACTS} contacts: Create Many (defaults: fields mapped with expressions)`);
	const ours = await runBulk(bench, bulk.contactsOurs, 'Create Many (expressions)', CONTACTS);
	say(describeBulk(ours));
	say(`creating ${CONTACTS} contacts: HTTP Request, one contact per item (defaults)`);
	const http = await runBulk(bench, bulk.contactsHttp, 'HTTP Request one per item', CONTACTS);
	say(describeBulk(http));

	for (const result of [ours, automatic]) {
		if (result.standIn.contactsDigest !== http.standIn.contactsDigest) {
			problems.push(`${result.label} and HTTP Request created different contacts`);
		}
	}
	say(
		`digests: ${[automatic, ours, http].map((result) => result.standIn.contactsDigest).join(' / ')}`,
	);
	for (const result of [automatic, ours, http]) {
		if (result.standIn.contactsCreated !== CONTACTS) {
			problems.push(
				`${result.label}: the stand-in created ${result.standIn.contactsCreated} of ${CONTACTS} contacts`,
			);
		}
	}

	const extra = (result: BulkResult) =>
		`execution ${formatNumber(result.executionMs)} ms incl. webhook + Code node; ${result.standIn.contactsCreated} contacts created; ${otherCores(result)}`;
	report.add(
		`contacts ${CONTACTS}: Create Many (Map Automatically) node time`,
		'ms',
		automatic.nodeMs,
		extra(automatic),
	);
	report.add(
		`contacts ${CONTACTS}: Create Many (expressions) node time`,
		'ms',
		ours.nodeMs,
		extra(ours),
	);
	report.add(
		`contacts ${CONTACTS}: HTTP Request one per item node time`,
		'ms',
		http.nodeMs,
		extra(http),
	);
	report.add(`contacts ${CONTACTS}: Create Many requests`, 'requests', ours.standIn.requests);
	report.add(`contacts ${CONTACTS}: HTTP Request requests`, 'requests', http.standIn.requests);
	const automaticSpeedUp = http.nodeMs / automatic.nodeMs;
	report.ratio(
		'contacts, HTTP Request time / Create Many (Map Automatically) time',
		automaticSpeedUp,
		'x',
		`whole executions: ${formatNumber(http.executionMs / automatic.executionMs)}x`,
		{ text: '≥ 20x', met: automaticSpeedUp >= 20 },
	);
	report.ratio(
		'contacts, HTTP Request time / Create Many (expressions) time',
		http.nodeMs / ours.nodeMs,
		'x',
		`whole executions: ${formatNumber(http.executionMs / ours.executionMs)}x; both pay n8n's per-item expression cost`,
	);
	report.ratio(
		'contacts, requests HTTP Request / Create Many',
		http.standIn.requests / ours.standIn.requests,
		'x',
	);
}
