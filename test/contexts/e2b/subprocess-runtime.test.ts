/**
 * The subprocess seam running in one E2B sandbox (fake SDK): lazy creation, every disposition,
 * offset readers, tree-scoped terminate and waitForExit, terminals, executable lookup, disposal.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { E2BSubprocessRuntime } from '../../../src/contexts/e2b/index.js';
import { FakeE2BService } from './fake-e2b.js';

const service = new FakeE2BService();
const runtimes: E2BSubprocessRuntime[] = [];
function runtime(): E2BSubprocessRuntime {
  const created = new E2BSubprocessRuntime({ sdk: service.sdk, apiKey: service.apiKey });
  runtimes.push(created);
  return created;
}
afterAll(async () => {
  for (const created of runtimes) await created.dispose();
  service.shutdown();
});

const collect = { maxBytes: 64 * 1024 };

describe('E2BSubprocessRuntime', () => {
  it('creates its sandbox only when first used, and dispose deletes it', async () => {
    const before = service.sandboxes.size;
    const rt = runtime();
    expect(service.sandboxes.size).toBe(before);
    const { sandboxId } = await rt.getSandbox();
    expect(service.sandboxes.has(sandboxId)).toBe(true);
    await rt.dispose();
    expect(service.sandboxes.has(sandboxId)).toBe(false);
    expect(() =>
      rt.spawn({
        argv: ['true'],
        cwd: '/',
        stdio: { stdin: 'ignore', stdout: 'ignore', stderr: 'ignore' },
        graceMs: 1000,
      }),
    ).toThrow(/disposed/);
  });

  it('collect mode: exit facts, bounded text, non-consuming offset reads', async () => {
    const rt = runtime();
    const handle = rt.spawn({
      argv: ['/bin/sh', '-c', 'printf "a€b"; printf err >&2; exit 3'],
      cwd: '/tmp',
      stdio: { stdin: 'ignore', stdout: collect, stderr: collect },
      graceMs: 1000,
    });
    expect(await handle.done).toEqual({ exitCode: 3, signal: null });
    const first = handle.collected.stdout!.readFrom(0);
    expect(first).toMatchObject({ text: 'a€b', nextOffset: 5, lossy: false });
    expect(handle.collected.stdout!.readFrom(1).text).toBe('€b');
    expect(handle.collected.stdout!.readFrom(0).text).toBe('a€b');
    expect(handle.collected.stderr!.snapshot().text).toBe('err');
    expect(handle.pid).toBeGreaterThan(0);
  });

  it('argv is never shell-interpreted, and stdin data arrives byte-exact', async () => {
    const rt = runtime();
    const bytes = new Uint8Array(256).map((_, i) => i);
    const handle = rt.spawn({
      argv: ['printf', '[%s]', '$HOME', '*', "it's"],
      cwd: '/tmp',
      stdio: { stdin: 'ignore', stdout: collect, stderr: 'ignore' },
      graceMs: 1000,
    });
    await handle.done;
    expect(handle.collected.stdout!.snapshot().text).toBe("[$HOME][*][it's]");
    const cat = rt.spawn({
      argv: ['od', '-An', '-v', '-tx1'],
      cwd: '/tmp',
      stdio: { stdin: { data: bytes }, stdout: collect, stderr: 'ignore' },
      graceMs: 1000,
    });
    await cat.done;
    expect(cat.collected.stdout!.snapshot().text.replace(/\s+/g, '')).toBe(
      Buffer.from(bytes).toString('hex'),
    );
  });

  it('pipe mode: a live conversation over stdin and stdout', async () => {
    const rt = runtime();
    const handle = rt.spawn({
      argv: ['cat'],
      cwd: '/tmp',
      stdio: { stdin: 'pipe', stdout: 'pipe', stderr: 'pipe' },
      graceMs: 1000,
    });
    let heard = '';
    handle.stdout!.on('data', (chunk: Buffer) => {
      heard += chunk.toString();
    });
    handle.stderr!.resume();
    handle.stdin!.write('ping\n');
    await expect.poll(() => heard, { timeout: 10_000 }).toBe('ping\n');
    handle.stdin!.write('pong\n');
    await expect.poll(() => heard, { timeout: 10_000 }).toBe('ping\npong\n');
    handle.stdin!.end();
    expect(await handle.done).toEqual({ exitCode: 0, signal: null });
  });

  it('terminate ends the whole tree (a TERM-ignoring grandchild too) and waitForExit sees it gone', async () => {
    const rt = runtime();
    const handle = rt.spawn({
      argv: ['/bin/sh', '-c', 'sh -c \'trap "" TERM; sleep 300\' & echo $! > /tmp/grandchild; sleep 300'],
      cwd: '/tmp',
      stdio: { stdin: 'ignore', stdout: collect, stderr: collect },
      graceMs: 500,
    });
    const { sandboxId } = await rt.getSandbox();
    const machine = service.sandboxes.get(sandboxId)!.machine;
    await expect
      .poll(async () => (await machine.collect(['cat', '/tmp/grandchild'])).stdout.length, {
        timeout: 10_000,
      })
      .toBeGreaterThan(0);
    const grandchild = (await machine.collect(['cat', '/tmp/grandchild'])).stdout.toString().trim();
    const stateOf = async () =>
      (
        await machine.collect([
          '/bin/sh',
          '-c',
          `sed 's/.*) //' /proc/${grandchild}/stat 2>/dev/null | cut -c1`,
        ])
      ).stdout
        .toString()
        .trim();
    expect(await stateOf(), 'the grandchild runs before terminate').toBe('S');
    handle.terminate();
    const outcome = await handle.done;
    expect(outcome.exitCode).toBeNull();
    expect(await handle.waitForExit()).toBe(true);
    // Gone, or a zombie waiting for a reaper (it runs no more).
    expect(['', 'Z']).toContain(await stateOf());
  });

  it('env: explicit entries reach the process; undefined removes a sandbox variable', async () => {
    const rt = new E2BSubprocessRuntime({
      sdk: service.sdk,
      apiKey: service.apiKey,
      envs: { KEEP: 'k', DROP: 'd' },
    });
    runtimes.push(rt);
    const handle = rt.spawn({
      argv: ['/bin/sh', '-c', 'echo "[$KEEP][$DROP][$NEW]"'],
      cwd: '/tmp',
      stdio: { stdin: 'ignore', stdout: collect, stderr: 'ignore' },
      graceMs: 1000,
      env: { DROP: undefined, NEW: 'n' },
    });
    await handle.done;
    expect(handle.collected.stdout!.snapshot().text).toBe('[k][][n]\n');
  });

  it('a missing cwd rejects done with SpawnError; a bad spec throws at once, naming the field', async () => {
    const rt = runtime();
    const handle = rt.spawn({
      argv: ['true'],
      cwd: '/no/such/dir',
      stdio: { stdin: 'ignore', stdout: 'ignore', stderr: 'ignore' },
      graceMs: 1000,
    });
    await expect(handle.done).rejects.toMatchObject({ code: 'E_SPAWN', reason: 'bad-cwd' });
    expect(() =>
      rt.spawn({
        argv: [],
        cwd: '/',
        stdio: { stdin: 'ignore', stdout: 'ignore', stderr: 'ignore' },
        graceMs: 1,
      }),
    ).toThrow(/argv/);
    expect(() =>
      rt.spawn({
        argv: ['true'],
        cwd: '/',
        stdio: { stdin: 'ignore', stdout: { maxBytes: 0 }, stderr: 'ignore' },
        graceMs: 1,
      }),
    ).toThrow(/stdio\.stdout\.maxBytes/);
  });

  it('resolveExecutable finds bare names on the sandbox PATH and verifies absolute paths', async () => {
    const rt = runtime();
    expect(await rt.resolveExecutable('sh')).toMatch(/^\/.*\/sh$/);
    expect(await rt.resolveExecutable('/bin/sh')).toBe('/bin/sh');
    await expect(rt.resolveExecutable('no-such-program-here')).rejects.toMatchObject({ code: 'E_SPAWN' });
    await expect(rt.resolveExecutable('./relative/x')).rejects.toMatchObject({ code: 'E_INVALID_ARGUMENT' });
  });

  it('spawnTerminal runs argv on a PTY, reports the foreground process, and terminate ends it', async () => {
    const rt = runtime();
    const terminal = await rt.spawnTerminal({
      argv: ['/bin/sh'],
      cwd: '/tmp',
      cols: 80,
      rows: 24,
      graceMs: 500,
    });
    let seen = '';
    terminal.onData((chunk) => {
      seen += Buffer.from(chunk).toString();
    });
    terminal.write('sleep 30\r');
    await expect
      .poll(async () => (await terminal.inspectForeground())?.command, { timeout: 10_000 })
      .toBe('sleep');
    expect(await terminal.signalForeground('SIGINT')).toBe(true);
    await expect
      .poll(async () => (await terminal.inspectForeground())?.command, { timeout: 10_000 })
      .not.toBe('sleep');
    terminal.write('echo term-$((6*7))\r');
    await expect.poll(() => seen, { timeout: 10_000 }).toContain('term-42');
    await terminal.terminate();
    await terminal.done;
  });
});
