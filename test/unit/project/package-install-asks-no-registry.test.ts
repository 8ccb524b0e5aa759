/*
 * `npm start` and the end-to-end setup install the packed package into n8n's nodes folder as a
 * user does. The tarball holds everything it needs and n8n brings its peer dependency
 * (n8n-workflow), so that install must ask the registry nothing: offline, npm retried each lookup
 * for about 70 s, on every start. Here npm's registry is a local server that records every request.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

import {
	installPackageTheUsersWay,
	PROJECT_ROOT,
	type N8nInstallation,
} from '../../../scripts/n8n/install';

jest.setTimeout(120_000);

let folder: string;
let registry: Server;
const asked: string[] = [];
const home = process.env.HOME;

beforeAll(async () => {
	folder = mkdtempSync(join(tmpdir(), 'install-no-registry-'));
	registry = createServer((request, response) => {
		asked.push(request.url ?? '');
		response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
	});
	await new Promise<void>((resolve) => registry.listen(0, '127.0.0.1', () => resolve()));
	const { port } = registry.address() as AddressInfo;
	// The user's own npm settings (installPackageTheUsersWay drops this project's npm_* ones): the
	// recording registry, and an empty cache, so nothing is answered from an earlier download.
	mkdirSync(join(folder, 'home'));
	writeFileSync(
		join(folder, 'home', '.npmrc'),
		`registry=http://127.0.0.1:${port}/\ncache=${join(folder, 'npm-cache')}\nupdate-notifier=false\n`,
	);
	process.env.HOME = join(folder, 'home');
});

afterAll(async () => {
	process.env.HOME = home;
	await new Promise<void>((resolve) => registry.close(() => resolve()));
	rmSync(folder, { recursive: true, force: true });
});

/** A tarball with this package's manifest (its peer and dev dependencies) and one file. */
function packedManifest(): string {
	const source = join(folder, 'package');
	mkdirSync(join(source, 'dist'), { recursive: true });
	const manifest = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as Record<
		string,
		unknown
	>;
	delete manifest.scripts;
	writeFileSync(join(source, 'package.json'), JSON.stringify(manifest, null, 2));
	writeFileSync(join(source, 'dist', 'index.js'), 'module.exports = {};\n');
	const out = execFileSync('npm', ['pack', '--json', '--pack-destination', folder], {
		cwd: source,
		encoding: 'utf8',
	});
	return join(folder, (JSON.parse(out) as Array<{ filename: string }>)[0].filename);
}

test('the packed package is installed without one request to the registry', async () => {
	const tarball = packedManifest();
	const nodeBinDir = dirname(process.execPath);
	const installation: N8nInstallation = {
		n8nHome: join(folder, 'n8n'),
		nodeBinDir,
		n8nBin: join(folder, 'n8n', 'n8n'),
		path: `${nodeBinDir}:${process.env.PATH ?? ''}`,
	};
	const installed = await installPackageTheUsersWay(installation, join(folder, 'user'), tarball);
	expect(asked).toEqual([]);
	expect(existsSync(join(installed, 'dist', 'index.js'))).toBe(true);
	// n8n's own package stays n8n's: not installed beside the node.
	expect(existsSync(join(dirname(installed), 'n8n-workflow'))).toBe(false);
});
