import { recordSharedN8nFailure, startSharedN8n } from './sharedN8n';

/**
 * jest globalSetup for the e2e project: one real n8n for every e2e test file of the run. When it
 * cannot start, the run goes on: each e2e file fails with the reason, every other project reports.
 */
export default async function globalSetup(): Promise<void> {
	try {
		(globalThis as { sharedN8n?: unknown }).sharedN8n = await startSharedN8n();
	} catch (error) {
		recordSharedN8nFailure(error);
		process.stderr.write(
			`\n[e2e n8n] the real n8n did not start: every end-to-end test fails with this reason; the other projects run on.\n${error instanceof Error ? error.message : String(error)}\n`,
		);
	}
}
