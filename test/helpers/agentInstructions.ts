import fc from 'fast-check';

/** Contacts' numbers, each as people paste it: every form reads as the same contact. */
const WRITTEN: Record<string, string[]> = {
	'+14155550123': ['+14155550123', '00 1 415 555 0123', '+1 (415) 555-0123'],
	'+14155550124': ['+14155550124', '0014155550124', '+1 415-555-0124'],
	'+34612345678': ['+34612345678', '0034 612 345 678', '+34 612 34 56 78'],
};

export interface AgentInstruction {
	/** The contact's number, as the service keeps it. */
	number: string;
	/** The same number as the item gives it. */
	phone: string;
	agent: string;
}

/**
 * Two to six items, in input order, each handing one of `numbers` (written in any of its forms) to
 * one of `agents`: the instructions whose last one per number must win.
 */
export function agentInstructions(
	numbers: string[],
	agents: string[],
): fc.Arbitrary<AgentInstruction[]> {
	return fc.array(
		fc
			.record({
				number: fc.constantFrom(...numbers),
				form: fc.integer({ min: 0, max: 2 }),
				agent: fc.constantFrom(...agents),
			})
			.map(({ number, form, agent }) => ({ number, phone: WRITTEN[number][form], agent })),
		{ minLength: 2, maxLength: 6 },
	);
}

/** Requests in Parallel worth testing, and the delays (ms) the stand-in answers with, in turn. */
export const requestsInParallelSetting = fc.integer({ min: 2, max: 5 });
export const answerDelaysMs = fc.array(fc.integer({ min: 0, max: 15 }), {
	minLength: 1,
	maxLength: 6,
});
