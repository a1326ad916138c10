/**
 * `ulimit [-HS] [-a | -RcdefilmnpqrstuvxT] [limit]`: the resource limits of the shell and what
 * it runs, soft and hard, inherited by subshells. The kernel enforces `-f` (file size: a write
 * past it ends the writer with SIGXFSZ's status, 153); the others are kept and reported.
 * @module
 */
import { complain, print, usageLine } from './support.js';
import type { Builtin } from './types.js';

interface Resource {
  readonly letter: string;
  readonly text: string;
  readonly unit: string;
  /** Bytes per unit (what a limit is multiplied by; 1 for counts). */
  readonly scale: number;
  readonly initial: bigint | 'unlimited';
}

const RESOURCES: readonly Resource[] = [
  { letter: 'R', text: 'real-time non-blocking time', unit: 'microseconds', scale: 1, initial: 'unlimited' },
  { letter: 'c', text: 'core file size', unit: 'blocks', scale: 512, initial: 0n },
  { letter: 'd', text: 'data seg size', unit: 'kbytes', scale: 1024, initial: 'unlimited' },
  { letter: 'e', text: 'scheduling priority', unit: '', scale: 1, initial: 0n },
  { letter: 'f', text: 'file size', unit: 'blocks', scale: 512, initial: 'unlimited' },
  { letter: 'i', text: 'pending signals', unit: '', scale: 1, initial: 63382n },
  { letter: 'l', text: 'max locked memory', unit: 'kbytes', scale: 1024, initial: 8192n },
  { letter: 'm', text: 'max memory size', unit: 'kbytes', scale: 1024, initial: 'unlimited' },
  { letter: 'n', text: 'open files', unit: '', scale: 1, initial: 1024n },
  { letter: 'p', text: 'pipe size', unit: '512 bytes', scale: 512, initial: 8n },
  { letter: 'q', text: 'POSIX message queues', unit: 'bytes', scale: 1, initial: 819200n },
  { letter: 'r', text: 'real-time priority', unit: '', scale: 1, initial: 0n },
  { letter: 's', text: 'stack size', unit: 'kbytes', scale: 1024, initial: 8192n },
  { letter: 't', text: 'cpu time', unit: 'seconds', scale: 1, initial: 'unlimited' },
  { letter: 'u', text: 'max user processes', unit: '', scale: 1, initial: 63382n },
  { letter: 'v', text: 'virtual memory', unit: 'kbytes', scale: 1024, initial: 'unlimited' },
  { letter: 'x', text: 'file locks', unit: '', scale: 1, initial: 'unlimited' },
];

type Limit = bigint | 'unlimited';

const INITIAL: readonly (readonly [string, Limit])[] = RESOURCES.map((r) => [r.letter, r.initial]);

/** A shell's limits (soft and hard per resource letter). */
export class ResourceLimits {
  private softTable = new Map<string, Limit>(INITIAL);
  private hardTable = new Map<string, Limit>(INITIAL);
  /** The tables are a subshell's copy still shared with its parent (copied on first use here). */
  private shared = false;

  /** Soft limits, to read or change. */
  get soft(): Map<string, Limit> {
    this.own();
    return this.softTable;
  }

  get hard(): Map<string, Limit> {
    this.own();
    return this.hardTable;
  }

  private own(): void {
    if (!this.shared) return;
    this.softTable = new Map(this.softTable);
    this.hardTable = new Map(this.hardTable);
    this.shared = false;
  }

  /** A subshell's copy (copy on write: forks cost nothing until `ulimit` changes a limit). */
  copy(): ResourceLimits {
    const c = Object.create(ResourceLimits.prototype) as ResourceLimits;
    c.softTable = this.softTable;
    c.hardTable = this.hardTable;
    c.shared = true;
    this.shared = true;
    return c;
  }

  /** The file size limit in bytes (`Infinity` when unlimited). */
  fileSizeBytes(): number {
    const v = this.softTable.get('f');
    return v === undefined || v === 'unlimited' ? Number.POSITIVE_INFINITY : Number(v) * 512;
  }
}

const USAGE = 'ulimit [-SHabcdefiklmnpqrstuvxPRT] [limit]';
const MAX = (1n << 63n) - 1n;

export const ulimit: Builtin = {
  name: 'ulimit',
  synopsis: USAGE,
  help: 'Show or set resource limits (-f file size in blocks, -n open files, -t cpu seconds, -a all; -S soft, -H hard).',
  async run({ sh, argv }) {
    let soft = false;
    let hard = false;
    let all = false;
    const letters: string[] = [];
    let value: string | undefined;
    const args = argv.slice(1);
    for (let i = 0; i < args.length; i += 1) {
      const a = args[i] as string;
      if (a === '--') {
        value = args[i + 1];
        break;
      }
      if (a.startsWith('-') && a.length > 1 && !/^-[0-9]/.test(a)) {
        for (const c of a.slice(1)) {
          if (c === 'S') soft = true;
          else if (c === 'H') hard = true;
          else if (c === 'a') all = true;
          else if (RESOURCES.some((r) => r.letter === c)) letters.push(c);
          else {
            await complain(sh, 'ulimit', `-${c}: invalid option`);
            await usageLine(sh, 'ulimit', USAGE);
            return 2;
          }
        }
        continue;
      }
      if (/^-[0-9]/.test(a)) {
        await complain(sh, 'ulimit', `${a}: invalid option`);
        await usageLine(sh, 'ulimit', USAGE);
        return 2;
      }
      value = a;
    }
    const limits = sh.limitsTable;
    if (all) {
      let out = '';
      for (const r of RESOURCES) {
        const label = r.unit === '' ? `(-${r.letter})` : `(${r.unit}, -${r.letter})`;
        out += `${r.text.padEnd(27)} ${label.padStart(17)} ${show((hard ? limits.hard : limits.soft).get(r.letter))}\n`;
      }
      await print(
        sh,
        out.replace(/ +\(/g, (m) => m),
      );
      return 0;
    }
    const which = letters.length === 0 ? ['f'] : letters;
    if (value === undefined) {
      let out = '';
      for (const letter of which) out += `${show((hard && !soft ? limits.hard : limits.soft).get(letter))}\n`;
      await print(sh, out);
      return 0;
    }
    for (const letter of which) {
      let limit: Limit;
      if (value === 'unlimited') limit = 'unlimited';
      else if (value === 'hard') limit = limits.hard.get(letter) ?? 'unlimited';
      else if (value === 'soft') limit = limits.soft.get(letter) ?? 'unlimited';
      else if (/^[0-9]+$/.test(value)) {
        limit = BigInt(value);
        const r = RESOURCES.find((x) => x.letter === letter) as Resource;
        if (limit * BigInt(r.scale) > MAX) {
          await complain(sh, 'ulimit', `${value}: limit out of range`);
          return 1;
        }
      } else {
        await complain(sh, 'ulimit', `${value}: invalid number`);
        return 1;
      }
      const hardNow = limits.hard.get(letter) ?? 'unlimited';
      if (!hard && hardNow !== 'unlimited' && (limit === 'unlimited' || limit > hardNow)) {
        await complain(sh, 'ulimit', `${describe(letter)}: cannot modify limit: Invalid argument`);
        return 1;
      }
      if (
        hard &&
        sh.rt.identity.uid !== 0 &&
        (hardNow === 'unlimited' ? false : limit === 'unlimited' || limit > hardNow)
      ) {
        await complain(sh, 'ulimit', `${describe(letter)}: cannot modify limit: Operation not permitted`);
        return 1;
      }
      if (soft || !hard) limits.soft.set(letter, limit);
      if (hard || !soft) limits.hard.set(letter, limit);
    }
    return 0;
  },
};

function show(v: Limit | undefined): string {
  return v === undefined || v === 'unlimited' ? 'unlimited' : String(v);
}

function describe(letter: string): string {
  const r = RESOURCES.find((x) => x.letter === letter);
  return r === undefined ? letter : r.text;
}
