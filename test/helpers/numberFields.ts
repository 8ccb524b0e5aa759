import type { INodeProperties } from 'n8n-workflow';

/** Every number field among `properties`, collections' and fixed collections' included. */
export function numberFields(properties: INodeProperties[]): INodeProperties[] {
	return properties.flatMap((property) => {
		if (property.type === 'number') return [property];
		const options = (property.options ?? []) as unknown[];
		if (property.type === 'collection') return numberFields(options as INodeProperties[]);
		if (property.type === 'fixedCollection')
			return (options as Array<{ values: INodeProperties[] }>).flatMap((option) =>
				numberFields(option.values),
			);
		return [];
	});
}
