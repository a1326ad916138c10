/**
 * The kernel's hooks for a host that runs several kernels (the virtual context): streams in and
 * out instead of captured output, the call's pid, the signal that ended it, a spill directory of
 * its own, and one process table shared by kernels.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { collectingWriter } from '../../src/commands/byte-io.js';
import { createBytePipe } from '../../src/commands/byte-pipe.js';
import { createKernel, ProcessTable } from '../../src/kernel/index.js';
import { createMemoryFilesystem } from '../../src/vfs/index.js';

describe('kernel host hooks', () => {
  it('reads stdin from a stream and writes stdout and stderr to writers, capturing nothing', async () => {
    const kernel = createKernel({ fs: createMemoryFilesystem() });
    const input = createBytePipe();
    const out = collectingWriter();
    const err = collectingWriter();
    const running = kernel.exec('while read -r l; do echo "out $l"; echo "err $l" >&2; done', {
      stdin: input.reader,
      stdout: out,
      stderr: err,
    });
    await input.writer.write(new TextEncoder().encode('a\n'));
    await input.writer.write(new TextEncoder().encode('b\n'));
    await input.writer.close();
    const result = await running;
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stdoutFacts.bytesTotal).toBe(0);
    expect(new TextDecoder().decode(out.bytes())).toBe('out a\nout b\n');
    expect(new TextDecoder().decode(err.bytes())).toBe('err a\nerr b\n');
  });

  it('tells the pid of the call before the script runs, and the signal that ended it', async () => {
    const kernel = createKernel({ fs: createMemoryFilesystem() });
    let pid: number | undefined;
    const result = await kernel.exec('echo $$; kill -9 $$; echo not reached', {
      onStart: (p) => {
        pid = p;
      },
    });
    expect(result.stdout).toBe(`${pid}\n`);
    expect(result.exitCode).toBe(137);
    expect(result.terminatedBy).toBe('SIGKILL');
    expect((await kernel.exec('exit 137')).terminatedBy).toBeNull();
  });

  it('kernels sharing a process table never reuse a pid and see each other', async () => {
    const processes = new ProcessTable();
    const fs = createMemoryFilesystem();
    const a = createKernel({ fs, processes });
    const b = createKernel({ fs, processes });
    let pid = 0;
    const controller = new AbortController();
    const running = a.exec('while :; do read -t 0.05 x; done', {
      signal: controller.signal,
      onStart: (p) => {
        pid = p;
      },
    });
    const probe = await b.exec(`echo $$; kill -0 ${pid} && echo alive`);
    const [own, alive] = probe.stdout.split('\n');
    expect(Number(own)).not.toBe(pid);
    expect(alive).toBe('alive');
    controller.abort();
    expect((await running).aborted).toBe(true);
    expect((await b.exec(`kill -0 ${pid} 2>/dev/null || echo gone`)).stdout).toBe('gone\n');
    expect(() => createKernel({ fs, processes: {} as ProcessTable })).toThrow(/options\.processes/);
  });

  it('spills into the directory it was given', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'berth-kernel-spill-'));
    try {
      const kernel = createKernel({
        fs: createMemoryFilesystem(),
        spillDir: dir,
        output: { maxOutputBytes: 100, maxSpillBytes: 10_000 },
      });
      const result = await kernel.exec('i=0; while [ $i -lt 100 ]; do echo "line $i"; i=$((i+1)); done');
      expect(result.stdoutFacts.spillPath?.startsWith(`${dir}/`)).toBe(true);
      expect(existsSync(result.stdoutFacts.spillPath as string)).toBe(true);
      expect(readdirSync(dir)).toHaveLength(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
