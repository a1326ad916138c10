/**
 * grep's literal scan in the raw bytes against GNU grep: hits dense and sparse (the scan looks
 * near the last hit in JS, farther natively), runs of adjacent selected lines written at once,
 * near misses (a needle's first bytes without its last), lines longer than the near window, block
 * boundaries past 1 MiB, and an unterminated last line.
 */
import { describe, expect, it } from 'vitest';
import { grepCommands } from '../../../src/commands/grep/index.js';
import { createMemoryFilesystem } from '../../../src/vfs/index.js';
import { type OracleCase, runGnu, runVirtual } from '../support/gnu-oracle.js';

const grep = (grepCommands[0] as (typeof grepCommands)[number]).run;

/** A deterministic generator, so a failure names an input that can be made again. */
function lines(seed: number, count: number, hitEvery: number, longEvery: number): string {
  let state = seed;
  const next = () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state;
  };
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const width = i % longEvery === 0 ? 300 + (next() % 900) : next() % 12;
    let line = '';
    for (let k = 0; k < width; k++) line += 'abcdefghij'[next() % 10];
    if (next() % hitEvery === 0) {
      const at = next() % (line.length + 1);
      line = `${line.slice(0, at)}${i % 3 === 0 ? 'ée' : 'xyz'}${line.slice(at)}`;
    }
    if (next() % 3 === 0) {
      // A near miss: the needle's first bytes without its last.
      const at = next() % (line.length + 1);
      line = `${line.slice(0, at)}${i % 2 === 0 ? 'éa' : 'xya'}${line.slice(at)}`;
    }
    out.push(line);
  }
  return out.join('\n');
}

const INPUTS: Record<string, string> = {
  dense: `${lines(1, 4000, 1, 97)}\n`,
  half: `${lines(2, 4000, 2, 50)}\n`,
  sparse: lines(3, 4000, 40, 13),
  // Past one 1 MiB read, so runs and the near window cross a block boundary.
  big: `${lines(4, 200_000, 3, 1000)}\n`,
  'no newline, hit last': `${lines(5, 50, 2, 7)}\nlast xyz`,
};

describe('grep literal scan against GNU grep', () => {
  for (const [name, stdin] of Object.entries(INPUTS)) {
    for (const argv of [
      ['grep', 'xyz'],
      ['grep', 'ée'],
      ['grep', '-F', 'e'],
      ['grep', '-c', 'xyz'],
      ['grep', '-n', 'xyz'],
      ['grep', '-m', '7', 'xyz'],
      ['grep', '-b', 'xyz'],
      ['grep', '-bo', 'ée'],
      ['grep', '-b', 'x.z'],
    ]) {
      it(`${name}: ${argv.slice(1).join(' ')}`, async () => {
        const c: OracleCase = { argv, stdin };
        const mine = await runVirtual(grep, c, createMemoryFilesystem());
        const gnu = await runGnu(c);
        expect(mine.status).toBe(gnu.status);
        expect(mine.stdout.length).toBe(gnu.stdout.length);
        expect(mine.stdout === gnu.stdout).toBe(true);
        expect(mine.stderr).toBe(gnu.stderr);
      });
    }
  }
});
