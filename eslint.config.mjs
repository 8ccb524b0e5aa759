// Both linters the community-node scanner runs: n8n's own community plugin (recommended) and
// eslint-plugin-n8n-nodes-base's community, credentials and nodes rule sets. The latter ships only
// legacy configs, so their rule tables are mounted here as flat-config blocks.
import tsParser from '@typescript-eslint/parser';
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';

const nodesBase = { 'n8n-nodes-base': n8nNodesBase };

export default [
	{ ignores: ['dist/**', 'node_modules/**', 'test/**', 'sandbox/**', 'scripts/**', 'examples/**'] },
	{
		files: ['**/*.ts'],
		languageOptions: { parser: tsParser, parserOptions: { sourceType: 'module' } },
	},
	n8nCommunityNodesPlugin.configs.recommended,
	{
		files: ['package.json'],
		languageOptions: { parser: tsParser, parserOptions: { extraFileExtensions: ['.json'] } },
		plugins: nodesBase,
		rules: n8nNodesBase.configs.community.rules,
	},
	{
		files: ['credentials/**/*.ts'],
		plugins: nodesBase,
		rules: {
			...n8nNodesBase.configs.credentials.rules,
			// Says of itself "only applicable to nodes in the main repository": it camel-cases the
			// documentation URL into a docs.n8n.io slug, while community credentials must give a real URL
			// (cred-class-field-documentation-url-not-http-url and credential-documentation-url stay on).
			// n8n's community node starter switches it off the same way.
			'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
		},
	},
	{ files: ['nodes/**/*.ts'], plugins: nodesBase, rules: n8nNodesBase.configs.nodes.rules },
	{ linterOptions: { reportUnusedDisableDirectives: 'error', noInlineConfig: true } },
];
