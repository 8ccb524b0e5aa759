import { readFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';

import { run, type N8nInstallation } from '../n8n/install';

/* The machine and the Node and n8n versions the figures were taken on, printed with them. */

export interface Machine {
	cores: number;
	cpuModel: string;
	memoryGiB: number;
	driverNode: string;
	n8nNode: string;
	n8nVersion: string;
}

export async function describeMachine(installation: N8nInstallation): Promise<Machine> {
	const n8nManifest = join(installation.n8nHome, 'node_modules', 'n8n', 'package.json');
	return {
		cores: cpus().length,
		cpuModel: cpus()[0]?.model ?? 'unknown',
		memoryGiB: Math.round(totalmem() / 2 ** 30),
		driverNode: process.version,
		n8nNode: (await run(nodeOf(installation), ['--version'])).trim(),
		n8nVersion: (JSON.parse(readFileSync(n8nManifest, 'utf8')) as { version: string }).version,
	};
}

/** The Node n8n runs on: the CPU and load-time children run on it too. */
export const nodeOf = (installation: N8nInstallation) => join(installation.nodeBinDir, 'node');

export function machineLine(machine: Machine): string {
	return (
		`Machine: ${machine.cores} cores (${machine.cpuModel}), ${machine.memoryGiB} GiB; bench driver on Node ${machine.driverNode}; ` +
		`n8n ${machine.n8nVersion} and the CPU/load-time children on Node ${machine.n8nNode}; loopback only.`
	);
}
