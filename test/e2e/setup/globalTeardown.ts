import type { RealN8n } from '../../../scripts/n8n/real-n8n';
import { stopSharedN8n } from './sharedN8n';

/** jest globalTeardown for the e2e project: runs in the process that ran globalSetup. */
export default async function globalTeardown(): Promise<void> {
	await stopSharedN8n((globalThis as { sharedN8n?: RealN8n }).sharedN8n);
}
