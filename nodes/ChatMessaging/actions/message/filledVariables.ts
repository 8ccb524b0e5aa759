import type { IDataObject, ILoadOptionsFunctions } from 'n8n-workflow';

import { InvalidParameter } from '../../../shared/validation';

/**
 * Template variables the node fills itself, by name: Send Template and Wait for Response puts the
 * response link in one. The user leaves them empty; a value the user gave for one is refused
 * rather than overwritten, since one of the two would be lost without a word.
 */
export type FilledVariables = Readonly<Record<string, string>>;

export function addFilledVariables(
	liquidValues: Record<string, string | number | IDataObject>,
	filled: FilledVariables,
): void {
	for (const [name, value] of Object.entries(filled)) {
		const given = Object.prototype.hasOwnProperty.call(liquidValues, name)
			? liquidValues[name]
			: undefined;
		if (given !== undefined && !(typeof given === 'string' && given.trim() === '')) {
			throw new InvalidParameter(
				'Template Variables',
				`variable "${name}" has a value, but it receives the response link: leave it empty`,
			);
		}
		liquidValues[name] = value;
	}
}

/**
 * In the editor: the variable the node fills itself for the operation being edited (Send Template
 * and Wait for Response's link), which the Template Variables mapper leaves out, so the user is not
 * asked for a value the node would refuse.
 */
export function variableFilledByTheNode(context: ILoadOptionsFunctions): string | undefined {
	if (context.getCurrentNodeParameter('operation') !== 'sendAndWait') return undefined;
	const name = context.getCurrentNodeParameter('responseLinkVariable');
	return typeof name === 'string' && name.trim() !== '' ? name.trim() : undefined;
}
