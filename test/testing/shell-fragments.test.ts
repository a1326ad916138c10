// The commands the suite sends into contexts, run through real shells: the host's /bin/sh and
// busybox's ash (what a minimal container has). Both must print exactly what the suite expects.

import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shQuote } from '../../src/subprocess/shell-quote.js';
import {
  allByteValues,
  euroCommand,
  euroText,
  firstDifference,
  numberedBytes,
  numberedBytesCommand,
  primeCycleBytes,
  printfBytesCommand,
} from '../../src/testing/byte-patterns.js';
import {
  aliveCommand,
  gateCommand,
  grandchildCommand,
  orphanCommand,
  termIgnoringCommand,
} from '../../src/testing/process-probe.js';
import { inCI } from '../support/ci.js';

const busybox = spawnSync('busybox', ['true']).status === 0 ? 'busybox' : undefined;
if (inCI() && !busybox) throw new Error('busybox is required in CI (apt-get install busybox-static)');

const shells: [string, string[]][] = [['/bin/sh', ['/bin/sh']]];
if (busybox) shells.push(['busybox sh', [busybox, 'sh']]);

interface Run {
  readonly stdout: Buffer;
  readonly stderr: string;
  readonly status: number | null;
}

function run(shell: string[], command: string, cwd?: string): Run {
  const [program, ...args] = shell;
  const result = spawnSync(program as string, [...args, '-c', command], { cwd, maxBuffer: 64 * 1024 * 1024 });
  return { stdout: result.stdout, stderr: result.stderr.toString(), status: result.status };
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'berth-shell-fragments-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe.each(shells)('suite commands under %s', (_name, shell) => {
  it('printfBytesCommand prints every byte value exactly', () => {
    const bytes = allByteValues();
    const result = run(shell, printfBytesCommand(bytes));
    expect(result.status).toBe(0);
    expect(firstDifference(new Uint8Array(result.stdout), bytes)).toBe(-1);
  });

  it.each([0, 1, 9, 10, 9_999, 10_000, 10_001, 65_536, 200_003])(
    'numberedBytesCommand(%i) prints exactly numberedBytes(n), quietly',
    (length) => {
      const result = run(shell, numberedBytesCommand(length));
      expect(result.status).toBe(0);
      expect(result.stderr).toBe('');
      expect(result.stdout.length).toBe(length);
      expect(firstDifference(new Uint8Array(result.stdout), numberedBytes(length))).toBe(-1);
    },
  );

  it('numberedBytesCommand can target stderr', () => {
    const result = run(shell, numberedBytesCommand(12_345, 'stderr'));
    expect(result.stdout.length).toBe(0);
    expect(result.stderr).toBe(new TextDecoder().decode(numberedBytes(12_345)));
  });

  it.each([
    [0, 5],
    [1, 1000],
    [2, 2501],
  ])('euroCommand(%i, %i) prints euroText exactly', (prefix, count) => {
    const result = run(shell, euroCommand(prefix, count));
    expect(result.status).toBe(0);
    expect(result.stdout.toString('utf8')).toBe(euroText(prefix, count));
  });

  it('shQuote survives quotes, $, backslashes, newlines and multibyte text', () => {
    const awkward = `it's "$HOME" \\ \`x\` \n \u20ac`;
    expect(run(shell, `printf '%s' ${shQuote(awkward)}`).stdout.toString('utf8')).toBe(awkward);
  });

  it('aliveCommand tells a running process from a dead one', async () => {
    const child = spawn('sleep', ['30']);
    try {
      expect(run(shell, aliveCommand(child.pid as number)).stdout.toString()).toBe('alive\n');
    } finally {
      child.kill('SIGKILL');
    }
    await new Promise((resolve) => child.once('exit', resolve));
    expect(run(shell, aliveCommand(child.pid as number)).stdout.toString()).toBe('dead\n');
  });

  it('aliveCommand with a token refuses a live process whose command line lacks it (a reused pid)', () => {
    const child = spawn('sleep', ['30']);
    try {
      expect(run(shell, aliveCommand(child.pid as number, 'berth-token-not-there')).stdout.toString()).toBe(
        'dead\n',
      );
      expect(run(shell, aliveCommand(child.pid as number, 'sleep')).stdout.toString()).toBe('alive\n');
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('aliveCommand counts an unreaped zombie as dead', async () => {
    // The shell backgrounds a short child and then sleeps without waiting for it: a zombie.
    const holder = spawn(shell[0] as string, [...shell.slice(1), '-c', 'sleep 0.1 & echo $!; exec sleep 30']);
    try {
      const pid = await new Promise<number>((resolve) =>
        holder.stdout.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim()))),
      );
      let state = '';
      for (let i = 0; i < 200 && state !== 'Z'; i++) {
        await new Promise((resolve) => setTimeout(resolve, 25));
        state = (await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => ''))
          .replace(/^.*\) /s, '')
          .slice(0, 1);
      }
      expect(state, 'the staged child became a zombie').toBe('Z');
      expect(run(shell, aliveCommand(pid)).stdout.toString()).toBe('dead\n');
    } finally {
      holder.kill('SIGKILL');
    }
  });

  it('the descendant planters write their pid and leave a live process', async () => {
    for (const [label, plant] of [
      ['grandchild', grandchildCommand],
      ['orphan', orphanCommand],
      ['term-ignoring', termIgnoringCommand],
    ] as const) {
      const pidFile = join(dir, `${label}-${shell.length}.pid`);
      // The planted process must not hold this shell's output pipe, or spawnSync would wait for it.
      const result = run(
        shell,
        `{ ${plant(pidFile)}\n} >/dev/null 2>&1\nwhile [ ! -s ${shQuote(pidFile)} ]; do sleep 0.05; done`,
      );
      expect(result.status, label).toBe(0);
      const pid = Number((await readFile(pidFile, 'utf8')).trim());
      try {
        expect(run(shell, aliveCommand(pid, pidFile)).stdout.toString(), label).toBe('alive\n');
        expect(
          run(shell, aliveCommand(pid, `${pidFile}-other`)).stdout.toString(),
          `${label}: another token`,
        ).toBe('dead\n');
        if (label === 'term-ignoring') {
          process.kill(pid, 'SIGTERM');
          await new Promise((resolve) => setTimeout(resolve, 200));
          expect(run(shell, aliveCommand(pid)).stdout.toString(), 'SIGTERM is ignored').toBe('alive\n');
        }
      } finally {
        process.kill(pid, 'SIGKILL');
      }
    }
  });

  it('gateCommand waits for the gate file and then proceeds', async () => {
    const gate = join(dir, `gate-${shell.length}`);
    const [program, ...args] = shell;
    const child = spawn(program as string, [...args, '-c', `${gateCommand(gate)}; echo through`]);
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    // Listen before opening the gate: the shell may see the file and exit before writeFile resolves.
    const exited = new Promise((resolve) => child.once('exit', resolve));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(out, 'passed a closed gate').toBe('');
    await writeFile(gate, '');
    const code = await exited;
    expect(code).toBe(0);
    expect(out).toBe('through\n');
  });
});

describe('byte patterns', () => {
  it('numberedBytes lines say where they sit', () => {
    const text = new TextDecoder().decode(numberedBytes(30_000));
    expect(text.slice(0, 20)).toBe('000000000\n000000001\n');
    expect(text.slice(10_000, 10_010)).toBe('000001000\n');
    expect(text.length).toBe(30_000);
  });

  it('primeCycleBytes repeats with period 251 and firstDifference finds the first mismatch', () => {
    const bytes = primeCycleBytes(600);
    expect(bytes[250]).toBe(250);
    expect(bytes[251]).toBe(0);
    const copy = Uint8Array.from(bytes);
    expect(firstDifference(bytes, copy)).toBe(-1);
    copy[417] = 0;
    expect(firstDifference(bytes, copy)).toBe(417);
    expect(firstDifference(bytes, bytes.subarray(0, 10))).toBe(10);
  });
});
