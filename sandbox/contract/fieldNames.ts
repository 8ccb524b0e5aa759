/**
 * How the stand-in's 422s name a field, from the steps to it: `template_message.retry_until`,
 * `[3].email`, `(body)` for the body as a whole. Numbers are places in an array.
 */
export function fieldPath(steps: ReadonlyArray<string | number>): string {
	let name = '';
	for (const step of steps) {
		if (typeof step === 'number') name += `[${step}]`;
		else name += name === '' ? step : `.${step}`;
	}
	return name === '' ? '(body)' : name;
}
