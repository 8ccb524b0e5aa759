import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';

/*
 * How long loading this package's entry points takes, in a fresh process of the Node n8n runs on.
 * n8n itself has already loaded n8n-workflow (and with it zod and luxon) when it reads community
 * packages, so those are required first and only the package's own files are timed. Prints one JSON
 * object on stdout.
 */

const PROJECT_ROOT = join(__dirname, '..', '..');

function main(): void {
	require('n8n-workflow');
	require('zod');
	require('luxon');
	const manifest = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as {
		n8n: { nodes: string[]; credentials: string[] };
	};
	const entries: Record<string, number> = {};
	let totalMs = 0;
	for (const entry of [...manifest.n8n.credentials, ...manifest.n8n.nodes]) {
		const started = process.hrtime.bigint();
		const exported = require(join(PROJECT_ROOT, entry)) as Record<string, new () => unknown>;
		// n8n instantiates the class named like the file (ChatMessagingApi from
		// ChatMessagingApi.credentials.js) to read its description: part of loading. Other exports
		// (helpers the tests use) are not classes n8n touches.
		const className = basename(entry).replace(/\.(node|credentials)\.js$/, '');
		new exported[className]();
		const ms = Number(process.hrtime.bigint() - started) / 1e6;
		entries[entry] = ms;
		totalMs += ms;
	}
	process.stdout.write(`${JSON.stringify({ node: process.version, totalMs, entries })}\n`);
}

main();
