// Two kinds of code, two rule sets.
// - The published package (nodes/, credentials/, package.json): both linters the community-node
//   scanner runs, n8n's own community plugin (recommended) and eslint-plugin-n8n-nodes-base's
//   community, credentials and nodes rule sets. The latter ships only legacy configs, so their
//   rule tables are mounted here as flat-config blocks.
// - Everything that only runs here (sandbox/, scripts/, test/): typescript-eslint's type-checked
//   recommended rules, less the ones that fight what this code does on purpose (see below). The
//   n8n rules are about what a node may do inside n8n and say nothing useful about a test.
import tsParser from '@typescript-eslint/parser';
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';
import tseslint from 'typescript-eslint';

const nodesBase = { 'n8n-nodes-base': n8nNodesBase };
const packageFiles = ['nodes/**/*.ts', 'credentials/**/*.ts', 'package.json'];
const toolingFiles = ['sandbox/**/*.ts', 'scripts/**/*.ts', 'test/**/*.ts'];

/** The type-checked recommended rules, limited to the tooling's files. */
const typeChecked = tseslint.configs.recommendedTypeChecked.map((config) => ({
	...config,
	files: toolingFiles,
}));

export default [
	{
		ignores: [
			'dist/**',
			'node_modules/**',
			'examples/**',
			'coverage/**',
			'test-output/**',
			'bench-output/**',
			'.n8n-local/**',
		],
	},
	{
		files: ['**/*.ts'],
		languageOptions: { parser: tsParser, parserOptions: { sourceType: 'module' } },
	},
	{ ...n8nCommunityNodesPlugin.configs.recommended, files: packageFiles },
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
	...typeChecked,
	{
		files: toolingFiles,
		languageOptions: {
			parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
		},
		rules: {
			// `_name` marks a value left out on purpose (a destructured field, an unused argument).
			'@typescript-eslint/no-unused-vars': [
				'error',
				{ argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
			],
		},
	},
	{
		// Tests read answers as `any` on purpose (a JSON body, compared with expect), and other
		// engineers are editing them now: these stay off in test/ until a pass over every test file
		// types the answers. Everything else of the type-checked set applies there too.
		files: ['test/**/*.ts'],
		rules: {
			'@typescript-eslint/no-explicit-any': 'off',
			'@typescript-eslint/no-unsafe-argument': 'off',
			'@typescript-eslint/no-unsafe-assignment': 'off',
			'@typescript-eslint/no-unsafe-call': 'off',
			'@typescript-eslint/no-unsafe-member-access': 'off',
			'@typescript-eslint/no-unsafe-return': 'off',
			'@typescript-eslint/no-unnecessary-type-assertion': 'off',
			'@typescript-eslint/require-await': 'off',
			// jest's expect(mock.method) is the usual false positive of this rule.
			'@typescript-eslint/unbound-method': 'off',
			'@typescript-eslint/no-base-to-string': 'off',
		},
	},
	{
		// The bench times the built dist/ and loadable packages the way n8n loads them: with require.
		files: ['scripts/bench/**/*.ts'],
		rules: { '@typescript-eslint/no-require-imports': 'off' },
	},
	{
		// The node and the stand-in meet only on the wire and in docs/openapi.yaml: a stand-in that
		// imported the node's schemas would agree with the node by construction (the house's "Two sides of one contract").
		files: ['sandbox/**/*.ts'],
		rules: {
			'no-restricted-imports': [
				'error',
				{
					patterns: [
						{
							group: ['**/nodes/**', '**/credentials/**'],
							message:
								'The stand-in keeps the contract (docs/openapi.yaml) on its own: write what it needs in sandbox/.',
						},
					],
				},
			],
		},
	},
	{
		// Credentials use the node's shared transport (Base URL, Authorization), never the other way.
		files: ['nodes/**/*.ts'],
		rules: {
			'no-restricted-imports': [
				'error',
				{
					patterns: [
						{
							group: ['**/credentials/**'],
							message:
								'nodes/ does not import credentials/: move the shared piece to nodes/shared/.',
						},
					],
				},
			],
		},
	},
	{ linterOptions: { reportUnusedDisableDirectives: 'error', noInlineConfig: true } },
];
