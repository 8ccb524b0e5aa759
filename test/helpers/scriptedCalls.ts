/*
 * A scripted model's tool calls, shared by the two agents that stand in for n8n's AI Agent
 * (agentToolHarness.ts, engineRequestAgent.ts).
 */

/**
 * One tool call as a model makes it: the tool's name and the arguments it chose. A model reads the
 * answers it got: an argument written "{{answer N field}}" is that field of the first item of
 * answer N (counting from 0), e.g. the id a send answered.
 */
export interface ScriptedCall {
	tool: string;
	args: Record<string, unknown>;
}

export interface CallAnswer {
	tool: string;
	/** The text the model gets back. */
	answer?: string;
	/** Set when the call threw instead: in n8n's agent that ends the run. */
	thrown?: string;
}

const ANSWER_REFERENCE = /^\{\{answer (\d+) (\w+)\}\}$/;

/** The call's arguments with every "{{answer N field}}" read from the answers so far. */
export function withAnswersRead(
	args: Record<string, unknown>,
	answers: CallAnswer[],
): Record<string, unknown> {
	const read = (value: unknown) => {
		const reference = typeof value === 'string' ? ANSWER_REFERENCE.exec(value) : null;
		if (!reference) return value;
		const text = answers[Number(reference[1])]?.answer ?? '[]';
		return (JSON.parse(text) as Array<Record<string, unknown>>)[0]?.[reference[2]];
	};
	return Object.fromEntries(Object.entries(args).map(([key, value]) => [key, read(value)]));
}
