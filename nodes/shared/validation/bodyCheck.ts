import type { z } from 'zod';

import { fieldPath } from '../schemas';
import { InvalidParameter } from './invalidParameter';

/**
 * Checks a finished body against its wire schema. Normalisers catch what users type; this catches
 * anything they missed, so no body the schema refuses ever leaves n8n. Issues are named by the
 * editor's label for the field when one is known (`labels` maps wire paths to labels).
 */
export function checkBody<T>(
	schema: z.ZodType<T>,
	body: unknown,
	labels: Record<string, string>,
): T {
	const result = schema.safeParse(body);
	if (result.success) return result.data;
	const issue = result.error.issues[0];
	const path = fieldPath(issue.path);
	const label = labelFor(path, labels);
	throw new InvalidParameter(label, issue.message);
}

function labelFor(path: string, labels: Record<string, string>): string {
	let best = '';
	for (const prefix of Object.keys(labels)) {
		if (
			(path === prefix || path.startsWith(`${prefix}.`) || path.startsWith(`${prefix}[`)) &&
			prefix.length > best.length
		) {
			best = prefix;
		}
	}
	return best ? labels[best] : path || 'Request';
}
