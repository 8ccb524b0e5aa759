// The rules `n8n-node lint` applies, exactly as @n8n/node-cli exports them (its template's
// eslint.config.mjs is this import and nothing else). `n8n-node lint` itself refuses to run on a
// package in strict mode whose eslint.config.mjs is not that template, and ours also lints the
// tooling with type-aware rules, so `npm run lint:n8n-node` runs the same config on what it covers:
// nodes/, credentials/ and package.json.
import { config } from '@n8n/node-cli/eslint';

export default config;
