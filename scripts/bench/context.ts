import type { N8nInstallation } from '../n8n/install';
import type { RealN8n } from '../n8n/real-n8n';
import type { ForeignLoad } from './cpuLoad';
import type { Machine } from './machine';
import type { BenchReport } from './report';
import type { StandInHandle } from './standIn';
import type { BulkCase, TriggerCase } from './workflows';

/* What the phases share: where figures go, and what runs once n8n is up. */

export interface Bench {
	report: BenchReport;
	/** Failed phases and wrong results: printed at the end, and the run exits 1. */
	problems: string[];
	installation: N8nInstallation;
	machine: Machine;
}

type Imported<T> = T & { id: string };

export type BulkWorkflows = Record<
	| 'contactsOurs'
	| 'contactsHttp'
	| 'contactsOursAutomatic'
	| 'sendOurs'
	| 'sendOursSequential'
	| 'sendHttp'
	| 'sendOursFixed'
	| 'sendOursAutomatic'
	| 'sendHttpAsAutomatic'
	| 'sendFloor',
	Imported<BulkCase>
>;

/** The bench once the stand-in and n8n run, with every workflow imported and active. */
export interface LiveBench extends Bench {
	n8n: RealN8n;
	standIn: StandInHandle;
	foreignLoad: ForeignLoad;
	bulk: BulkWorkflows;
	triggers: Array<Imported<TriggerCase>>;
}
