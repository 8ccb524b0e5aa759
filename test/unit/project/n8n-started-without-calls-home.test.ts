import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { noCallsHomeEnvironment } from '../../../scripts/n8n/noCallsHome';

/*
 * Every n8n this project starts is kept from calling n8n's servers, whatever its version: n8n 2.4x
 * fetches its MCP server catalogue from api.n8n.io at every start unless its `mcp-registry` module
 * is disabled, and an n8n that does not know a module named in N8N_DISABLED_MODULES refuses to
 * start. So the module is disabled where, and only where, the installed n8n's list names it
 * (an n8n 1.x has no such list, or one without it). That n8n 2.40.7 then logs no call home offline
 * is test/start/start-offline.test.ts.
 */

let folder: string;
beforeEach(() => (folder = mkdtempSync(join(tmpdir(), 'no-calls-home-'))));
afterEach(() => rmSync(folder, { recursive: true, force: true }));

/** An n8n install whose backend knows these modules, as n8n's own modules.config.js lists them. */
function n8nKnowing(modules: string[] | undefined): string {
	const dist = join(folder, 'node_modules', '@n8n', 'backend-common', 'dist', 'modules');
	mkdirSync(dist, { recursive: true });
	if (modules !== undefined) {
		const list = modules.map((name) => `    '${name}',`).join('\n');
		writeFileSync(join(dist, 'modules.config.js'), `exports.MODULE_NAMES = [\n${list}\n];\n`);
	}
	return folder;
}

it('an n8n that knows the MCP catalogue module is started with it disabled', () => {
	const env = noCallsHomeEnvironment(n8nKnowing(['insights', 'mcp-registry', 'otel']));
	expect(env.N8N_DISABLED_MODULES).toBe('mcp-registry');
});

it.each([
	['a list of modules without it (n8n 1.123)', ['insights', 'mcp']],
	['no list of modules at all (n8n 1.85)', undefined],
])('an n8n with %s is not told to disable it (it would refuse to start)', (_, modules) => {
	const env = noCallsHomeEnvironment(n8nKnowing(modules));
	expect(env).not.toHaveProperty('N8N_DISABLED_MODULES');
});

it("telemetry, version checks, templates and the verified-nodes list stay off on every version (n8n's own settings)", () => {
	expect(noCallsHomeEnvironment(n8nKnowing(undefined))).toMatchObject({
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_VERIFIED_PACKAGES_ENABLED: 'false',
	});
});
