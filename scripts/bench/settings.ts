import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { PROJECT_ROOT } from '../n8n/install';

/*
 * What `npm run bench` measures with, in one place. BENCH_CONTACTS, BENCH_SENDS and BENCH_RATE_LIMIT
 * shrink a trial run (e.g. BENCH_SENDS=300 BENCH_RATE_LIMIT=50); BENCH_SKIP_LEGACY=1 skips the restart
 * of n8n with the legacy expression engine.
 */

export const CONTACTS = Number(process.env.BENCH_CONTACTS ?? 10_000);
export const SENDS = Number(process.env.BENCH_SENDS ?? 5_000);
/** Requests per second the stand-in takes in the throttled runs (a token bucket of one second's worth). */
export const RATE_LIMIT = Number(process.env.BENCH_RATE_LIMIT ?? 200);
/**
 * The expression engine the bench's n8n runs: N8N_EXPRESSION_ENGINE reaches n8n through the
 * environment; unset, n8n 2.40 uses `vm` (isolated-vm).
 */
export const EXPRESSION_ENGINE = process.env.N8N_EXPRESSION_ENGINE || 'vm';
/** Sends of the memory and scaling runs (issue 26): ten times SENDS, beside HTTP Request. */
export const BIG_SENDS = Number(process.env.BENCH_BIG_SENDS ?? 50_000);
/**
 * BENCH_PHASES=floor,scale runs only the phases named (setup always runs): to try one phase with
 * few items while the machine is busy. Names: footprint, cpu, contacts, sends, ceiling, floor,
 * scale, throttled, trigger, legacy; and `profile`, which runs only when named (profiling slows
 * n8n, so it never runs beside the timed phases).
 */
const PHASES = process.env.BENCH_PHASES?.split(',').map((phase) => phase.trim());
const ONLY_WHEN_NAMED = ['profile'];
export const phaseWanted = (phase: string) =>
	PHASES === undefined ? !ONLY_WHEN_NAMED.includes(phase) : PHASES.includes(phase);
/** A run with other sizes or only some phases: its figures are not compared with the last run's. */
export const TRIAL_RUN = [
	'BENCH_SENDS',
	'BENCH_CONTACTS',
	'BENCH_RATE_LIMIT',
	'BENCH_BIG_SENDS',
	'BENCH_PHASES',
].some((name) => process.env[name] !== undefined);
export const WARM_UP_ITEMS = 200;
/** The node's default for Requests in Parallel, so the ceiling is measured at equal concurrency. */
export const OUR_DEFAULT_CONCURRENCY = 4;
export const CEILING_SECONDS = 10;
export const TRIGGER_CONNECTIONS = 10;
export const TRIGGER_SECONDS = 10;
export const TRIGGER_WARM_UP_SECONDS = 2;
export const LOAD_TIME_RUNS = 7;
export const HARD_LIMIT_MS = 20 * 60_000;

export const BENCH_FOLDER = join(tmpdir(), 'n8n-nodes-chat-messaging-bench');
export const PID_FILE = join(BENCH_FOLDER, 'n8n.pid');
export const OUTPUT_FILE = join(PROJECT_ROOT, 'bench-output', 'latest.json');
export const PROFILE_FOLDER = join(PROJECT_ROOT, 'bench-output', 'profiles');
export const TRIAL_OUTPUT_FILE = join(PROJECT_ROOT, 'bench-output', 'trial.json');

export const say = (line: string) => process.stderr.write(`[bench] ${line}\n`);
