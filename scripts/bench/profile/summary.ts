import type { CpuProfile, CpuProfileNode } from './inspector';

/*
 * What a CPU profile says in a few lines: the share of n8n's busy time in each part of the stack
 * (this package, n8n's expression engine, its HTTP helper and Node's HTTP stack, the database…) and
 * the functions with the most self time. Idle time is left out: the shares are of the time the
 * process was working.
 */

export interface FrameShare {
	frame: string;
	part: string;
	share: number;
}

export interface ProfileSummary {
	busyMs: number;
	parts: Array<{ part: string; share: number }>;
	top: FrameShare[];
}

// Checked in order: the first that matches names the part.
// n8n's own install lives in a cache folder named after this package, so the package is matched
// by its folder inside a node_modules.
const PARTS: Array<[string, RegExp]> = [
	['this package', /node_modules\/n8n-nodes-chat-messaging\//],
	["the bench's floor node", /node_modules\/n8n-nodes-bench-floor\//],
	['garbage collection', /^\(garbage collector\)$/],
	[
		'n8n: expressions',
		/n8n-workflow\/.*(expression|Expression)|isolated-vm|tmpl|@n8n\/tournament|riot-tmpl|quickjs/,
	],
	[
		'n8n: HTTP helper and axios',
		/n8n-core\/.*(request|Request|http)|axios|follow-redirects|form-data|proxy-from-env/,
	],
	[
		"Node's HTTP, sockets and TLS",
		/^node:(_http|http|https|net|tls|dns|stream|internal\/(stream|net|http|dns))|^node:events/,
	],
	['n8n: engine (n8n-core)', /n8n-core/],
	['n8n: workflow library', /n8n-workflow/],
	['n8n: database', /typeorm|sqlite3|better-sqlite|pg\//],
	["n8n: saving the execution's data", /flatted|stream-json/],
	['n8n: server and the rest of n8n', /@n8n\/|\/n8n\/dist\//],
	['Node internals', /^node:|^$/],
];

// Native frames (no file) that are socket work: one TCP connection per request (n8n's helper keeps
// none alive) shows up as `connect`.
const SOCKET_CALLS =
	/^(connect|writev|writeBuffer|writeUtf8String|writeLatin1String|close|shutdown|onStreamRead|getaddrinfo|lookup)$/;

function partOf(node: CpuProfileNode): string {
	const { url, functionName } = node.callFrame;
	if (!url && SOCKET_CALLS.test(functionName)) return "Node's HTTP, sockets and TLS";
	const key = url || functionName;
	for (const [part, pattern] of PARTS) if (pattern.test(key)) return part;
	return url ? 'other libraries' : 'native and V8';
}

function frameName(node: CpuProfileNode): string {
	const { functionName, url, lineNumber } = node.callFrame;
	const file = url.replace(/^.*node_modules\//, '').replace(/^file:\/\//, '');
	return `${functionName || '(anonymous)'}${file ? ` ${file}:${lineNumber + 1}` : ''}`;
}

export function summarise(profile: CpuProfile, topCount = 15): ProfileSummary {
	const byId = new Map(profile.nodes.map((node) => [node.id, node]));
	const selfMicros = new Map<number, number>();
	// timeDeltas[i] is the time since the previous sample; it is charged to sample i's frame.
	profile.samples.forEach((id, index) => {
		selfMicros.set(id, (selfMicros.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0));
	});
	const byFrame = new Map<string, FrameShare & { micros: number }>();
	const byPart = new Map<string, number>();
	let busy = 0;
	for (const [id, micros] of selfMicros) {
		const node = byId.get(id) as CpuProfileNode;
		if (node.callFrame.functionName === '(idle)') continue;
		busy += micros;
		const part = partOf(node);
		byPart.set(part, (byPart.get(part) ?? 0) + micros);
		const frame = frameName(node);
		const entry = byFrame.get(frame) ?? { frame, part, share: 0, micros: 0 };
		entry.micros += micros;
		byFrame.set(frame, entry);
	}
	const share = (micros: number) => (busy ? micros / busy : 0);
	return {
		busyMs: busy / 1000,
		parts: [...byPart]
			.map(([part, micros]) => ({ part, share: share(micros) }))
			.sort((a, b) => b.share - a.share),
		top: [...byFrame.values()]
			.sort((a, b) => b.micros - a.micros)
			.slice(0, topCount)
			.map(({ frame, part, micros }) => ({ frame, part, share: share(micros) })),
	};
}

const percent = (share: number) => `${(share * 100).toFixed(1)} %`;

/** The summary as the Markdown docs/performance.md quotes. */
export function summaryTable(title: string, summary: ProfileSummary): string {
	const lines = [
		`#### ${title} (${Math.round(summary.busyMs)} ms of busy CPU in n8n's main process)`,
		'',
		'| Part of the stack | Share of busy CPU |',
		'| --- | ---: |',
		...summary.parts.map(({ part, share }) => `| ${part} | ${percent(share)} |`),
		'',
		'| Function (self time) | Part | Share |',
		'| --- | --- | ---: |',
		...summary.top.map(
			({ frame, part, share }) =>
				`| \`${frame.replace(/\|/g, '\\|')}\` | ${part} | ${percent(share)} |`,
		),
	];
	return lines.join('\n');
}
