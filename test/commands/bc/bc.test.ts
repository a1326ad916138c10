/** bc behaviour beyond the differential corpus: bounds, cancellation, files, line length. */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { bcCommand } from '../../../src/commands/bc/bc.js';
import { runStandalone } from '../../../src/commands/standalone.js';
import { createMemoryFilesystem } from '../../../src/vfs/index.js';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const dec = (b: Uint8Array): string => new TextDecoder().decode(b);

async function bc(
  args: string[],
  stdin: string,
  o: { env?: Record<string, string>; signal?: AbortSignal; files?: Record<string, string> } = {},
) {
  const fs = createMemoryFilesystem();
  await fs.mkdir('/w', { recursive: true });
  for (const [name, text] of Object.entries(o.files ?? {})) await fs.writeFile(`/w/${name}`, enc(text));
  const r = await runStandalone(bcCommand.run, {
    argv: ['bc', ...args],
    fs,
    cwd: '/w',
    stdin: enc(stdin),
    env: o.env,
    signal: o.signal,
  });
  return { status: r.status, out: dec(r.stdout), err: dec(r.stderr) };
}

describe('bc', () => {
  it('an endless loop ends at the abort, which only a host timer that keeps firing can give', async () => {
    const ac = new AbortController();
    let ticks = 0;
    const timer = setInterval(() => {
      ticks += 1;
      if (ticks === 5) ac.abort();
    }, 5);
    try {
      const r = await bc([], 'while (1) x += 1\n', { signal: ac.signal });
      expect(r.status).toBe(143);
    } finally {
      clearInterval(timer);
    }
    expect(ticks).toBeGreaterThanOrEqual(5);
  });

  it('answers line by line from an endless pipe', async () => {
    const { createBytePipe } = await import('../../../src/commands/byte-pipe.js');
    const input = createBytePipe();
    let feeding = true;
    const feed = (async () => {
      while (feeding) await input.writer.write(enc('1+1\n'.repeat(100))).catch(() => {});
    })();
    const ac = new AbortController();
    let ticks = 0;
    const timer = setInterval(() => {
      ticks += 1;
      if (ticks === 10) ac.abort();
    }, 5);
    const fs = createMemoryFilesystem();
    try {
      const r = await runStandalone(bcCommand.run, {
        argv: ['bc'],
        fs,
        stdin: input.reader,
        signal: ac.signal,
      });
      expect(r.status).toBe(143);
      expect(dec(r.stdout).startsWith('2\n2\n2\n')).toBe(true);
    } finally {
      clearInterval(timer);
      feeding = false;
      input.reader.close();
      await feed;
    }
  });

  it('refuses numbers beyond its digit limit instead of exhausting memory', async () => {
    const r = await bc([], '2^99999999\n1+1\n');
    expect(r.out).toBe('2\n');
    expect(r.err).toBe(
      'Runtime error (func=(main), adr=0): number longer than 1000000 digits (the limit of this shell)\n',
    );
  });

  it('wraps lines at BC_LINE_LENGTH as GNU bc does', async () => {
    for (const length of ['70', '20', '0', '2']) {
      const program = '2^500\nscale=60; 1/7\n';
      const real = execFileSync('bc', [], { input: program, env: { BC_LINE_LENGTH: length } }).toString();
      const mine = await bc([], program, { env: { BC_LINE_LENGTH: length } });
      expect(mine.out, `BC_LINE_LENGTH=${length}`).toBe(real);
    }
  });

  it('reads files named on the command line before standard input', async () => {
    const r = await bc(['lib.bc'], 'sq(12)\n', { files: { 'lib.bc': 'define sq(x) { return (x * x) }\n' } });
    expect(r.out).toBe('144\n');
  });

  it('reports a syntax error in a file with its name and goes on', async () => {
    const r = await bc(['bad.bc'], '3\n', { files: { 'bad.bc': '1 +\n2\n' } });
    expect(r.err).toBe('bad.bc 2: syntax error\n');
    expect(r.out).toBe('2\n3\n');
  });

  it('recursion is bounded by a depth limit, not the host stack', async () => {
    const r = await bc([], 'define f(n) { return (f(n + 1)) }\nf(0)\n7\n');
    expect(r.out).toBe('7\n');
    expect(r.err).toContain('function calls nested deeper than 10000 (the limit of this shell)');
  });

  it('refuses a program nested beyond the host stack clearly', async () => {
    const r = await bc([], `${'('.repeat(50_000)}1${')'.repeat(50_000)}\n`);
    expect(r.status).toBe(1);
    expect(r.err).toBe('bc: program nested too deeply for this shell\n');
  });

  it('prints its version and help', async () => {
    expect((await bc(['--version'], '')).out.split('\n')[0]).toBe(
      "bc 1.07.1 (the berth virtual shell's implementation)",
    );
    expect((await bc(['-h'], '')).out).toContain('-l  --mathlib      use the predefined math routines');
    const bad = await bc(['--nope'], '');
    expect(bad.status).toBe(1);
    expect(bad.err).toBe("bc: unrecognized option '--nope'\n");
    expect(bad.out.split('\n')[0]).toBe('usage: bc [options] [file ...]');
  });
});
