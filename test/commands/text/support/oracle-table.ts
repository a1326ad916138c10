/**
 * A differential table for the text commands: each case runs the real tool (through bash's PATH,
 * in C.UTF-8) and the virtual command over a fresh memory filesystem, and compares status, stdout
 * and stderr byte for byte. A case with `known` is a listed difference: it must still differ (so
 * the list shrinks when a difference is fixed), and the reason is printed in the test's name.
 */
import { describe, expect, test } from 'vitest';
import type { CommandSpec } from '../../../../src/commands/command.js';
import { createMemoryFilesystem } from '../../../../src/vfs/index.js';
import {
  type OracleCase,
  type Outcome,
  pinnableClock,
  runGnu,
  runVirtual,
} from '../../support/gnu-oracle.js';

export interface TableCase extends OracleCase {
  /** Why this case is expected to differ from the real tool. */
  readonly known?: string;
}

function title(c: TableCase): string {
  const words = c.argv.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : JSON.stringify(a))).join(' ');
  const input =
    c.stdin === undefined
      ? ''
      : ` <<< ${JSON.stringify(typeof c.stdin === 'string' ? c.stdin.slice(0, 40) : `[${c.stdin.length} bytes]`)}`;
  return `${words}${input}${c.known === undefined ? '' : ` (known difference: ${c.known})`}`;
}

/** One `describe` per command with a test per case. */
export function oracleTable(
  spec: CommandSpec,
  cases: readonly TableCase[],
  commands?: ReadonlyMap<string, CommandSpec>,
  /** Applied to both outcomes before comparing (bytes that may differ while meaning the same). */
  normalize: (o: Outcome) => Outcome = (o) => o,
): void {
  describe(`${spec.name} against the real tool`, () => {
    const seen = new Set<string>();
    for (const c of cases) {
      let name = title(c);
      while (seen.has(name)) name += ' (again)';
      seen.add(name);
      test(name, async () => {
        const handlers =
          commands === undefined ? undefined : new Map([...commands].map(([k, v]) => [k, v.run]));
        const [gnu, virtual] = (
          await Promise.all([
            runGnu(c),
            (() => {
              const clock = pinnableClock();
              return runVirtual(spec.run, c, createMemoryFilesystem({ now: clock.now }), {
                commands: handlers,
                clock,
              });
            })(),
          ])
        ).map(normalize);
        if (c.known === undefined) expect(virtual).toEqual(gnu);
        else expect(virtual).not.toEqual(gnu);
      });
    }
  });
}
