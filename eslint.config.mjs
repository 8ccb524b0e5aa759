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
	{ files: ['credentials/**/*.ts'], plugins: nodesBase, rules: n8nNodesBase.configs.credentials.rules },
	{ files: ['nodes/**/*.ts'], plugins: nodesBase, rules: n8nNodesBase.configs.nodes.rules },
	{ linterOptions: { reportUnusedDisableDirectives: 'error', noInlineConfig: true } },
];
