import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { NotFoundError } from '../../../src/contexts/docker/index.js';
import { logCapMarker, logDroppedNote } from '../../../src/contract/log-markers.js';
import type { ContextHandle } from '../../../src/contract/types.js';
import { describeDocker, testContext } from './docker-engine.js';

describeDocker('docker context behaviour', () => {
  const context = testContext({ maxReadBytes: 4096 });
  let handle: ContextHandle;
  beforeAll(async () => {
    handle = await context.spawn({ env: { FROM_HANDLE: 'handle', TERM: 'from-handle' } });
  });
  afterAll(() => context.close());

  it('layers the environment: berth defaults, then the handle env, then per-call overrides and removals', async () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell parameter expansions, not a template
    const show = 'echo "${TERM-unset} ${NO_COLOR-unset} ${FROM_HANDLE-unset} ${EXTRA-unset}"';
    // The handle's env wins over berth's defaults, the call's over both.
    expect((await context.exec(handle, show)).stdout).toBe('from-handle 1 handle unset\n');
    const changed = await context.exec(handle, show, {
      env: { TERM: 'vt100', FROM_HANDLE: undefined, EXTRA: 'x y' },
    });
    expect(changed.stdout).toBe('vt100 1 unset x y\n');
    await expect(context.exec(handle, show, { env: { 'NOT-A-NAME': undefined } })).rejects.toMatchObject({
      code: 'E_INVALID_ARGUMENT',
    });
  });

  it('reads a 128+n exit status as signal n, the way a shell reports it', async () => {
    expect(await context.exec(handle, 'exit 137')).toMatchObject({ exitCode: null, signal: 'SIGKILL' });
    expect(await context.exec(handle, 'kill -TERM $$')).toMatchObject({ exitCode: null, signal: 'SIGTERM' });
    expect(await context.exec(handle, 'exit 127')).toMatchObject({ exitCode: 127, signal: null });
    expect(await context.exec(handle, 'exit 255')).toMatchObject({ exitCode: 255, signal: null });
  });

  it('reports a missing working directory as NotFoundError naming it', async () => {
    const error = await context
      .exec(handle, 'true', { cwd: '/no/such/dir' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).path).toBe('/no/such/dir');
  });

  it('moves bytes through the archive API: long names, symlinks in both directions, size limits', async () => {
    const long = `/tmp/${'long-directory-name/'.repeat(8)}file.bin`;
    const bytes = new Uint8Array(3000).map((_, index) => (index * 31) % 256);
    await context.writeFile(handle, long, bytes);
    expect(await context.readFileBytes!(handle, long)).toEqual(bytes);
    expect(await context.fileSize!(handle, long)).toBe(3000);
    // Reads and writes go through symlinks like a shell's redirections do.
    await context.exec(
      handle,
      'mkdir -p /tmp/links && echo target > /tmp/links/real && ln -sf real /tmp/links/link',
    );
    expect(await context.readFile(handle, '/tmp/links/link')).toBe('target\n');
    await context.writeFile(handle, '/tmp/links/link', 'through');
    expect(
      (await context.exec(handle, 'cat /tmp/links/real; [ -L /tmp/links/link ] && echo " still a link"'))
        .stdout,
    ).toBe('through still a link\n');
    expect(await context.fileSize!(handle, '/tmp/links/link')).toBe(7);
    expect(await context.fileSize!(handle, '/tmp/links')).toBeNull();
    expect(await context.fileSize!(handle, '/tmp/links/none')).toBeNull();
    // An existing file keeps its mode when rewritten.
    await context.exec(handle, 'chmod 0750 /tmp/links/real');
    await context.writeFile(handle, '/tmp/links/real', 'again');
    expect((await context.exec(handle, 'stat -c %a /tmp/links/real')).stdout).toBe('750\n');
    await expect(context.readFile(handle, long.replace('file.bin', ''))).rejects.toMatchObject({
      code: 'E_IS_DIRECTORY',
    });
    await expect(context.readFile(handle, long)).resolves.toBeDefined();
    await context.exec(handle, 'head -c 5000 /dev/zero > /tmp/big');
    const tooLarge = await context.readFile(handle, '/tmp/big').catch((caught: unknown) => caught);
    expect(tooLarge).toMatchObject({ code: 'E_FILE_TOO_LARGE' });
    expect((tooLarge as Error).message).toMatch(/5000 bytes, more than the 4096-byte read limit/);
  });

  it('lists entries whose names hold spaces and newlines, and matches globs like the host does', async () => {
    await context.exec(
      handle,
      [
        'mkdir -p /tmp/g/sub/deeper /tmp/g/.hidden /tmp/g/linked-target',
        'touch "/tmp/g/a b.txt" "/tmp/g/line',
        'break.txt" /tmp/g/.dot.txt /tmp/g/sub/c.txt /tmp/g/sub/deeper/d.txt /tmp/g/.hidden/e.txt /tmp/g/linked-target/f.txt',
        'ln -s linked-target /tmp/g/link-dir',
      ].join('\n'),
    );
    const names = (await context.listFiles(handle, '/tmp/g')).map((entry) => `${entry.name}:${entry.type}`);
    expect(names).toEqual([
      '.dot.txt:file',
      '.hidden:directory',
      'a b.txt:file',
      'line\nbreak.txt:file',
      'link-dir:symlink',
      'linked-target:directory',
      'sub:directory',
    ]);
    const glob = async (pattern: string) =>
      (await context.listFiles(handle, pattern)).map((entry) => entry.path);
    expect(await glob('/tmp/g/*.txt')).toEqual(['/tmp/g/a b.txt', '/tmp/g/line\nbreak.txt']);
    expect(await glob('/tmp/g/.*.txt')).toEqual(['/tmp/g/.dot.txt']);
    // ** never enters dot directories and never follows a symlinked directory.
    expect(await glob('/tmp/g/**/*.txt')).toEqual([
      '/tmp/g/a b.txt',
      '/tmp/g/line\nbreak.txt',
      '/tmp/g/linked-target/f.txt',
      '/tmp/g/sub/c.txt',
      '/tmp/g/sub/deeper/d.txt',
    ]);
    expect(await glob('/tmp/g/sub/{c,d}.txt')).toEqual(['/tmp/g/sub/c.txt']);
    expect(await glob('/tmp/none/*.txt')).toEqual([]);
    await expect(context.listFiles(handle, '/tmp/g/a b.txt')).rejects.toMatchObject({
      code: 'E_NOT_DIRECTORY',
    });
    await expect(context.listFiles(handle, '/tmp/nothing-here')).rejects.toMatchObject({
      code: 'E_NOT_FOUND',
    });
  });

  it('keeps a background log inside the container, capped, readable while the task runs', async () => {
    const task = await context.execBackground!(
      handle,
      'echo first; echo err >&2; while [ ! -e /tmp/bg-gate ]; do sleep 0.05; done; head -c 3000 /dev/zero | tr "\\0" x',
      { maxLogBytes: 1000 },
    );
    let log = '';
    for (let attempt = 0; attempt < 100 && !log.includes('err'); attempt++) {
      log = await context.readFile(handle, task.outputPath);
      if (!log.includes('err')) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(log).toBe('first\nerr\n');
    expect((await context.listBackground!(handle))[0]).toMatchObject({
      id: task.id,
      status: 'running',
      logBytes: 10,
    });
    await context.writeFile(handle, '/tmp/bg-gate', '');
    const exit = await context.waitBackground!(handle, task.id, { timeoutMs: 10_000 });
    expect(exit).toMatchObject({ exitCode: 0, logTruncated: true, killed: false });
    const final = await context.readFile(handle, task.outputPath);
    // The first 1000 bytes of output, then the same marker and closing note as on every backend.
    expect(final.startsWith('first\nerr\nxxx')).toBe(true);
    expect(final).toBe(`${final.slice(0, 1000)}${logCapMarker(1000)}${logDroppedNote(2010)}`);
    expect(final.slice(0, 1000)).toMatch(/^first\nerr\nx{990}$/);
  });

  it('streams stdin with a half-close: the child sees EOF while its output still flows back', async () => {
    const stream = await context.execStream!(handle, 'wc -c; echo done >&2', { env: { TERM: undefined } });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    stream.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    stream.stderr?.on('data', (chunk: Buffer) => err.push(chunk));
    stream.stdin.write(Buffer.alloc(100_000, 0x41));
    stream.stdin.end();
    expect(await stream.exited).toBe(0);
    expect(Buffer.concat(out).toString().trim()).toBe('100000');
    expect(Buffer.concat(err).toString()).toBe('done\n');
  });

  it('opens a TTY terminal whose size follows resize', async () => {
    const terminal = await context.openTerminal!(handle, { cols: 91, rows: 27, shell: ['/bin/sh'] });
    let screen = '';
    terminal.onData((chunk) => {
      screen += Buffer.from(chunk).toString();
    });
    const waitFor = async (text: string) => {
      for (let attempt = 0; attempt < 100 && !screen.includes(text); attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(screen).toContain(text);
    };
    expect(terminal.pid).toBeGreaterThan(0);
    terminal.write('stty size\n');
    await waitFor('27 91');
    terminal.resize(120, 40);
    await new Promise((resolve) => setTimeout(resolve, 200));
    terminal.write('stty size; [ -t 0 ] && echo is-a-tty\n');
    await waitFor('40 120');
    await waitFor('is-a-tty');
    terminal.write('exit 3\n');
    expect(await terminal.exited).toBe(3);
    expect(() => terminal.resize(0, 10)).toThrow(/cols/);
  });

  it('reaches a server on the host through the bridge gateway', async () => {
    const server = createServer((_request, response) => response.end('from the host'));
    await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve));
    const port = (server.address() as AddressInfo).port;
    try {
      const gateway = (await context.exec(handle, "ip route | awk '/default/ { print $3 }'")).stdout.trim();
      expect(gateway).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
      // busybox-static's wget crashes when given -T, so the deadline is the exec's own timeout.
      const fetched = await context.exec(handle, `wget -q -O - http://${gateway}:${port}/`, {
        timeoutMs: 10_000,
      });
      expect(fetched).toMatchObject({ exitCode: 0, stdout: 'from the host' });
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
