import { startSharedN8n } from './sharedN8n';

/** jest globalSetup for the e2e project: one real n8n for every e2e test file of the run. */
export default async function globalSetup(): Promise<void> {
	(globalThis as { sharedN8n?: unknown }).sharedN8n = await startSharedN8n();
}
