/**
 * What the conformance suite does not cover: option checks, the namespace's layout, session mode,
 * registered commands, identity and time zone, pids shared by every handle, the budget, and the
 * exceptions to containment (a handle's own logs and spill files), ranged reads past the read limit.
 */
import { appendFileSync, mkdtempSync, realpathSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createProcessContext } from '../../../src/contexts/process/index.js';
import { createVirtualContext, type VirtualContext } from '../../../src/contexts/virtual/index.js';
import { createMemoryFilesystem } from '../../../src/vfs/index.js';

const contexts: { close(): Promise<void> }[] = [];
const dirs: string[] = [];

function open(options?: Parameters<typeof createVirtualContext>[0]): VirtualContext {
  const context = createVirtualContext(options);
  contexts.push(context);
  return context;
}

afterEach(async () => {
  await Promise.all(contexts.splice(0).map((c) => c.close()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('options', () => {
  it('refuses an unknown option with a did-you-mean', () => {
    expect(() => createVirtualContext({ stateDir: '/tmp/x' } as never)).toThrow(
      /options\.stateDir: is not an option of createVirtualContext; did you mean "stateDirectory"\?/,
    );
    expect(() => createVirtualContext({ identity: { hostnme: 'x' } } as never)).toThrow(
      /options\.identity\.hostnme.*did you mean "hostname"/,
    );
  });

  it('refuses bad values, naming the option', () => {
    expect(() => createVirtualContext({ root: 'relative/dir' })).toThrow(
      /options\.root: must be an absolute path/,
    );
    expect(() => createVirtualContext({ workspacePath: '/' })).toThrow(/options\.workspacePath/);
    expect(() => createVirtualContext({ defaultTimeoutMs: -1 })).toThrow(/options\.defaultTimeoutMs/);
    expect(() => createVirtualContext({ limits: { maxCommandz: 1 } as never })).toThrow(
      /limits\.maxCommandz/,
    );
    expect(() => createVirtualContext({ commands: { 'bad name': async () => 0 } })).toThrow(
      /options\.commands\["bad name"\]/,
    );
    expect(() =>
      createVirtualContext({ mounts: [{ path: '/workspace/x', fs: createMemoryFilesystem() }] }),
    ).toThrow(/options\.mounts\[0\]\.path/);
    expect(() => createVirtualContext({ root: tmpdir(), files: { '/workspace/a': 'x' } })).toThrow(
      /options\.files\["\/workspace\/a"\]: is inside the workspace/,
    );
  });

  it('refuses a root that does not exist or is no directory, naming it', () => {
    expect(() => createVirtualContext({ root: '/nonexistent-berth-root' })).toThrow(
      /options\.root: "\/nonexistent-berth-root" does not exist/,
    );
    expect(() => createVirtualContext({ root: '/etc/hostname' })).toThrow(
      /options\.root: .* is not a directory/,
    );
  });

  it('refuses container-only spawn fields with CapabilityError and a cwd that is no directory', async () => {
    const context = open({ files: { '/workspace/f.txt': 'x' } });
    await expect(context.spawn({ image: 'alpine' })).rejects.toMatchObject({ code: 'E_CAPABILITY' });
    await expect(context.spawn({ cwd: '/nowhere' })).rejects.toMatchObject({ code: 'E_NOT_FOUND' });
    await expect(context.spawn({ cwd: '/workspace/f.txt' })).rejects.toMatchObject({
      code: 'E_INVALID_ARGUMENT',
    });
  });
});

describe('the namespace', () => {
  it('has scratch space, the home directory, /dev and the workspace; seeds go where their paths say', async () => {
    const context = open({
      files: { '/workspace/src/a.txt': 'in the workspace\n', '/etc/motd': 'hello\n' },
      identity: { user: 'ada', hostname: 'engine' },
      timeZone: 'Europe/Berlin',
    });
    const handle = await context.spawn();
    const result = await context.exec(
      handle,
      'echo "$PWD $HOME $USER $TZ $HOSTNAME"; read -r m < /etc/motd; echo "$m"; [ -d /tmp ] && [ -c /dev/null ] && echo ok; echo x > /dev/null',
    );
    expect(result.stdout).toBe('/workspace /home/ada ada Europe/Berlin engine\nhello\nok\n');
    expect(await context.readFile(handle, 'src/a.txt')).toBe('in the workspace\n');
    // Seeds are what the workspace started from, and scratch files are not workspace changes.
    await context.exec(handle, 'echo scratch > /tmp/t.txt');
    expect(await context.changes(handle)).toEqual([]);
  });

  it('mounts a caller filesystem, read-only when asked', async () => {
    const reference = createMemoryFilesystem({ files: { '/doc.txt': 'reference\n' } });
    const context = open({ mounts: [{ path: '/ref', fs: reference, readOnly: true }] });
    const handle = await context.spawn();
    const result = await context.exec(handle, 'read -r l < /ref/doc.txt; echo "$l"; echo x > /ref/new.txt');
    expect(result.stdout).toBe('reference\n');
    expect(result.stderr).toMatch(/Read-only file system/);
    await expect(context.writeFile(handle, '/ref/doc.txt', 'x')).rejects.toMatchObject({ code: 'E_IO' });
  });

  it('a write beyond the byte budget fails with a message naming the budget and changes nothing', async () => {
    const context = open({ budget: { maxBytes: 64 * 1024 } });
    const handle = await context.spawn();
    await context.writeFile(handle, 'small.txt', 'fits\n');
    const error = await context
      .writeFile(handle, 'small.txt', new Uint8Array(128 * 1024))
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'E_IO',
      message: expect.stringMatching(/virtual filesystem is full.*budget/),
    });
    expect(await context.readFile(handle, 'small.txt')).toBe('fits\n');
  });
});

describe('handles', () => {
  it('share one process table: a pid of one handle is alive to another, and kill reaches it', async () => {
    const context = open();
    const a = await context.spawn();
    const b = await context.spawn();
    const task = await context.execBackground(a, 'while :; do read -t 0.05 x; done');
    expect((await context.exec(b, `kill -0 ${task.pid} && echo alive`)).stdout).toBe('alive\n');
    expect((await context.exec(b, `kill ${task.pid}; echo $?`)).stdout).toBe('0\n');
    const exit = await context.waitBackground(a, task.id, { timeoutMs: 10_000 });
    expect(exit).toMatchObject({ exitCode: null, signal: 'SIGTERM', killed: false });
    expect((await context.exec(b, `kill -0 ${task.pid} 2>/dev/null || echo gone`)).stdout).toBe('gone\n');
  });

  it('in session mode keep variables, functions and cwd between calls, one call at a time', async () => {
    const context = open({ session: true, files: { '/workspace/sub/.keep': '' } });
    const handle = await context.spawn();
    await context.exec(handle, 'x=41; f() { echo $((x + 1)); }; cd sub');
    const results = await Promise.all([
      context.exec(handle, 'x=$((x + 1)); echo "$x $(f) $PWD"'),
      context.exec(handle, 'echo "second $x"'),
    ]);
    expect(results.map((r) => r.stdout)).toEqual(['42 43 /workspace/sub\n', 'second 42\n']);
    // Without session mode every call starts fresh.
    const plain = open({});
    const h = await plain.spawn();
    await plain.exec(h, 'x=1');
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion, not a template
    expect((await plain.exec(h, 'echo "[${x-unset}]"')).stdout).toBe('[unset]\n');
  });

  it('run registered commands in pipelines with the handle env', async () => {
    const context = open({
      commands: {
        shout: {
          help: 'shout: upper-case stdin',
          run: async (ctx) => {
            for (;;) {
              const chunk = await ctx.stdin.read();
              if (chunk === null) break;
              await ctx.stdout.write(new TextEncoder().encode(new TextDecoder().decode(chunk).toUpperCase()));
            }
            await ctx.stdout.write(new TextEncoder().encode(`${ctx.env.get('WHO') ?? '?'}\n`));
            return 3;
          },
        },
      },
    });
    const handle = await context.spawn({ env: { WHO: 'handle' } });
    const result = await context.exec(handle, 'echo quiet | shout; echo "status $?"');
    expect(result.stdout).toBe('QUIET\nhandle\nstatus 3\n');
  });
});

describe('mounted MCP tools', () => {
  it('are commands of every handle, fed by flags, printing the result', async () => {
    const server = new Server({ name: 'calc', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: [
        {
          name: 'add',
          description: 'add two numbers',
          inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } },
        },
      ],
    }));
    server.setRequestHandler(CallToolRequestSchema, async (request) => {
      const { a, b } = request.params.arguments as { a: number; b: number };
      return { content: [{ type: 'text', text: String(a + b) }] };
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'virtual-test', version: '1.0.0' });
    await client.connect(clientSide);
    contexts.push({ close: () => client.close() });
    const context = open({ mcpTools: [{ client, prefix: 'calc_' }] });
    const handle = await context.spawn();
    const result = await context.exec(handle, 'calc_add --a 40 --b 2; echo " status $?"');
    expect(result.stdout).toMatch(/^42\n? status 0\n$/);
    expect(() => createVirtualContext({ mcpTools: [{ client: {} as never }] })).toThrow(
      /options\.mcpTools\[0\]\.client/,
    );
  });
});

describe('containment', () => {
  it('still reads the handle own logs and spill files, and nothing of another handle', async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'berth-virtual-contain-')));
    dirs.push(root);
    writeFileSync(join(root, 'in.txt'), 'inside\n');
    const context = open({ root, containment: true, output: { maxOutputBytes: 1024 } });
    const handle = await context.spawn();
    const other = await context.spawn();
    const task = await context.execBackground(handle, 'echo logged');
    await context.waitBackground(handle, task.id);
    expect(await context.readFile(handle, task.outputPath)).toBe('logged\n');
    await expect(context.readFile(other, task.outputPath)).rejects.toMatchObject({ code: 'E_CONTAINMENT' });
    const big = await context.exec(handle, 'i=0; while [ $i -lt 300 ]; do echo "line $i"; i=$((i+1)); done');
    const spill = big.stdoutFacts.spillPath as string;
    expect(spill).toEqual(expect.any(String));
    expect((await context.readFile(handle, spill)).split('\n')).toHaveLength(301);
    await expect(context.readFile(handle, '/tmp')).rejects.toMatchObject({ code: 'E_CONTAINMENT' });
    // The shell sees the log too, read-only.
    const cat = await context.exec(
      handle,
      `read -r l < ${task.outputPath}; echo "$l"; echo x >> ${task.outputPath}`,
    );
    expect(cat.stdout).toBe('logged\n');
    expect(cat.stderr).toMatch(/Read-only file system/);
  });
});

describe('ranged reads', () => {
  it('read the end of a 5 GiB sparse file of the lower directory, which a whole read refuses', async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'berth-virtual-range-')));
    dirs.push(root);
    const huge = join(root, 'huge.bin');
    writeFileSync(huge, '');
    truncateSync(huge, 5 * 1024 ** 3);
    appendFileSync(huge, 'tail');
    const context = open({ root, containment: true });
    const handle = await context.spawn();
    const got = await context.readFileRange(handle, 'huge.bin', 5 * 1024 ** 3 - 2, 100);
    expect(Buffer.from(got).toString('latin1')).toBe('\0\0tail');
    await expect(context.readFileBytes(handle, 'huge.bin')).rejects.toMatchObject({
      code: 'E_FILE_TOO_LARGE',
    });
    await expect(context.readFileRange(handle, '/etc/passwd', 0, 10)).rejects.toMatchObject({
      code: 'E_CONTAINMENT',
    });
  });

  it('honour maxReadBytes per call, not per file, and read a task log under containment', async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'berth-virtual-range-')));
    dirs.push(root);
    const context = open({ root, containment: true, maxReadBytes: 1024 });
    const handle = await context.spawn();
    const bytes = new Uint8Array(4096).map((_, i) => i % 251);
    await context.writeFile(handle, 'big.bin', bytes);
    await expect(context.readFileBytes(handle, 'big.bin')).rejects.toMatchObject({
      code: 'E_FILE_TOO_LARGE',
    });
    expect(Buffer.from(await context.readFileRange(handle, 'big.bin', 4000, 1024))).toEqual(
      Buffer.from(bytes.subarray(4000)),
    );
    await expect(context.readFileRange(handle, 'big.bin', 0, 1025)).rejects.toMatchObject({
      code: 'E_INVALID_ARGUMENT',
      message: expect.stringMatching(/read limit \(1024\)/),
    });
    const task = await context.execBackground(handle, 'echo first; echo second');
    await context.waitBackground(handle, task.id);
    expect(Buffer.from(await context.readFileRange(handle, task.outputPath, 6, 6)).toString()).toBe('second');
  });
});

describe('external commands', () => {
  it('run only when the gate allows them, in the context it names', async () => {
    const host = createProcessContext({ killGraceMs: 1000 });
    contexts.push(host);
    const hostHandle = await host.spawn({ cwd: tmpdir() });
    const context = open({
      // Host programs the shell has no command of its own for.
      external: { context: host, handle: hostHandle, allow: ['getconf'], mapCwd: () => tmpdir() },
    });
    const handle = await context.spawn();
    const allowed = await context.exec(handle, 'getconf PAGESIZE');
    expect(allowed.stdout).toMatch(/^\d+\n$/);
    const refused = await context.exec(handle, 'getent passwd root');
    expect(refused.exitCode).toBe(127);
  });

  it('a mapped working directory is also the PWD they get; a directory the context refuses fails the command, not the shell', async () => {
    const host = createProcessContext({ killGraceMs: 1000 });
    contexts.push(host);
    const hostHandle = await host.spawn({ cwd: tmpdir() });
    const target = realpathSync(tmpdir());
    let mapped: string | undefined = target;
    const context = open({
      external: { context: host, handle: hostHandle, allow: ['python3'], mapCwd: () => mapped },
    });
    const handle = await context.spawn();
    const printPwd = `python3 -c 'import os; print(os.environ.get("PWD"))'`;
    expect((await context.exec(handle, printPwd)).stdout).toBe(`${target}\n`);
    mapped = join(target, 'berth-no-such-directory');
    const failed = await context.exec(handle, `${printPwd}; echo "status $?"`);
    expect(failed.stdout).toBe('status 126\n');
    expect(failed.stderr).toMatch(
      /^python3: cwd .*berth-no-such-directory does not exist \(ENOENT\); pass an existing directory\n$/,
    );
  });
});

describe('network', () => {
  it('is off by default: no capability, and curl and wget say why', async () => {
    const context = open();
    expect(context.capabilities.network).toBe(false);
    const handle = await context.spawn();
    const result = await context.exec(
      handle,
      'curl -s http://127.0.0.1:8080/; echo "curl $?"; wget -q http://127.0.0.1:8080/; echo "wget $?"',
    );
    expect(result.stdout).toBe('curl 7\nwget 4\n');
    expect(result.stderr).toContain('network access is off in this shell');
  });

  it('refuses a bad allowlist with typed errors naming the field', () => {
    expect(() => createVirtualContext({ network: { allow: ['https://user@api.example.com/'] } })).toThrow(
      /options\.network\.allow\[0\]: "https:\/\/user@api\.example\.com\/" contains credentials/,
    );
    expect(() => createVirtualContext({ network: { alow: [] } } as never)).toThrow(
      /options\.network\.alow: is not an option of the network option; did you mean "allow"\?/,
    );
    expect(() => createVirtualContext({ network: { allow: [] } })).toThrow(
      /options\.network\.allow: must be a non-empty array/,
    );
  });

  it('with an allowlist claims the capability and fetches what it admits, into the workspace', async () => {
    const { startServer } = await import('../../commands/net/support/http-server.js');
    const server = await startServer();
    try {
      const allow = [`${server.origin}/`];
      const context = open({ network: { allow } });
      expect(context.capabilities.network).toBe(true);
      // The caller's array may change later; the context keeps what it validated.
      allow.push('http://evil.example/');
      const handle = await context.spawn();
      const result = await context.exec(
        handle,
        `curl -sS -o got.bin ${server.origin}/bytes && wc -c < got.bin; curl -sS http://evil.example/`,
      );
      expect(result.stdout).toBe('6\n');
      expect(result.stderr).toContain('GET http://evil.example/ is not in the network allowlist');
      expect((await context.changes(handle)).map((c) => c.path)).toEqual(['/workspace/got.bin']);
      // The call's timeout ends a hanging transfer.
      const hung = await context.exec(handle, `curl -s ${server.origin}/hang`, { timeoutMs: 300 });
      expect(hung.timedOut).toBe(true);
      const until = Date.now() + 5000;
      while (server.openSlow() > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
      expect(server.openSlow()).toBe(0);
    } finally {
      await server.close();
    }
  });
});
