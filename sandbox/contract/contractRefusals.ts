import { fieldPath } from './fieldNames';

/*
 * What ajv found wrong with a request, said as the service's 422 says it: field → messages, the
 * field named in the service's wire names (`contact.phone_number`, `[3].email`, `page`).
 */

export interface AjvError {
	instancePath: string;
	schemaPath: string;
	keyword: string;
	message?: string;
	params: { additionalProperty?: string; missingProperty?: string };
}

/** An error with the schema it was found against, so the error's place in it can be read. */
export interface Problem {
	error: AjvError;
	schema: unknown;
}

/** Where an error points: the request's part (`requestBody`, `query`, `path`) and the field in it. */
function located(error: AjvError): { part: string; field: Array<string | number> } {
	const [part = '', ...rest] = error.instancePath.split('/').filter((piece) => piece !== '');
	const field = rest.map((piece) => (/^\d+$/.test(piece) ? Number(piece) : piece));
	const missing = error.params.missingProperty;
	// A required body that is missing is the body's, not a field called requestBody.
	if (missing !== undefined && !(part === '' && missing === 'requestBody')) field.push(missing);
	return { part: part === '' && missing !== undefined ? missing : part, field };
}

/** The schema at a JSON pointer (`#/properties/requestBody/oneOf/0`), as ajv writes schemaPath. */
function schemaAt(root: unknown, pointer: string): unknown {
	const steps = pointer
		.replace(/^#\/?/, '')
		.split('/')
		.filter((step) => step !== '');
	let schema = root;
	for (const step of steps) {
		if (typeof schema !== 'object' || schema === null) return undefined;
		schema = (schema as Record<string, unknown>)[step.replace(/~1/g, '/').replace(/~0/g, '~')];
	}
	return schema;
}

/**
 * Which of two shapes a body meant (both assign-agent shapes, contacts or an audience) and which
 * command it is (an unknown `event_type`) are the endpoint's to say: it names the alternatives in
 * words the document's combinators cannot. A branch that only requires fields of the object around
 * it is such an alternative; a branch with a `type` of its own is a whole shape (one command, one
 * contact), and what it requires the body must have.
 */
function isAboutAlternatives({ error, schema }: Problem): boolean {
	if (error.keyword === 'discriminator') return true;
	if (error.keyword === 'oneOf' || error.keyword === 'anyOf') return true;
	const branch = /^(.*\/(?:anyOf|oneOf)\/\d+)\/required$/.exec(error.schemaPath);
	if (error.keyword !== 'required' || branch === null) return false;
	const shape = schemaAt(schema, branch[1]);
	return typeof shape !== 'object' || shape === null || !('type' in shape);
}

/** "must be array" from the other alternative, when the value is an object one alternative reads. */
const isOtherAlternativesType = (error: AjvError) =>
	error.keyword === 'type' && /\/(anyOf|oneOf)\/\d+\/type$/.test(error.schemaPath);

/** Field → messages, the service's 422 shape; empty when only alternatives were missed. */
export function refusedFields(problems: readonly Problem[]): Record<string, string[]> {
	const named = problems.filter((problem) => !isAboutAlternatives(problem)).map((p) => p.error);
	// A value of a type one alternative takes is refused for what is wrong inside it, not for not
	// being the other alternative's type: the object a bulk upsert's array form is not, say.
	const read = named.filter(
		(error) =>
			!isOtherAlternativesType(error) ||
			!named.some(
				(other) =>
					!isOtherAlternativesType(other) &&
					(other.instancePath === error.instancePath ||
						other.instancePath.startsWith(`${error.instancePath}/`)),
			),
	);
	const fields: Record<string, string[]> = {};
	for (const error of read) {
		const { part, field } = located(error);
		const extra = error.params.additionalProperty;
		let message = error.message ?? 'is not allowed';
		if (part === 'requestBody' && field.length === 0 && error.keyword === 'required')
			message = 'is required';
		if (extra !== undefined && part !== 'requestBody') {
			// A query parameter the operation does not name: named itself, as unknown fields are not.
			field.push(extra);
			message = 'is not a parameter of this endpoint';
		} else if (extra !== undefined) {
			// Named as a strict schema names an unknown field: at its object, the key in the message.
			message = `Unrecognized key(s) in object: '${extra}'`;
		}
		const list = (fields[fieldPath(field)] ??= []);
		if (!list.includes(message)) list.push(message);
	}
	return fields;
}
