import type { LiveBench } from '../context';
import { waitUntilIdle } from '../cpuLoad';
import { postLoad } from '../loadGenerator';
import { formatNumber } from '../report';
import { CEILING_SECONDS, OUR_DEFAULT_CONCURRENCY, say } from '../settings';
import type { SendFigures } from './sends';

/* 3. The stand-in's ceiling at our default concurrency, and the share of it Send Template reaches. */

const FALLBACK_BODY = JSON.stringify({
	event_type: 'send_template_message',
	contact: { phone_number: '+14155550000', name: 'Contact 0' },
	template_message: {
		chat_template_id: 'wat_bench_welcome',
		liquid_values: { first_name: 'Contact 0' },
	},
});

export async function measureCeiling(
	{ n8n, standIn, report }: LiveBench,
	sends: SendFigures | undefined,
): Promise<void> {
	say(
		`stand-in ceiling: autocannon, ${OUR_DEFAULT_CONCURRENCY} connections, ${CEILING_SECONDS} s, same body`,
	);
	await waitUntilIdle(n8n.pid as number);
	await standIn.clear();
	const ceiling = await postLoad({
		url: `${standIn.url}/api/v1/events`,
		headers: { authorization: standIn.apiKey },
		body: sends?.sampleBody || FALLBACK_BODY,
		connections: OUR_DEFAULT_CONCURRENCY,
		durationSeconds: CEILING_SECONDS,
	});
	await standIn.clear();
	say(
		`ceiling: ${formatNumber(ceiling.acceptedPerSecond)} req/s (p50 ${ceiling.latencyP50Ms} ms, ${ceiling.rejected} not 2xx)`,
	);
	report.add(
		`stand-in ceiling, ${OUR_DEFAULT_CONCURRENCY} connections`,
		'req/s',
		ceiling.acceptedPerSecond,
		`autocannon ${CEILING_SECONDS} s, p50 ${ceiling.latencyP50Ms} ms, p99 ${ceiling.latencyP99Ms} ms, ${ceiling.rejected} not 2xx`,
	);
	if (sends && sends.oursPerSecond > 0) {
		const share = (sends.oursPerSecond / ceiling.acceptedPerSecond) * 100;
		report.ratio('send, Chat Messaging default / stand-in ceiling', share, '%', undefined, {
			text: '≥ 70 %',
			met: share >= 70,
		});
	}
}
