import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/*
 * The settings that keep an n8n this project starts from calling n8n's own servers: a local n8n
 * for trying the package needs none of them, and once installed it must run the same without a
 * network. Each call left on was, offline, an error in n8n's log that reads like a broken start.
 */

/**
 * n8n's backend modules that call n8n's servers by themselves. `mcp-registry` (n8n 2.4x) fetches
 * the catalogue of MCP servers from api.n8n.io at every start and every 8 hours, with no setting
 * of its own; only N8N_DISABLED_MODULES turns it off.
 */
const MODULES_THAT_CALL_HOME = ['mcp-registry'];

/**
 * The modules of those this n8n knows. An n8n that does not know a module named in
 * N8N_DISABLED_MODULES refuses to start (UnknownModuleError), and older n8n (1.x, tested by
 * `npm run test:compat`) has no `mcp-registry`: so only those its own list of modules names.
 */
export function modulesThatCallHome(n8nHome: string): string[] {
	const list = join(
		n8nHome,
		'node_modules',
		'@n8n',
		'backend-common',
		'dist',
		'modules',
		'modules.config.js',
	);
	if (!existsSync(list)) return [];
	const text = readFileSync(list, 'utf8');
	return MODULES_THAT_CALL_HOME.filter((name) => text.includes(`'${name}'`));
}

/** n8n's settings for no calls home: telemetry, version checks, templates, banners, catalogues. */
export function noCallsHomeEnvironment(n8nHome: string): Record<string, string> {
	const modules = modulesThatCallHome(n8nHome);
	return {
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		// The node panel's list of n8n-verified community nodes, fetched from api.n8n.io (or its
		// staging twin) whenever the panel opens. Packages installed in the nodes folder, this one
		// among them, load all the same.
		N8N_VERIFIED_PACKAGES_ENABLED: 'false',
		...(modules.length > 0 ? { N8N_DISABLED_MODULES: modules.join(',') } : {}),
	};
}
