import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

import { PROJECT_ROOT, run } from '../../n8n/install';
import type { Bench } from '../context';
import { median } from '../cpuLoad';
import { nodeOf } from '../machine';
import { LOAD_TIME_RUNS } from '../settings';

/* 6. Footprint: dist/ size, runtime dependencies, and how long n8n takes to load the package. */

const TS_NODE = ['--require', 'ts-node/register/transpile-only'];

function folderBytes(folder: string): { bytes: number; files: number } {
	let bytes = 0;
	let files = 0;
	for (const entry of readdirSync(folder, { withFileTypes: true })) {
		const path = join(folder, entry.name);
		if (entry.isDirectory()) {
			const inner = folderBytes(path);
			bytes += inner.bytes;
			files += inner.files;
		} else {
			bytes += statSync(path).size;
			files++;
		}
	}
	return { bytes, files };
}

export async function measureFootprint({ report, installation, machine }: Bench): Promise<void> {
	const dist = folderBytes(join(PROJECT_ROOT, 'dist'));
	const manifest = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as {
		dependencies?: Record<string, string>;
		peerDependencies?: Record<string, string>;
	};
	report.add('footprint: dist/ size', 'KiB', dist.bytes / 1024, `${dist.files} files`);
	report.add(
		'footprint: runtime dependencies',
		'packages',
		Object.keys(manifest.dependencies ?? {}).length,
		`peer: ${Object.keys(manifest.peerDependencies ?? {}).join(', ') || 'none'}`,
	);
	const loads: number[] = [];
	for (let i = 0; i < LOAD_TIME_RUNS; i++) {
		const out = await run(nodeOf(installation), [...TS_NODE, join(__dirname, '..', 'loadTime.ts')]);
		loads.push((JSON.parse(out) as { totalMs: number }).totalMs);
	}
	report.add(
		'footprint: load time of all entry points',
		'ms',
		median(loads),
		`median of ${LOAD_TIME_RUNS} fresh Node ${machine.n8nNode} processes, n8n-workflow/zod/luxon preloaded as in n8n`,
	);
}

/** 4. CPU per item: a microbenchmark of the built code, without network, in a child process. */
export async function measureCpuPerItem({ report, installation }: Bench): Promise<void> {
	const out = await run(nodeOf(installation), [
		...TS_NODE,
		join(__dirname, '..', 'cpuPerItem.ts'),
		'5000',
		'9',
	]);
	const cpu = JSON.parse(out) as Record<string, { medianMicroseconds: number }>;
	const prepare = cpu.sendTemplatePrepare.medianMicroseconds;
	report.add(
		'CPU per item: Send Template body build + validation',
		'µs',
		prepare,
		'median of 9 runs × 5,000 items',
		{
			text: '≤ 20 µs',
			met: prepare <= 20,
		},
	);
	const node = cpu.sendTemplateNode.medianMicroseconds;
	report.add(
		'CPU per item: Send Template node, network answered at once',
		'µs',
		node,
		"the node's own code per item, dragged fields read from the items",
		{ text: '≤ 20 µs', met: node <= 20 },
	);
	report.add(
		'CPU per item: Create Many node, network answered at once',
		'µs',
		cpu.createManyNode.medianMicroseconds,
	);
	report.add(
		'CPU per item: send schema built per item + parse (diagnostic)',
		'µs',
		cpu.sendSchemaBuiltPerItem.medianMicroseconds,
		'sendTemplateMessageBody(() => now) built and used once per item, as prepare did when this was written',
	);
	report.add(
		'CPU per item: send schema built once, parse only (diagnostic)',
		'µs',
		cpu.sendSchemaBuiltOnce.medianMicroseconds,
	);
}
