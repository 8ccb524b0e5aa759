/*
 * The real service may answer a success with another 2xx than the stand-in does: the reference
 * shows no status for a launch or a status change, and a service may answer 201 (created) or 202
 * (accepted) where this stand-in answers 200. These rules let a test make the stand-in answer
 * each way, with the same body; faults (faults.ts) are for answers that are not successes.
 */

export interface SuccessStatusRule {
	/** The status sent instead of the stand-in's own 2xx. */
	status: 200 | 201 | 202;
	/** Only requests with this method (any when left out). */
	method?: string;
	/** Only paths starting with this (any when left out). */
	pathPrefix?: string;
}

export class SuccessStatuses {
	private rules: SuccessStatusRule[] = [];

	/** Replaces every rule; an empty list gives back the stand-in's own statuses. */
	set(rules: readonly SuccessStatusRule[]): void {
		for (const rule of rules) {
			if (![200, 201, 202].includes(rule.status))
				throw new Error(`a success status is 200, 201 or 202, not ${rule.status}`);
		}
		this.rules = [...rules];
	}

	/** The status to send for an answer the stand-in gave `status`: only 2xx answers change. */
	statusFor(method: string, path: string, status: number): number {
		if (status < 200 || status > 299) return status;
		const rule = this.rules.find(
			(candidate) =>
				(candidate.method === undefined || candidate.method === method) &&
				(candidate.pathPrefix === undefined || path.startsWith(candidate.pathPrefix)),
		);
		return rule?.status ?? status;
	}
}
