/**
 * The orphan soak: randomized runs of hostile commands (double-forked daemons, `nohup`, TERM traps,
 * `setsid`, pipe holders, busy loops) ended every way a context ends work (timeout, abort, a
 * finished command's leftovers, background kill, destroy, stream kill, a SIGKILLed host), counting
 * what survives the call that promised to end it. Survivors are found on this host's `/proc` by a
 * marker each run's processes carry, so it applies to backends whose processes this host can see
 * (the process context, the OS sandbox, Docker on runc) when run as their user or root. It does not
 * need vitest: the bench runs it too.
 * @module
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import type { ContextHandle, ExecutionContext } from '../contract/types.js';
import { describeProcess, killMarked, pidsWithMarker, waitForNoMarker } from './host-markers.js';

/** Every way a soak run ends its command. */
export const SOAK_SCENARIOS = [
  'timeout',
  'abort',
  'finished',
  'background-kill',
  'destroy',
  'stream-kill',
  'host-killed',
] as const;
export type SoakScenario = (typeof SOAK_SCENARIOS)[number];

/** How a host for the `host-killed` scenario creates its context: a module and a factory in it. */
export interface SoakHost {
  /** URL (or path) of an ES module the host process imports (built JavaScript). */
  readonly moduleUrl: string;
  /** The export that creates the context; called with {@link SoakHost.options}. */
  readonly exportName: string;
  /** JSON-serializable options for the factory. */
  readonly options?: unknown;
}

export interface OrphanSoakOptions {
  readonly context: ExecutionContext;
  readonly runs: number;
  /** Scenarios to draw from (default: every one the context supports, `host-killed` when `host` is given). */
  readonly scenarios?: readonly SoakScenario[] | undefined;
  /** Seed of the run's random choices, for a reproducible soak (default: random). */
  readonly seed?: number | undefined;
  /** The context's TERM → KILL grace, so waits are sized to it. */
  readonly graceMs: number;
  /** Enables `host-killed`: how a separate host process makes the same kind of context. */
  readonly host?: SoakHost | undefined;
  /** Called after each run. */
  readonly onRun?: ((run: SoakRun) => void) | undefined;
}

/** One soak run. */
export interface SoakRun {
  readonly index: number;
  readonly scenario: SoakScenario;
  /** The command's hostile parts, by name. */
  readonly shape: readonly string[];
  /** Processes of the run alive just before the ending call (how much there was to end). */
  readonly liveAtEnd: number;
  /**
   * Processes still alive once the ending call settled (for `host-killed`: after the bound). When
   * the command had ended on its own before that call, what it left is counted after `destroy`.
   */
  readonly survivors: number;
  /** Each survivor as `pid ppid state command`, for the report. */
  readonly left: readonly string[];
  /** From the moment the end fired to the call settling (for `host-killed`: to no process left). */
  readonly terminationMs: number;
}

/** Per-scenario totals. */
export interface SoakScenarioSummary {
  readonly runs: number;
  /** Runs that left at least one process. */
  readonly runsWithSurvivors: number;
  /** Processes left, over all runs. */
  readonly survivors: number;
  readonly terminationMs: { readonly p50: number; readonly p95: number; readonly max: number };
}

export interface SoakReport {
  readonly seed: number;
  readonly runs: readonly SoakRun[];
  readonly byScenario: Readonly<Partial<Record<SoakScenario, SoakScenarioSummary>>>;
  /** Processes left over all runs. */
  readonly survivors: number;
}

/** The hostile parts a command is built from (each a line of `sh`). */
const FRAGMENTS: Readonly<Record<string, string>> = {
  'double-fork': '(setsid sleep 1000 >/dev/null 2>&1 &)',
  'double-fork-holding-pipe': '(setsid sleep 1000 &)',
  'late-double-fork': '(sleep 0.05; setsid sleep 1000 >/dev/null 2>&1 &) &',
  background: 'sleep 1000 &',
  nohup: 'nohup sleep 1000 >/dev/null 2>&1 &',
  'term-trap': `sh -c 'trap "" TERM; sleep 1000' &`,
  'setsid-term-trap': `setsid sh -c 'trap "" TERM; exec sleep 1000' >/dev/null 2>&1 &`,
  'busy-loop': '(while :; do :; done) &',
};
const FRAGMENT_NAMES = Object.keys(FRAGMENTS);
const LIVE_TAILS = ['sleep 1000', `trap '' TERM; sleep 1000`, 'wait'];
// A host killed with its processes still starting proves nothing; this bounds the wait for them.
const HOST_READY_MS = 15_000;

/** A small seeded generator (mulberry32): the same seed draws the same soak. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Ended = Pick<SoakRun, 'liveAtEnd' | 'survivors' | 'left' | 'terminationMs'>;

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;
}

/** The scenarios `context` can run (its optional methods decide). */
export function supportedScenarios(context: ExecutionContext, host: SoakHost | undefined): SoakScenario[] {
  return SOAK_SCENARIOS.filter((scenario) => {
    if (scenario === 'background-kill' || scenario === 'destroy') return context.execBackground !== undefined;
    if (scenario === 'stream-kill') return context.execStream !== undefined;
    if (scenario === 'host-killed') return host !== undefined;
    return true;
  });
}

/** Run the soak; never throws for survivors (the report counts them), only for a broken context. */
export async function runOrphanSoak(options: OrphanSoakOptions): Promise<SoakReport> {
  const seed = options.seed ?? Math.floor(Math.random() * 2 ** 31);
  const random = generator(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const scenarios = options.scenarios ?? supportedScenarios(options.context, options.host);
  const runs: SoakRun[] = [];
  for (let index = 0; index < options.runs; index++) {
    const scenario = pick(scenarios);
    const shape = FRAGMENT_NAMES.filter(() => random() < 0.35);
    if (shape.length === 0) shape.push(pick(FRAGMENT_NAMES.filter((name) => name !== 'busy-loop')));
    const marker = `berth-soak-${randomUUID()}`;
    const tail = scenario === 'finished' ? 'exit 0' : pick(LIVE_TAILS);
    // The marker is in the script (argv of every shell and subshell) and in the environment.
    const command = [`: ${marker}`, ...shape.map((name) => FRAGMENTS[name]!), tail].join('\n');
    const delayMs = Math.floor(random() * 200);
    try {
      const ended = await runOne(options, scenario, command, marker, delayMs);
      const run: SoakRun = { index, scenario, shape, ...ended };
      runs.push(run);
      options.onRun?.(run);
    } finally {
      killMarked(marker);
    }
  }
  return summarize(seed, runs);
}

async function runOne(
  options: OrphanSoakOptions,
  scenario: SoakScenario,
  command: string,
  marker: string,
  delayMs: number,
): Promise<Ended> {
  if (scenario === 'host-killed') return hostKilled(options, command, marker, delayMs);
  const { context } = options;
  const env = { BERTH_SOAK_MARKER: marker };
  const handle: ContextHandle = await context.spawn();
  let destroyed = false;
  try {
    let liveAtEnd = 0;
    let firedAt = 0;
    // False when the command ended on its own before the ending call: the call then promised
    // nothing, and what the command left is the handle's to end at destroy.
    let ended = true;
    switch (scenario) {
      case 'timeout': {
        const timeoutMs = 1 + delayMs;
        const started = performance.now();
        const watch = setTimeout(
          () => {
            liveAtEnd = pidsWithMarker(marker).length;
          },
          Math.max(0, timeoutMs - 2),
        );
        ended = (await context.exec(handle, command, { env, timeoutMs })).timedOut;
        clearTimeout(watch);
        firedAt = started + timeoutMs;
        break;
      }
      case 'abort': {
        const controller = new AbortController();
        const timer = setTimeout(() => {
          liveAtEnd = pidsWithMarker(marker).length;
          firedAt = performance.now();
          controller.abort();
        }, delayMs);
        const result = await context.exec(handle, command, {
          env,
          signal: controller.signal,
          timeoutMs: 60_000,
        });
        ended = result.aborted;
        clearTimeout(timer);
        if (firedAt === 0) firedAt = performance.now();
        break;
      }
      case 'finished': {
        await context.exec(handle, command, { env, timeoutMs: 60_000 });
        ended = false;
        break;
      }
      case 'background-kill': {
        const task = await context.execBackground!(handle, command, { env });
        await delay(delayMs);
        liveAtEnd = pidsWithMarker(marker).length;
        firedAt = performance.now();
        ended = (await context.killBackground!(handle, task.id))?.killed === true;
        break;
      }
      case 'destroy': {
        await context.execBackground!(handle, command, { env });
        const inFlight = context.exec(handle, command, { env, timeoutMs: 60_000 }).catch(() => undefined);
        await delay(delayMs);
        liveAtEnd = pidsWithMarker(marker).length;
        firedAt = performance.now();
        destroyed = true;
        await context.destroy(handle);
        await inFlight;
        break;
      }
      case 'stream-kill': {
        const stream = await context.execStream!(handle, ['/bin/sh', '-c', command], { env });
        stream.stdout.resume();
        stream.stderr?.resume();
        await delay(delayMs);
        liveAtEnd = pidsWithMarker(marker).length;
        firedAt = performance.now();
        await stream.kill();
        break;
      }
    }
    if (!ended) {
      liveAtEnd = pidsWithMarker(marker).length;
      firedAt = performance.now();
      destroyed = true;
      await context.destroy(handle);
    }
    const terminationMs = Math.max(0, performance.now() - firedAt);
    const left = pidsWithMarker(marker);
    return { liveAtEnd, survivors: left.length, left: left.map(describeProcess), terminationMs };
  } finally {
    if (!destroyed) await context.destroy(handle);
  }
}

/** A separate host runs the command (background tasks and an exec); it is SIGKILLed mid-run. */
async function hostKilled(
  options: OrphanSoakOptions,
  command: string,
  marker: string,
  delayMs: number,
): Promise<Ended> {
  const host = options.host!;
  const script = `
const mod = await import(${JSON.stringify(host.moduleUrl)});
const context = mod[${JSON.stringify(host.exportName)}](${JSON.stringify(host.options ?? {})});
const handle = await context.spawn();
const command = ${JSON.stringify(command)};
const env = { BERTH_SOAK_MARKER: ${JSON.stringify(marker)} };
if (context.execBackground) for (let i = 0; i < 2; i++) await context.execBackground(handle, command, { env });
void context.exec(handle, command, { env, timeoutMs: 600000 }).catch(() => {});
process.stdout.write('ready\\n');
setInterval(() => {}, 1000);
`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`the soak host did not start: ${stderr}`)),
        HOST_READY_MS,
      );
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        if (chunk.includes('ready')) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`the soak host exited (${code ?? signal}) before it was ready: ${stderr}`));
      });
    });
    await delay(delayMs);
    const liveAtEnd = pidsWithMarker(marker).length;
    const firedAt = performance.now();
    child.kill('SIGKILL');
    await exited;
    // Nothing promises an instant end here; what is left after a bound well past any grace is left.
    const left = await waitForNoMarker(marker, 3000 + options.graceMs);
    return {
      liveAtEnd,
      survivors: left.length,
      left: left.map(describeProcess),
      terminationMs: performance.now() - firedAt,
    };
  } finally {
    child.kill('SIGKILL');
  }
}

function summarize(seed: number, runs: readonly SoakRun[]): SoakReport {
  const byScenario: Partial<Record<SoakScenario, SoakScenarioSummary>> = {};
  for (const scenario of SOAK_SCENARIOS) {
    const own = runs.filter((run) => run.scenario === scenario);
    if (own.length === 0) continue;
    const times = own.map((run) => run.terminationMs).sort((a, b) => a - b);
    byScenario[scenario] = {
      runs: own.length,
      runsWithSurvivors: own.filter((run) => run.survivors > 0).length,
      survivors: own.reduce((sum, run) => sum + run.survivors, 0),
      terminationMs: {
        p50: percentile(times, 50),
        p95: percentile(times, 95),
        max: times[times.length - 1]!,
      },
    };
  }
  return { seed, runs, byScenario, survivors: runs.reduce((sum, run) => sum + run.survivors, 0) };
}
