import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  type DiffEquivalence,
  diffLines,
  splitDiffLines,
} from '../../../src/commands/compare/diff-engine.js';
import { type DiffFormatOptions, formatDiff } from '../../../src/commands/compare/diff-format.js';

const dir = mkdtempSync(join(tmpdir(), 'berth-diff-engine-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A small deterministic generator (mulberry32). */
function random(seed: number): () => number {
  let t = seed >>> 0;
  return () => {
    t = (t + 0x6d2b79f5) >>> 0;
    let r = Math.imul(t ^ (t >>> 15), 1 | t);
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = ['a', 'b', 'c', 'd', 'e', '', 'x y', 'x  y', ' x y ', 'A', 'f(){', '}'];

function randomFile(next: () => number, base?: string[]): string[] {
  if (base !== undefined) {
    // An edited copy: deletions, insertions and replacements.
    const out: string[] = [];
    for (const l of base) {
      const r = next();
      if (r < 0.12) continue;
      if (r < 0.22) out.push(WORDS[Math.floor(next() * WORDS.length)] as string);
      out.push(l);
      if (r > 0.9) out.push(WORDS[Math.floor(next() * WORDS.length)] as string);
    }
    return out;
  }
  const n = Math.floor(next() * 40);
  return Array.from({ length: n }, () => WORDS[Math.floor(next() * 6)] as string);
}

function ours(a: Buffer, b: Buffer, format: DiffFormatOptions, eq: DiffEquivalence): string {
  const la = splitDiffLines(a);
  const lb = splitDiffLines(b);
  const script = diffLines(la, lb, { ...eq, horizonLines: format.format === 'normal' ? 0 : format.context });
  const pieces: Buffer[] = [];
  if (format.format !== 'normal' && script.length > 0) {
    pieces.push(Buffer.from(format.format === 'unified' ? '--- a\n+++ b\n' : '*** a\n--- b\n'));
  }
  formatDiff(la, lb, script, format, (p) => pieces.push(Buffer.from(p)));
  return Buffer.concat(pieces).toString('latin1');
}

function gnu(args: string[]): string {
  const r = spawnSync('diff', [...args, '--label', 'a', '--label', 'b', join(dir, 'a'), join(dir, 'b')], {
    env: { LC_ALL: 'C.UTF-8', PATH: '/usr/bin:/bin' },
  });
  return r.stdout.toString('latin1');
}

const CASES: { args: string[]; format: DiffFormatOptions; eq: DiffEquivalence }[] = [
  { args: [], format: { format: 'normal', context: 0 }, eq: {} },
  { args: ['-u'], format: { format: 'unified', context: 3 }, eq: {} },
  { args: ['-U1'], format: { format: 'unified', context: 1 }, eq: {} },
  { args: ['-U0'], format: { format: 'unified', context: 0 }, eq: {} },
  { args: ['-c'], format: { format: 'context', context: 3 }, eq: {} },
  { args: ['-u', '-w'], format: { format: 'unified', context: 3 }, eq: { ignoreAllSpace: true } },
  { args: ['-b'], format: { format: 'normal', context: 0 }, eq: { ignoreSpaceChange: true } },
  { args: ['-i', '-u'], format: { format: 'unified', context: 3 }, eq: { ignoreCase: true } },
  {
    args: ['-B', '-u'],
    format: { format: 'unified', context: 3, ignorable: (l) => l.bytes.length === 0 },
    eq: {},
  },
  { args: ['-B'], format: { format: 'normal', context: 0, ignorable: (l) => l.bytes.length === 0 }, eq: {} },
  { args: ['-d', '-u'], format: { format: 'unified', context: 3 }, eq: { minimal: true } },
  { args: ['-T'], format: { format: 'normal', context: 0, initialTab: true }, eq: {} },
  { args: ['-T', '-u'], format: { format: 'unified', context: 3, initialTab: true }, eq: {} },
];

describe('the diff engine against GNU diff', () => {
  it('random edits, every format (120 pairs)', () => {
    const next = random(20261201);
    for (let n = 0; n < Number(process.env.DIFF_PAIRS ?? 120); n += 1) {
      const base = randomFile(next);
      const other = next() < 0.2 ? randomFile(next) : randomFile(next, base);
      const endA = base.length > 0 && next() < 0.2 ? '' : '\n';
      const endB = other.length > 0 && next() < 0.2 ? '' : '\n';
      const a = Buffer.from(base.length === 0 ? '' : base.join('\n') + endA);
      const b = Buffer.from(other.length === 0 ? '' : other.join('\n') + endB);
      writeFileSync(join(dir, 'a'), a);
      writeFileSync(join(dir, 'b'), b);
      const c = CASES[n % CASES.length] as (typeof CASES)[number];
      expect({ n, args: c.args, out: ours(a, b, c.format, c.eq) }).toEqual({
        n,
        args: c.args,
        out: gnu(c.args),
      });
    }
  });

  it('a long file with scattered edits (discarding and sliding at scale)', () => {
    const next = random(7);
    const base = Array.from({ length: 3000 }, (_, i) =>
      i % 7 === 0 ? '' : `line ${Math.floor(next() * 300)}`,
    );
    const other = randomFile(next, base);
    const a = Buffer.from(`${base.join('\n')}\n`);
    const b = Buffer.from(`${other.join('\n')}\n`);
    writeFileSync(join(dir, 'a'), a);
    writeFileSync(join(dir, 'b'), b);
    expect(ours(a, b, { format: 'unified', context: 3 }, {})).toEqual(gnu(['-u']));
    expect(ours(a, b, { format: 'normal', context: 0 }, {})).toEqual(gnu([]));
  });
});
