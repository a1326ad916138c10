import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { splitCommand } from '../../../src/commands/text/split.js';
import { createMemoryFilesystem } from '../../../src/vfs/index.js';
import { ORACLE_ENV, runVirtual } from '../support/gnu-oracle.js';

const seq = (n: number): string => Array.from({ length: n }, (_, i) => `${i + 1}\n`).join('');
const inputs: Record<string, string> = {
  in: seq(700),
  small: seq(5),
  long: `${'x'.repeat(50)}\nshort\n${'y'.repeat(30)}\n`,
  nonl: 'a\nb\nc',
};

/** Run split both ways and compare status, output and every file it made. */
async function compare(args: string[], stdin?: string): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'berth-split-'));
  try {
    for (const [name, text] of Object.entries(inputs)) writeFileSync(join(dir, name), text);
    const g = spawnSync('split', args, { cwd: dir, env: { ...ORACLE_ENV }, input: stdin ?? '' });
    const gnuFiles = Object.fromEntries(
      readdirSync(dir)
        .filter((f) => !(f in inputs))
        .sort()
        .map((f) => [f, readFileSync(join(dir, f), 'latin1')]),
    );
    const fs = createMemoryFilesystem();
    const v = await runVirtual(splitCommand.run, { argv: ['split', ...args], stdin, files: inputs }, fs);
    const names = (await fs.readdir('/work'))
      .map((e) => e.name)
      .filter((f) => !(f in inputs))
      .sort();
    const virtualFiles: Record<string, string> = {};
    for (const f of names) virtualFiles[f] = Buffer.from(await fs.readFile(`/work/${f}`)).toString('latin1');
    expect({ status: v.status, stdout: v.stdout, stderr: v.stderr, files: virtualFiles }).toEqual({
      status: g.status,
      stdout: g.stdout.toString('latin1'),
      stderr: g.stderr.toString('latin1'),
      files: gnuFiles,
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('split against the real tool (files compared too)', () => {
  const cases: [string[], string?][] = [
    [['in']],
    [['-l', '1', 'in']],
    [['-l', '300', '-d', 'in', 'p_']],
    [['-b', '1000', '-a', '3', '--additional-suffix=.txt', 'in']],
    [['-b', '1k', 'in']],
    [['-C', '20', 'long']],
    [['-C', '100', 'in']],
    [['-n', '3', 'in']],
    [['-n', 'l/3', 'in']],
    [['-n', 'r/3', 'in']],
    [['-n', '2/3', 'in']],
    [['-n', 'l/2/3', 'in']],
    [['-n', '10', 'small']],
    [['-e', '-n', '10', 'small']],
    [['-n', '2'], seq(5)],
    [['--verbose', '-l', '400', 'in']],
    [['-a', '1', '-l', '1', 'in']],
    [['-x', '-l', '100', 'in']],
    [['--numeric-suffixes=5', '-l', '200', 'in']],
    [['-l', '2', 'nonl']],
    [['-t', ',', '-l', '1'], 'a,b,c'],
    [['-3', 'small']],
    [['-l', '2', '-', 'pre'], 'one\ntwo\nthree\n'],
    [['-l', '0', 'in']],
    [['-b', 'x', 'in']],
    [['-n', '0', 'in']],
    [['in', 'a', 'b']],
    [['missing']],
    [['-k']],
  ];
  for (const [args, stdin] of cases) {
    test(`split ${args.join(' ')}${stdin === undefined ? '' : ' <<< input'}`, () => compare(args, stdin));
  }
});
