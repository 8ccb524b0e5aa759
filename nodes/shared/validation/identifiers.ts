import { InvalidParameter } from './invalidParameter';
import { requiredText } from './text';

/*
 * IDs (templates wat_…, AI agents aiflw_…, reply automations). Their format is the service's, so
 * only what is never part of one ID is refused: spaces, separators of lists, invisible characters,
 * and an ID of the other kind, pasted into the wrong field.
 */
export type IdentifierKind = 'template' | 'aiAgent' | 'replyApp';

const KIND_NAMES: Record<IdentifierKind, string> = {
	template: 'a template ID',
	aiAgent: 'an AI agent ID',
	replyApp: 'the ID of an AI agent or flow',
};
/** Prefixes the service gives its IDs, and the fields they do not belong in. */
const WRONG_FIELD_PREFIXES: Record<IdentifierKind, ReadonlyArray<readonly [string, string]>> = {
	template: [['aiflw_', 'an AI agent ID']],
	aiAgent: [['wat_', 'a template ID']],
	replyApp: [['wat_', 'a template ID']],
};

export function readIdentifier(value: unknown, parameter: string, kind: IdentifierKind): string {
	const id = requiredText(value, parameter);
	if (/[\s,;|]/.test(id)) {
		throw new InvalidParameter(
			parameter,
			`${JSON.stringify(id)} must be one ID, without spaces, line breaks, commas or semicolons`,
		);
	}
	if (/[\p{C}]/u.test(id)) {
		throw new InvalidParameter(
			parameter,
			`${JSON.stringify(id)} has an invisible or control character: give one ID as the service shows it`,
		);
	}
	for (const [prefix, other] of WRONG_FIELD_PREFIXES[kind]) {
		if (id.toLowerCase().startsWith(prefix)) {
			throw new InvalidParameter(
				parameter,
				`"${id}" is ${other} (${prefix}…), not ${KIND_NAMES[kind]}: check which field it belongs in`,
			);
		}
	}
	return id;
}
