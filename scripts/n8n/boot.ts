import { closeSync } from 'node:fs';
import { join } from 'node:path';

import {
	ensureN8nInstalled,
	installPackageTheUsersWay,
	linkPackageIntoN8n,
	packPackage,
} from './install';
import { openPrivateLog } from './privateFiles';
import { RealN8n, type Owner } from './real-n8n';

export interface BootOptions {
	/** N8N_USER_FOLDER; the package is installed in `<userFolder>/.n8n/nodes`. */
	userFolder: string;
	port: number;
	brokerPort: number;
	owner: Owner;
	/** An API key kept from an earlier run, reused when n8n still accepts it. */
	previousApiKey?: string;
	/** Progress lines for a person watching; silent when absent. */
	say?: (line: string) => void;
	/** Where npm's output goes while n8n is installed (first run); streamed to stderr when absent. */
	installLog?: string;
	/** Where n8n's pid is kept while it runs (RealN8n's StartOptions.pidFile). */
	pidFile?: string;
}

/**
 * From nothing to a signed-in n8n with this package loaded the way users install it: n8n (first
 * time only), `npm pack` of dist/, `npm install` of the tarball in the user folder, `n8n start`,
 * the owner account and a public-API key. dist/ must be built.
 */
export async function bootN8nWithPackage(given: BootOptions): Promise<RealN8n> {
	const linking = process.env.CHAT_MESSAGING_LINK_PACKAGE === '1';
	// n8n watches the whole linked clone for changes: its own database and log inside the clone
	// (.n8n-local/) would set off a reload at every write. So npm run dev keeps them outside.
	const devFolder = process.env.CHAT_MESSAGING_DEV_N8N_FOLDER;
	const options = linking && devFolder ? { ...given, userFolder: devFolder } : given;
	const say = options.say ?? (() => undefined);
	// install-n8n.sh appends to it: made here first, so it is for this user only (privateFiles.ts).
	if (options.installLog) closeSync(openPrivateLog(options.installLog, 'a'));
	say('checking the n8n install (the first run installs it: about 6 minutes; later runs: instant)');
	const installation = await ensureN8nInstalled({ logFile: options.installLog });
	if (linking) {
		// npm run dev (scripts/dev.sh): n8n loads this clone's dist/, rebuilt on save.
		say('linking this clone into n8n, as `n8n-node dev` does');
		linkPackageIntoN8n(options.userFolder);
	} else {
		say(
			'packing the package and installing it into n8n the way users do (about 5-20 s; no network needed)',
		);
		// npm run test:compat packs once and tests the same tarball on every n8n version.
		const tarball =
			process.env.CHAT_MESSAGING_TARBALL ??
			(await packPackage(join(options.userFolder, 'package-tarball')));
		await installPackageTheUsersWay(installation, options.userFolder, tarball);
	}
	const readyTimeoutMs = 180_000;
	say(
		`starting n8n on port ${options.port} (about 20-40 s; waiting up to ${readyTimeoutMs / 60_000} minutes for it to answer)`,
	);
	const n8n = await RealN8n.start({
		installation,
		userFolder: options.userFolder,
		port: options.port,
		brokerPort: options.brokerPort,
		logFile: join(options.userFolder, 'n8n.log'),
		readyTimeoutMs,
		pidFile: options.pidFile,
	});
	try {
		await n8n.signInOwner(options.owner);
		await n8n.useApiKey(options.previousApiKey);
	} catch (error) {
		await n8n.stop();
		throw error;
	}
	return n8n;
}
