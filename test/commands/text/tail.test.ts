import { describe, expect, test } from 'vitest';
import { tailCommand } from '../../../src/commands/text/tail.js';
import { oracleTable } from './support/oracle-table.js';
import { binary, invalidUtf8, runText } from './support/run-text.js';

const lines = (n: number): string => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n');
const files = { a: `${lines(15)}\n`, b: lines(3), e: '', blank: 'a\n\n\n', z: 'a\0b\0c\0d' };

oracleTable(tailCommand, [
  { argv: ['tail'], stdin: `${lines(20)}\n` },
  { argv: ['tail'], stdin: '' },
  { argv: ['tail', 'a'], files },
  { argv: ['tail', 'b'], files },
  { argv: ['tail', 'e'], files },
  { argv: ['tail', '-n', '2', 'blank'], files },
  { argv: ['tail', '-n', '2'], stdin: 'a\n\n\n' },
  { argv: ['tail', '-n', '3'], stdin: lines(5) },
  { argv: ['tail', '-n', '0', 'a'], files },
  { argv: ['tail', '-n', '0'], stdin: 'x\n' },
  { argv: ['tail', '-n', '100', 'a'], files },
  { argv: ['tail', '-n', '100'], stdin: lines(50) },
  { argv: ['tail', '-n', '+3', 'a'], files },
  { argv: ['tail', '-n', '+0', 'b'], files },
  { argv: ['tail', '-n', '+1'], stdin: lines(3) },
  { argv: ['tail', '-n', '+100'], stdin: lines(3) },
  { argv: ['tail', '-n', '-2', 'a'], files },
  { argv: ['tail', '--lines=4', 'b'], files },
  { argv: ['tail', '-c', '5', 'a'], files },
  { argv: ['tail', '-c', '5'], stdin: lines(40) },
  { argv: ['tail', '-c', '500', 'a'], files },
  { argv: ['tail', '-c', '+5', 'b'], files },
  { argv: ['tail', '-c', '+5'], stdin: lines(3) },
  { argv: ['tail', '-c', '1k'], stdin: lines(400) },
  { argv: ['tail', '--bytes=2b', 'a'], files },
  { argv: ['tail', '-3', 'a'], files },
  { argv: ['tail', '+13', 'a'], files },
  { argv: ['tail', '-2c', 'a'], files },
  { argv: ['tail', '-l', 'a'], files },
  { argv: ['tail', '+2l'], stdin: lines(4) },
  { argv: ['tail', '-3', 'a', 'b'], files },
  { argv: ['tail', '-n', '2', '-5', 'a'], files },
  { argv: ['tail', '-n', '2', 'a', 'b'], files },
  { argv: ['tail', '-q', '-n', '2', 'a', 'b'], files },
  { argv: ['tail', '-v', '-n', '1', 'b'], files },
  { argv: ['tail', '-n', '1', 'a', '-', 'b'], stdin: 'in1\nin2\n', files },
  { argv: ['tail', '-z', '-n', '2', 'z'], files },
  { argv: ['tail', '-z', '-n', '2'], stdin: 'a\0b\0c\0d' },
  { argv: ['tail', '-n', '2'], stdin: binary() },
  { argv: ['tail', '-n', '2'], stdin: invalidUtf8() },
  { argv: ['tail', '-c', '4'], stdin: invalidUtf8() },
  { argv: ['tail', '-n', '1'], stdin: `first\n${'y'.repeat(300_000)}` },
  { argv: ['tail', '-n', '1', 'big'], files: { big: `first\n${'y'.repeat(300_000)}\n` } },
  { argv: ['tail', '-n', '2', 'many'], files: { many: `${lines(100_000)}\n` } },
  { argv: ['tail', '-n', '2'], stdin: `${lines(100_000)}\n` },
  { argv: ['tail', 'missing'] },
  { argv: ['tail', 'a', 'missing'], files },
  { argv: ['tail', 'sub'], files: { 'sub/x': 'x' } },
  { argv: ['tail', '-n', 'x'] },
  { argv: ['tail', '-c', '2y'] },
  { argv: ['tail', '-n', '99999999999999999999999'] },
  { argv: ['tail', '-s', 'x', 'a'], files },
  { argv: ['tail', '--follow=bad', 'a'], files },
  { argv: ['tail', '--retry', '-n', '1', 'b'], files },
  { argv: ['tail', '-f', 'missing'] },
  { argv: ['tail', '-k'] },
  { argv: ['tail', '--help'] },
]);

describe('tail -f over the virtual filesystem', () => {
  test('prints what is appended until cancelled', async () => {
    const controller = new AbortController();
    const { createMemoryFilesystem } = await import('../../../src/vfs/index.js');
    const fs = createMemoryFilesystem();
    const running = runText(tailCommand, ['tail', '-f', '-s', '0.02', '-n', '1', 'log'], {
      fs,
      files: { log: 'old\nlast\n' },
      signal: controller.signal,
    });
    await new Promise((r) => setTimeout(r, 60));
    await fs.writeFile('/work/log', new TextEncoder().encode('more\n'), { mode: 'append' });
    await new Promise((r) => setTimeout(r, 100));
    controller.abort();
    const r = await running;
    expect(r.stdout).toBe('last\nmore\n');
  });

  test('reports a truncated file and prints it from the start', async () => {
    const controller = new AbortController();
    const { createMemoryFilesystem } = await import('../../../src/vfs/index.js');
    const fs = createMemoryFilesystem();
    const running = runText(tailCommand, ['tail', '-f', '-s', '0.02', 'log'], {
      fs,
      files: { log: 'a long first line\n' },
      signal: controller.signal,
    });
    await new Promise((r) => setTimeout(r, 60));
    await fs.writeFile('/work/log', new TextEncoder().encode('new\n'));
    await new Promise((r) => setTimeout(r, 100));
    controller.abort();
    const r = await running;
    expect(r.stdout).toBe('a long first line\nnew\n');
    expect(r.stderr).toBe('tail: log: file truncated\n');
  });

  test('-F waits for a missing file and follows it when it appears', async () => {
    const controller = new AbortController();
    const { createMemoryFilesystem } = await import('../../../src/vfs/index.js');
    const fs = createMemoryFilesystem();
    const running = runText(tailCommand, ['tail', '-F', '-s', '0.02', 'later'], {
      fs,
      signal: controller.signal,
    });
    await new Promise((r) => setTimeout(r, 60));
    await fs.writeFile('/work/later', new TextEncoder().encode('hello\n'));
    await new Promise((r) => setTimeout(r, 100));
    controller.abort();
    const r = await running;
    expect(r.stdout).toBe('hello\n');
    expect(r.stderr).toBe(
      "tail: cannot open 'later' for reading: No such file or directory\ntail: 'later' has appeared;  following new file\n",
    );
  });

  test('-f on standard input ends at its end, as GNU does for a pipe', async () => {
    const r = await runText(tailCommand, ['tail', '-f', '-n', '1'], { stdin: 'a\npiped\n' });
    expect(r).toMatchObject({ status: 0, stdout: 'piped\n', stderr: '' });
  });

  test('--pid is refused with what to do instead', async () => {
    const r = await runText(tailCommand, ['tail', '-f', '--pid=1', 'x'], { files: { x: '' } });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('--pid is not supported');
  });

  test('a file is read from its end: only the last lines are read', async () => {
    const { createMemoryFilesystem } = await import('../../../src/vfs/index.js');
    const fs = createMemoryFilesystem();
    let bytesRead = 0;
    const counting = new Proxy(fs, {
      get(target, prop, receiver) {
        if (prop !== 'open') return Reflect.get(target, prop, receiver);
        return async (path: string, options: object) => {
          const h = await target.open(path, options);
          return new Proxy(h, {
            get(ht, hp, hr) {
              if (hp !== 'read') return Reflect.get(ht, hp, hr);
              return async (length: number, position?: number) => {
                const b = await ht.read(length, position);
                bytesRead += b.length;
                return b;
              };
            },
          });
        };
      },
    });
    const r = await runText(tailCommand, ['tail', '-n', '2', 'big'], {
      fs: counting,
      files: { big: `${lines(1_000_000)}\n` },
    });
    expect(r.stdout).toBe('line 999999\nline 1000000\n');
    expect(bytesRead).toBeLessThan(200_000);
  });
});
