/**
 * Liveness checks through the context: whether a process planted by `process-probe.ts` still
 * runs, asked with a later `exec` (by pid and identity, or by heartbeat), with a positive control
 * before every "gone" verdict.
 * @module
 */
import type { ContextHandle } from '../contract/types.js';
import { shQuote } from '../subprocess/shell-quote.js';
import { aliveCommand, heartbeatFile } from './process-probe.js';
import { delay } from './wait-until.js';

/** How long a live heartbeat may take to tick before the suite calls it invisible. */
const HEARTBEAT_VISIBLE_MS = 5_000;
/** Silence that proves a heartbeat stopped (twenty beats). */
const HEARTBEAT_QUIET_MS = 2_000;

/** A planted process being watched; see {@link ProcessProbes.watch}. */
export interface ProcessWatch {
  /** `pid`: checked with `kill -0` and identity; `heartbeat`: checked by its heartbeat file. */
  readonly mode: 'pid' | 'heartbeat';
  readonly pid: number;
  /** True once the process is gone (by pid: not alive; by heartbeat: no tick over a quiet window). */
  gone(): Promise<boolean>;
}

/** A process planted by a probe: its pid and a token its command line carries. */
export interface PlantedProcess {
  readonly pid: number;
  readonly token: string;
}

/** Process liveness asked through `exec`; the fixture supplies how to run a command. */
export abstract class ProcessProbes {
  /** The handle probes run on by default. */
  abstract get main(): ContextHandle;

  /** Runs `command` and returns its stdout; throws when it exits non-zero. */
  abstract sh(command: string, handle?: ContextHandle): Promise<string>;

  /**
   * Asks the context whether a process still runs (a zombie counts as gone). Give a
   * {@link PlantedProcess} to also check its identity, not only its pid.
   */
  async isAlive(target: number | PlantedProcess, handle: ContextHandle = this.main): Promise<boolean> {
    const command =
      typeof target === 'number' ? aliveCommand(target) : aliveCommand(target.pid, target.token);
    const answer = (await this.sh(command, handle)).trim();
    if (answer !== 'alive' && answer !== 'dead')
      throw new Error(`alive probe printed ${JSON.stringify(answer)}`);
    return answer === 'alive';
  }

  /**
   * Starts watching a process planted with `pidFile` (see `process-probe.ts`), through
   * `observer`. Doubles as the positive control: it throws unless the process is visibly alive,
   * so a later "gone" always means something. By pid (`kill -0` plus identity) where pids mean
   * the same to every command; else by its heartbeat file, for backends that give each command
   * its own pid namespace.
   */
  async watch(pidFile: string, what: string, observer: ContextHandle = this.main): Promise<ProcessWatch> {
    const planted = await this.readPlanted(pidFile, observer);
    if (await this.isAlive(planted, observer)) {
      return { mode: 'pid', pid: planted.pid, gone: async () => !(await this.isAlive(planted, observer)) };
    }
    const beat = heartbeatFile(pidFile);
    const read = () => this.sh(`cat ${shQuote(beat)} 2>/dev/null || true`, observer);
    const first = await read();
    const deadline = Date.now() + HEARTBEAT_VISIBLE_MS;
    while ((await read()) === first) {
      if (Date.now() > deadline) {
        throw new Error(
          `${what}: the planted process ${planted.pid} is visible neither by pid nor by its heartbeat (${beat}) through a later exec, so its death could not be verified`,
        );
      }
      await delay(50);
    }
    return {
      mode: 'heartbeat',
      pid: planted.pid,
      gone: async () => {
        const before = await read();
        await delay(HEARTBEAT_QUIET_MS);
        return (await read()) === before;
      },
    };
  }

  /**
   * For a process of `owner`, a handle about to be destroyed: checks it is alive through `owner`
   * (throws if not), then returns a watch through the main handle, or undefined when the main
   * handle cannot see it (each handle its own machine, with no shared files).
   */
  async watchAcross(pidFile: string, what: string, owner: ContextHandle): Promise<ProcessWatch | undefined> {
    await this.watch(pidFile, what, owner);
    try {
      return await this.watch(pidFile, what, this.main);
    } catch {
      return undefined;
    }
  }

  /**
   * Throws unless every watched process is gone; `what` names the event that should have ended
   * them. Heartbeat-mode checks are reported through `note`.
   */
  async expectGone(
    watches: readonly ProcessWatch[],
    what: string,
    note: (message: string) => Promise<void>,
  ): Promise<void> {
    const verdicts = await Promise.all(watches.map((w) => w.gone()));
    const survivors = watches.filter((_, i) => !verdicts[i]).map((w) => w.pid);
    if (survivors.length > 0) {
      throw new Error(`${what}: descendant ${survivors.join(', ')} still runs after the call settled`);
    }
    if (watches.some((w) => w.mode === 'heartbeat')) {
      await note(
        `${what}: pids do not carry across commands here; the tree's death was verified by its heartbeat stopping`,
      );
    }
  }

  /** Reads the pid file a probe from `process-probe.ts` wrote; its path is the identity token. */
  async readPlanted(pidFile: string, handle: ContextHandle = this.main): Promise<PlantedProcess> {
    return { pid: await this.readPid(pidFile, handle), token: pidFile };
  }

  /** Reads a pid file written by a probe; throws when it is missing or malformed. */
  async readPid(pidFile: string, handle: ContextHandle = this.main): Promise<number> {
    const text = (await this.sh(`cat ${shQuote(pidFile)}`, handle)).trim();
    const pid = Number(text);
    if (!Number.isInteger(pid) || pid <= 0)
      throw new Error(`pid file ${pidFile} holds ${JSON.stringify(text)}`);
    return pid;
  }
}
