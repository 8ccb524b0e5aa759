/*
 * The benchmark's figures, in github-action-benchmark's "custom" format (an array of
 * {name, unit, value, extra}; ratios are entries of their own named `ratio: …`), and the same
 * figures as a table for people.
 */

export interface BenchEntry {
	name: string;
	unit: string;
	value: number;
	/** github-action-benchmark shows this text beside the value. */
	extra?: string;
}

export interface Target {
	text: string;
	met: boolean;
}

export class BenchReport {
	readonly entries: BenchEntry[] = [];

	private readonly targets = new Map<string, Target>();

	add(name: string, unit: string, value: number, extra?: string, target?: Target): number {
		const rounded = Number(value.toPrecision(4));
		const notes = [
			extra,
			target && `target ${target.text}: ${target.met ? 'met' : 'NOT met'}`,
		].filter(Boolean);
		this.entries.push({
			name,
			unit,
			value: rounded,
			...(notes.length ? { extra: notes.join('; ') } : {}),
		});
		if (target) this.targets.set(name, target);
		return value;
	}

	ratio(name: string, value: number, unit: 'x' | '%', extra?: string, target?: Target): number {
		return this.add(`ratio: ${name}`, unit, value, extra, target);
	}

	targetOf(name: string): Target | undefined {
		return this.targets.get(name);
	}

	/** A Markdown table: readable in a terminal and pasteable into the README as it is. */
	table(): string {
		const rows = this.entries.map((entry) => {
			const target = this.targets.get(entry.name);
			return [
				entry.name,
				formatNumber(entry.value),
				entry.unit,
				target ? `${target.text} ${target.met ? '✅' : '❌'}` : '',
			];
		});
		const header = ['Figure', 'Value', 'Unit', 'Target'];
		const widths = header.map((title, column) =>
			Math.max(title.length, ...rows.map((row) => row[column].length)),
		);
		const line = (cells: string[]) =>
			`| ${cells.map((cell, column) => (column === 1 ? cell.padStart(widths[column]) : cell.padEnd(widths[column]))).join(' | ')} |`;
		return [
			line(header),
			`|${widths.map((width, column) => (column === 1 ? `${'-'.repeat(width + 1)}:` : '-'.repeat(width + 2))).join('|')}|`,
			...rows.map(line),
		].join('\n');
	}
}

export function formatNumber(value: number): string {
	if (Number.isInteger(value) || Math.abs(value) >= 100)
		return Math.round(value).toLocaleString('en-US');
	if (Math.abs(value) >= 10) return value.toFixed(1);
	return value.toFixed(2);
}

/** Which way is better for a row: its target says (≥ or ≤), else its unit; undefined: neither. */
function betterWhen(entry: BenchEntry, target: Target | undefined): 'more' | 'less' | undefined {
	if (target?.text.startsWith('≥')) return 'more';
	if (target?.text.startsWith('≤')) return 'less';
	if (['items/s', 'req/s'].includes(entry.unit)) return 'more';
	if (['ms', 'µs', 'KiB', 'MiB'].includes(entry.unit)) return 'less';
	return undefined;
}

/**
 * How far a figure may move between two runs on the same machine before it counts: timings on a
 * shared 2-core machine move by about a tenth from run to run; sizes barely move.
 */
export function noiseOf(entry: BenchEntry): number {
	return entry.unit === 'KiB' ? 0.02 : 0.15;
}

/**
 * Rows of this run that are worse than the previous run's by more than their noise, as problems
 * the bench reports (it then exits 1). Rows new in this run have nothing to regress from.
 */
export function regressions(previous: BenchEntry[], report: BenchReport): string[] {
	const before = new Map(previous.map((entry) => [entry.name, entry]));
	const found: string[] = [];
	for (const entry of report.entries) {
		const earlier = before.get(entry.name);
		const better = betterWhen(entry, report.targetOf(entry.name));
		if (earlier === undefined || earlier.unit !== entry.unit || earlier.value === 0 || !better)
			continue;
		const change = (entry.value - earlier.value) / Math.abs(earlier.value);
		const worse = better === 'more' ? -change : change;
		if (worse > noiseOf(entry)) {
			found.push(
				`${entry.name} regressed: ${formatNumber(entry.value)} ${entry.unit}, was ${formatNumber(earlier.value)} (${Math.round(worse * 100)} % worse; noise ${Math.round(noiseOf(entry) * 100)} %)`,
			);
		}
	}
	return found;
}
