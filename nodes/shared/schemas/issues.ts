import type { z } from 'zod';

/* How a schema's complaint is named: the node's errors and the stand-in's 422 answers share it. */

/** `a.b[2].c`: how a field is named in error messages, in the service's own wire names. */
export function fieldPath(path: ReadonlyArray<string | number>): string {
	return path.reduce<string>((name, part) => {
		if (typeof part === 'number') return `${name}[${part}]`;
		return name ? `${name}.${part}` : part;
	}, '');
}

/** Field → messages, the shape the stand-in answers 422 with and the node shows. */
export function describeIssues(error: z.ZodError): Record<string, string[]> {
	const fields: Record<string, string[]> = {};
	for (const issue of error.issues) {
		const name = fieldPath(issue.path) || '(body)';
		(fields[name] ??= []).push(issue.message);
	}
	return fields;
}

/** A schema's complaints about an answer, in one line: `field what is wrong`, `the answer` for the whole. */
export function answerIssues(error: z.ZodError): string {
	return error.issues
		.map((issue) => `${issue.path.join('.') || 'the answer'} ${issue.message.toLowerCase()}`)
		.join(', ');
}

/**
 * Why an answer is not the one read, given its body's parse: when the body did parse, the body was
 * not JSON (text that happened to fit), else the schema's complaints.
 */
export function answerShapeProblem(
	parsed: { success: true } | { success: false; error: z.ZodError },
): string {
	return parsed.success ? 'it is not JSON' : answerIssues(parsed.error);
}
