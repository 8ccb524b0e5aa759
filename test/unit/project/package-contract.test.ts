/*
 * What makes this installable as a verified community node, checked on the package as built
 * (npm test builds before running jest).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '../../..');
const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));

test('no runtime dependencies; n8n-workflow is the only peer, at "*"', () => {
	expect(manifest.dependencies ?? {}).toEqual({});
	expect(manifest.peerDependencies).toEqual({ 'n8n-workflow': '*' });
	expect(manifest.keywords).toContain('n8n-community-node-package');
	expect(manifest.license).toBe('MIT');
});

test('zod is pinned to the 3.25 line that n8n provides to community nodes', () => {
	expect(manifest.devDependencies.zod).toMatch(/^\^?3\.25\./);
});

test('every node and credential listed for n8n exists in dist/', () => {
	const listed = [...manifest.n8n.nodes, ...manifest.n8n.credentials] as string[];
	expect(listed).toEqual(
		expect.arrayContaining([
			'dist/credentials/ChatMessagingApi.credentials.js',
			'dist/nodes/ChatMessaging/ChatMessaging.node.js',
			'dist/nodes/ChatMessagingTrigger/ChatMessagingTrigger.node.js',
		]),
	);
	for (const file of listed) expect(existsSync(path.join(root, file))).toBe(true);
});

test('npm pack publishes only dist/, README, LICENSE and package.json', () => {
	const [packed] = JSON.parse(
		execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
			cwd: root,
			encoding: 'utf8',
		}),
	) as Array<{ files: Array<{ path: string }> }>;
	const paths = packed.files.map((file) => file.path);
	const outside = paths.filter(
		(file) => !file.startsWith('dist/') && !['README.md', 'LICENSE', 'package.json'].includes(file),
	);
	expect(outside).toEqual([]);
	expect(paths).toEqual(expect.arrayContaining(['README.md', 'LICENSE', 'package.json']));
	// Sources, tests and the stand-in never ship; compiled tests would mean tsconfig.build leaks.
	expect(
		paths.some((file) => /\.test\.|sandbox\/|\.ts$/.test(file) && !file.endsWith('.d.ts')),
	).toBe(false);
	expect(paths).toEqual(
		expect.arrayContaining([
			'dist/icons/chatMessaging.svg',
			'dist/nodes/ChatMessaging/ChatMessaging.node.json',
		]),
	);
});

test('the node code uses nothing a verified node may not: process, timers, fs, env', () => {
	// Tracked and not yet committed files alike, but only those still in the tree (a move leaves both).
	const sources = execFileSync(
		'git',
		['ls-files', '--cached', '--others', '--exclude-standard', 'nodes', 'credentials'],
		{ cwd: root, encoding: 'utf8' },
	)
		.split('\n')
		.filter((file) => file.endsWith('.ts') && existsSync(path.join(root, file)));
	expect(sources.length).toBeGreaterThan(10);
	for (const file of sources) {
		const code = readFileSync(path.join(root, file), 'utf8').replace(
			/\/\*[\s\S]*?\*\/|\/\/.*$/gm,
			'',
		);
		expect({
			file,
			hits: code.match(
				/\bprocess\.|\bsetTimeout\b|\bsetInterval\b|\bsetImmediate\b|from 'fs'|from 'node:fs'|require\(/g,
			),
		}).toEqual({ file, hits: null });
	}
});
