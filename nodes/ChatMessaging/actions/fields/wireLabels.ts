import type { INodeProperties, INodePropertyCollection, INodePropertyOptions } from 'n8n-workflow';

/**
 * Wire field → the label the user reads, taken from the operation's own description, so a schema
 * complaint about `template_message.retry_until` names "Retry Until" because the parameter
 * `retryUntil` is labelled so, and a renamed label cannot leave a stale copy behind. The operation
 * says which parameter fills each wire field; nested options (collections, fixed collections) count.
 * A parameter name the description does not hold is a mistake in the operation: it throws when the
 * module loads, which every test of the node does.
 */
export function wireLabels(
	properties: INodeProperties[],
	parameterOf: Record<string, string>,
): Record<string, string> {
	const labels: Record<string, string> = {};
	for (const [wirePath, parameter] of Object.entries(parameterOf)) {
		const label = labelOf(properties, parameter);
		if (label === undefined)
			throw new Error(`No parameter named "${parameter}" (for ${wirePath}) in the description`);
		labels[wirePath] = label;
	}
	return labels;
}

type Described = INodeProperties | INodePropertyCollection | INodePropertyOptions;

/** Breadth first: a top-level parameter wins over a same-named one nested in a collection. */
function labelOf(properties: INodeProperties[], parameter: string): string | undefined {
	let level: Described[] = properties;
	while (level.length > 0) {
		const found = level.find(
			(entry): entry is INodeProperties => 'type' in entry && entry.name === parameter,
		);
		if (found) return found.displayName;
		level = level.flatMap((entry) => {
			if ('values' in entry) return entry.values;
			return 'options' in entry && Array.isArray(entry.options)
				? (entry.options as Described[])
				: [];
		});
	}
	return undefined;
}
