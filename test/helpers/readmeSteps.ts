import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { PROJECT_ROOT } from '../../scripts/n8n/install';

/*
 * The README's numbered steps, as a person reads them: what each step bolds (the words the editor
 * shows: nodes, fields, options, buttons) and what it puts in code (the values typed or dragged).
 * The quick-start browser test follows these, so a README change is what it then does.
 */
export interface ReadmeStep {
	/** "step 4 of "Your first workflow…"", for failure messages. */
	where: string;
	text: string;
	bold: string[];
	code: string[];
}

/** QUICK_START_README tries a README wording on the editor before the README is changed. */
export function readmeSection(heading: string): string {
	const file = process.env.QUICK_START_README ?? join(PROJECT_ROOT, 'README.md');
	const readme = readFileSync(file, 'utf8');
	const start = readme.indexOf(`\n## ${heading}`);
	if (start === -1) throw new Error(`README.md has no section starting "## ${heading}"`);
	const end = readme.indexOf('\n## ', start + 4);
	return readme.slice(start, end === -1 ? undefined : end);
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

export function readmeSteps(heading: string): ReadmeStep[] {
	const section = readmeSection(heading);
	// A step starts with "N. " at the line's start and runs until the next step or a blank line.
	const steps = [...section.matchAll(/^(\d+)\. ([\s\S]*?)(?=\n\d+\. |\n\s*\n|(?![\s\S]))/gm)];
	return steps.map(([, number, text]) => ({
		where: `README step ${number} of "${heading}"`,
		text: oneLine(text),
		bold: [...text.matchAll(/\*\*([^*]+)\*\*/g)].map((match) => oneLine(match[1])),
		code: [...text.matchAll(/`([^`]+)`/g)].map((match) => oneLine(match[1])),
	}));
}
