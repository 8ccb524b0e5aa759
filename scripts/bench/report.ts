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
