import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InvalidArgumentError, SpawnError } from '../../../src/contexts/process/index.js';
import type { OutputChunk } from '../../../src/contract/types.js';
import { alive, eventually, makeContext } from './helpers.js';

let scratch: string;
beforeEach(() => {
  scratch = mkdtempSync(join(tmpdir(), 'berth-exec-'));
});
afterEach(() => rmSync(scratch, { recursive: true, force: true }));

describe('exec basics', () => {
  it('separates stdout and stderr, reports the exit code, never throws on non-zero', async () => {
    const ctx = makeContext();
    const h = await ctx.spawn();
    const result = await ctx.exec(h, 'echo out; echo err >&2; exit 7');
    expect(result).toMatchObject({
      exitCode: 7,
      signal: null,
      stdout: 'out\n',
      stderr: 'err\n',
      timedOut: false,
      aborted: false,
    });
    expect(result.stdoutFacts).toEqual({ bytesTotal: 4, truncated: false, omittedBytes: 0, spillPath: null });
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('runs through /bin/sh -c in the handle cwd, or a per-call cwd relative to it', async () => {
    const ctx = makeContext();
    const h = await ctx.spawn({ cwd: scratch });
    expect((await ctx.exec(h, 'pwd')).stdout).toBe(`${scratch}\n`);
    await ctx.exec(h, 'mkdir sub');
    expect((await ctx.exec(h, 'pwd', { cwd: 'sub' })).stdout).toBe(`${join(scratch, 'sub')}\n`);
    expect((await ctx.exec(h, 'echo $0')).stdout).toBe('/bin/sh\n');
  });

  it('sets the non-interactive environment; a caller can override it', async () => {
    const ctx = makeContext();
    const h = await ctx.spawn();
    const { stdout } = await ctx.exec(h, 'echo "$NO_COLOR|$TERM|$PAGER|$GIT_PAGER"');
    expect(stdout).toBe('1|dumb|cat|cat\n');
    const overridden = await ctx.exec(h, 'echo "$TERM"', { env: { TERM: 'vt100' } });
    expect(overridden.stdout).toBe('vt100\n');
  });

  it('feeds stdin and closes it', async () => {
    const ctx = makeContext();
    const h = await ctx.spawn();
    expect((await ctx.exec(h, 'cat', { stdin: 'piped\n' })).stdout).toBe('piped\n');
    expect((await ctx.exec(h, 'wc -c', { stdin: new Uint8Array([1, 2, 3]) })).stdout.trim()).toBe('3');
    // Without stdin the command reads /dev/null and does not hang.
    expect((await ctx.exec(h, 'cat')).stdout).toBe('');
  });

  it('a command that ignores a large stdin neither hangs nor crashes the host (EPIPE)', async () => {
    const ctx = makeContext();
    const h = await ctx.spawn();
    const result = await ctx.exec(h, 'exit 0', { stdin: 'x'.repeat(4 * 1024 * 1024) });
    expect(result.exitCode).toBe(0);
  });

  it('a signalled command reports exitCode null and the signal', async () => {
    const ctx = makeContext();
    const h = await ctx.spawn();
    const result = await ctx.exec(h, 'kill -KILL $$');
    expect(result.exitCode).toBeNull();
    expect(result.signal).toBe('SIGKILL');
  });

  it('binary output survives: stdout carries the bytes, decoded with U+FFFD for invalid UTF-8', async () => {
    const ctx = makeContext();
    const h = await ctx.spawn();
    const result = await ctx.exec(h, "printf 'a\\377\\000b'");
    expect(result.stdout).toBe('a\uFFFD\u0000b');
    expect(result.stdoutFacts.bytesTotal).toBe(4);
  });

  it('onOutput hears decoded text as it arrives, code points whole, before the result', async () => {
    const ctx = makeContext();
    const h = await ctx.spawn();
    const heard: OutputChunk[] = [];
    // The euro sign's three bytes are written in separate writes with pauses between them.
    const result = await ctx.exec(
      h,
      "printf '\\342'; sleep 0.05; printf '\\202'; sleep 0.05; printf '\\254\\n'; echo e >&2",
      {
        onOutput: (chunk) => heard.push(chunk),
      },
    );
    expect(result.stdout).toBe('€\n');
    const stdoutText = heard.filter((chunk) => chunk.stream === 'stdout').map((chunk) => chunk.text);
    expect(stdoutText.join('')).toBe('€\n');
    expect(stdoutText.every((text) => !text.includes('\uFFFD'))).toBe(true);
    expect(heard.some((chunk) => chunk.stream === 'stderr' && chunk.text === 'e\n')).toBe(true);
  });

  it('64 commands in parallel each get their own output', async () => {
    const ctx = makeContext();
    const h = await ctx.spawn();
    const results = await Promise.all(Array.from({ length: 64 }, (_, i) => ctx.exec(h, `echo ${i}`)));
    expect(results.map((result) => result.stdout)).toEqual(Array.from({ length: 64 }, (_, i) => `${i}\n`));
  });
});

describe('output policy', () => {
  it('keeps head + marker + tail in memory and spills the whole stream', async () => {
    const ctx = makeContext({ output: { maxOutputBytes: 1000, maxSpillBytes: 10_000_000 } });
    const h = await ctx.spawn();
    const result = await ctx.exec(h, 'seq 1 100000');
    const facts = result.stdoutFacts;
    expect(facts.truncated).toBe(true);
    expect(facts.bytesTotal).toBe(588_895);
    expect(result.stdout.startsWith('1\n2\n3\n')).toBe(true);
    expect(result.stdout.endsWith('99999\n100000\n')).toBe(true);
    expect(result.stdout).toMatch(
      /\[berth: \d+ bytes of stdout omitted here \(maxOutputBytes=1000\); the whole stdout \(588895 bytes\) is in /,
    );
    expect(Buffer.byteLength(result.stdout)).toBeLessThan(1300);
    expect(readFileSync(facts.spillPath!, 'utf8').split('\n')).toHaveLength(100_001);
  });

  it('a flood beyond maxSpillBytes keeps bounded memory and says the spill was dropped', async () => {
    const ctx = makeContext({ output: { maxOutputBytes: 4096, maxSpillBytes: 1024 * 1024 } });
    const h = await ctx.spawn();
    const result = await ctx.exec(h, 'head -c 50000000 /dev/zero | tr "\\0" x');
    expect(result.exitCode).toBe(0);
    expect(result.stdoutFacts).toMatchObject({ bytesTotal: 50_000_000, truncated: true, spillPath: null });
    expect(result.stdout).toContain('exceed maxSpillBytes=1048576');
    expect(result.stdout.length).toBeLessThan(4096 + 300);
  });

  it('floods on stdout and stderr at once neither deadlock nor mix', async () => {
    const ctx = makeContext({ output: { maxOutputBytes: 2048, maxSpillBytes: 0 } });
    const h = await ctx.spawn();
    const result = await ctx.exec(
      h,
      'head -c 5000000 /dev/zero | tr "\\0" o & head -c 3000000 /dev/zero | tr "\\0" e >&2; wait',
    );
    expect(result.exitCode).toBe(0);
    expect(result.stdoutFacts.bytesTotal).toBe(5_000_000);
    expect(result.stderrFacts.bytesTotal).toBe(3_000_000);
    expect(result.stdout.replace(/\n\[berth:[^\n]*\]\n/, '')).toMatch(/^o+$/);
    expect(result.stderr.replace(/\n\[berth:[^\n]*\]\n/, '')).toMatch(/^e+$/);
  });

  it('never splits a multibyte character at the head or tail cut', async () => {
    const ctx = makeContext({ output: { maxOutputBytes: 101, maxSpillBytes: 0 } });
    const h = await ctx.spawn();
    // 300 three-byte characters; the 50-byte head cut and 51-byte tail cut both land mid-character.
    const result = await ctx.exec(h, `i=0; while [ $i -lt 300 ]; do printf '€'; i=$((i+1)); done`);
    expect(result.stdout).not.toContain('\uFFFD');
    const [head, marker, tail] = result.stdout.split('\n');
    expect(head).toBe('€'.repeat(16));
    expect(tail).toBe('€'.repeat(17));
    expect(marker).toContain('spilling is off');
    expect(result.stdoutFacts.omittedBytes).toBe(900 - 16 * 3 - 17 * 3);
  });

  it('removes the spill files of a destroyed handle', async () => {
    const ctx = makeContext({ output: { maxOutputBytes: 10, maxSpillBytes: 1_000_000 } });
    const h = await ctx.spawn();
    const result = await ctx.exec(h, 'seq 1 1000');
    expect(existsSync(result.stdoutFacts.spillPath!)).toBe(true);
    await ctx.destroy(h);
    expect(existsSync(result.stdoutFacts.spillPath!)).toBe(false);
  });
});

describe('timeout and abort', () => {
  it('a timeout kills the whole tree (grandchild too) and keeps partial output', async () => {
    const ctx = makeContext({ killGraceMs: 500 });
    const h = await ctx.spawn({ cwd: scratch });
    const result = await ctx.exec(
      h,
      'sleep 60 & echo $! > grandchild.pid; echo started; echo warn >&2; wait',
      {
        timeoutMs: 300,
      },
    );
    expect(result).toMatchObject({ timedOut: true, aborted: false, stdout: 'started\n', stderr: 'warn\n' });
    expect(result.exitCode).toBeNull();
    expect(result.signal).toBe('SIGTERM');
    const grandchild = Number(readFileSync(join(scratch, 'grandchild.pid'), 'utf8'));
    expect(alive(grandchild)).toBe(false);
  });

  it('a timeout also ends a descendant that escaped into its own session (setsid)', async () => {
    const ctx = makeContext({ killGraceMs: 300 });
    const h = await ctx.spawn({ cwd: scratch });
    const result = await ctx.exec(h, "setsid sh -c 'echo $$ > escapee.pid; exec sleep 60' & sleep 60", {
      timeoutMs: 300,
    });
    expect(result.timedOut).toBe(true);
    const escapee = Number(readFileSync(join(scratch, 'escapee.pid'), 'utf8'));
    expect(escapee).toBeGreaterThan(0);
    expect(alive(escapee)).toBe(false);
  });

  it('a finished exec also ends a setsid descendant that holds no pipe (seen while the exec ran)', async () => {
    const ctx = makeContext({ killGraceMs: 300 });
    const h = await ctx.spawn({ cwd: scratch });
    // The escapee leaves the group and session and closes every pipe; the exec outlives the
    // runtime's once-a-second look at its tree, then ends normally.
    const result = await ctx.exec(
      h,
      "setsid sh -c 'echo $$ > quiet-escapee.pid; exec sleep 60' </dev/null >/dev/null 2>&1 & sleep 1.5",
    );
    expect(result.exitCode).toBe(0);
    const escapee = Number(readFileSync(join(scratch, 'quiet-escapee.pid'), 'utf8'));
    expect(escapee).toBeGreaterThan(0);
    expect(await eventually(() => !alive(escapee), 3000)).toBe(true);
  });

  it('a command that traps TERM is KILLed after killGraceMs', async () => {
    const ctx = makeContext({ killGraceMs: 300 });
    const h = await ctx.spawn({ cwd: scratch });
    const started = Date.now();
    const result = await ctx.exec(
      h,
      "trap '' TERM; echo $$ > root.pid; echo trapped; while :; do sleep 0.05; done",
      {
        timeoutMs: 200,
      },
    );
    expect(result.timedOut).toBe(true);
    expect(result.signal).toBe('SIGKILL');
    expect(result.stdout).toBe('trapped\n');
    expect(Date.now() - started).toBeGreaterThanOrEqual(450);
    expect(alive(Number(readFileSync(join(scratch, 'root.pid'), 'utf8')))).toBe(false);
  });

  it('a grandchild holding stdout open cannot hold exec past the grace, and is ended', async () => {
    const ctx = makeContext({ killGraceMs: 300 });
    const h = await ctx.spawn({ cwd: scratch });
    const result = await ctx.exec(h, '(sleep 60; echo late) & echo $! > holder.pid; echo done');
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('done\n');
    const holder = Number(readFileSync(join(scratch, 'holder.pid'), 'utf8'));
    expect(await eventually(() => !alive(holder))).toBe(true);
  });

  it('abort kills the tree, keeps partial output, and marks aborted', async () => {
    const ctx = makeContext({ killGraceMs: 500 });
    const h = await ctx.spawn({ cwd: scratch });
    const controller = new AbortController();
    const running = ctx.exec(h, 'echo $$ > root.pid; echo before; sleep 60', {
      signal: controller.signal,
      onOutput: () => controller.abort(),
    });
    const result = await running;
    expect(result).toMatchObject({ aborted: true, timedOut: false, stdout: 'before\n' });
    expect(alive(Number(readFileSync(join(scratch, 'root.pid'), 'utf8')))).toBe(false);
  });

  it('an already-aborted signal runs nothing', async () => {
    const ctx = makeContext();
    const h = await ctx.spawn({ cwd: scratch });
    const result = await ctx.exec(h, 'touch ran', { signal: AbortSignal.abort() });
    expect(result).toMatchObject({ aborted: true, exitCode: null, stdout: '' });
    expect(existsSync(join(scratch, 'ran'))).toBe(false);
  });
});

describe('bad input', () => {
  it('rejects wrong types with InvalidArgumentError naming the field', async () => {
    const ctx = makeContext();
    const h = await ctx.spawn();
    const cases: [Promise<unknown>, string][] = [
      [ctx.exec(h, 42 as unknown as string), 'command'],
      [ctx.exec(h, '   '), 'command'],
      [ctx.exec(h, 'true', 'fast' as never), 'options'],
      [ctx.exec(h, 'true', { timeoutMs: -5 }), 'options.timeoutMs'],
      [ctx.exec(h, 'true', { timeoutMs: 1.5 }), 'options.timeoutMs'],
      [ctx.exec(h, 'true', { timeoutMs: '30' as unknown as number }), 'options.timeoutMs'],
      [ctx.exec(h, 'true', { env: { A: 1 as unknown as string } }), 'options.env.A'],
      [ctx.exec(h, 'true', { signal: {} as AbortSignal }), 'options.signal'],
      [ctx.exec(h, 'true', { onOutput: 'x' as never }), 'options.onOutput'],
      [ctx.exec(h, 'true', { stdin: 5 as never }), 'options.stdin'],
      [ctx.exec(h, 'true', { cwd: 7 as never }), 'options.cwd'],
    ];
    for (const [call, field] of cases) {
      const error = await call.catch((e: unknown) => e);
      expect(error, field).toBeInstanceOf(InvalidArgumentError);
      expect((error as InvalidArgumentError).field).toBe(field);
    }
  });

  it('a missing cwd is a SpawnError (bad-cwd), not a result', async () => {
    const ctx = makeContext();
    const h = await ctx.spawn();
    const error = await ctx.exec(h, 'true', { cwd: join(scratch, 'missing') }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SpawnError);
    expect((error as SpawnError).reason).toBe('bad-cwd');
  });
});
