// Every path berth writes (a spill file, a task's log, the tools' saved copy) reports a full disk
// as a full disk, with what was kept: never as a size cap or a bare I/O error. The disk is a 2 MiB
// tmpfs mounted as TMPDIR in a private mount namespace (unshare -m), so nothing else sees it.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// The host runs the BUILT package (dist/); `npm test` builds before vitest.
const DIST = new URL('../../../dist/', import.meta.url).href;
const mountPoint = realpathSync(mkdtempSync(join(tmpdir(), 'berth-disk-full-')));
afterAll(() => rmSync(mountPoint, { recursive: true, force: true }));

const probe = spawnSync('unshare', ['--mount', '--propagation', 'private', 'true'], { encoding: 'utf8' });
const canMount = probe.status === 0;
if (!canMount) {
  console.warn(
    `[berth disk-full tests] skipped: unshare --mount is not allowed here (${probe.stderr.trim()})`,
  );
}

/** Run `script` (an ES module) in a host whose TMPDIR is a fresh 2 MiB tmpfs; returns its JSON. */
function onFullDisk(script: string): Record<string, unknown> {
  const run = spawnSync(
    'unshare',
    [
      '--mount',
      '--propagation',
      'private',
      '/bin/sh',
      '-c',
      'mount -t tmpfs -o size=2m berth-full "$1" && cd "$1" && TMPDIR="$1" exec "$2" --input-type=module -e "$3"',
      'host',
      mountPoint,
      process.execPath,
      `const DIST = ${JSON.stringify(DIST)};\n${script}`,
    ],
    { encoding: 'utf8', timeout: 60_000 },
  );
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as Record<string, unknown>;
}

describe.skipIf(!canMount)('a full disk is named as one', () => {
  it('a background log reports ENOSPC with the bytes it kept, through the context and the tools', () => {
    const out = onFullDisk(`
const { createProcessContext } = await import(DIST + 'contexts/process/index.js');
const { createTools } = await import(DIST + 'tools/index.js');
const context = createProcessContext({ supervise: true });
const handle = await context.spawn({ cwd: process.cwd() });
const task = await context.execBackground(handle, 'head -c 8000000 /dev/zero | tr "\\\\0" x');
const exit = await context.waitBackground(handle, task.id, { timeoutMs: 30000 });
const tools = new Map(createTools({ context, handle }).map((tool) => [tool.name, tool]));
const text = (result) => result.content.map((part) => part.text).join('\\n');
const yielded = text(await tools.get('bash').execute({ command: 'head -c 8000000 /dev/zero | tr "\\\\0" y; sleep 30', yield_ms: 2000 }));
const id = /bg-[0-9a-f]+/.exec(yielded)[0];
const output = text(await tools.get('task_output').execute({ task_id: id, offset: 0 }));
await context.close();
process.stdout.write(JSON.stringify({ exit, yielded: yielded.slice(-1200), output: output.slice(-1200) }));
`);
    const exit = out.exit as { logTruncated: boolean; logFailure: string };
    expect(exit.logTruncated).toBe(true);
    expect(exit.logFailure).toMatch(
      /^the disk is full \(ENOSPC\) where berth writes the task's log \(.+\): \d+ bytes were kept, later output was dropped/,
    );
    const kept = Number(/(\d+) bytes were kept/.exec(exit.logFailure)![1]);
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThanOrEqual(2 * 1024 * 1024);
    for (const text of [out.yielded, out.output] as string[]) {
      expect(text).toMatch(/The output log could not be written: the disk is full \(ENOSPC\)/);
      expect(text).not.toMatch(/size cap/);
    }
  });

  it('an exec whose spill hits the full disk says so in its marker and its facts, and keeps head and tail', () => {
    const out = onFullDisk(`
const { createProcessContext } = await import(DIST + 'contexts/process/index.js');
const { createTools } = await import(DIST + 'tools/index.js');
const context = createProcessContext({ output: { maxOutputBytes: 65536 } });
const handle = await context.spawn({ cwd: process.cwd() });
const result = await context.exec(handle, 'head -c 8000000 /dev/zero | tr "\\\\0" z; echo; echo last-line');
const tools = new Map(createTools({ context, handle }).map((tool) => [tool.name, tool]));
const tool = (await tools.get('bash').execute({ command: 'head -c 8000000 /dev/zero | tr "\\\\0" w; echo; echo tool-end' })).content.map((p) => p.text).join('\\n');
await context.close();
process.stdout.write(JSON.stringify({ facts: result.stdoutFacts, marker: /\\[berth: .*\\]/.exec(result.stdout)?.[0], tail: result.stdout.slice(-20), tool: (tool.match(/\\[… .* omitted here\\..*\\]/) ?? ['no marker'])[0], toolEnd: tool.slice(-200) }));
`);
    expect(out.facts).toMatchObject({
      truncated: true,
      spillPath: null,
      spillFailure: 'disk-full',
      bytesTotal: 8_000_011,
    });
    expect(out.marker).toMatch(
      /the whole stream was not kept \(the disk is full where spill files are written/,
    );
    expect(out.tail).toBe('zzzzzzzzz\nlast-line\n');
    expect(out.tool).toMatch(
      /The disk is full where berth writes spill files, so no full copy of stdout exists/,
    );
    expect(out.toolEnd).toContain('tool-end');
  });

  it('the subprocess layer reports a spill discarded by the full disk as disk-full', () => {
    const out = onFullDisk(`
const { LocalSubprocessRuntime } = await import(DIST + 'subprocess/index.js');
const runtime = new LocalSubprocessRuntime();
const handle = runtime.spawn({
  argv: ['/bin/sh', '-c', 'head -c 8000000 /dev/zero'],
  cwd: '/',
  stdio: { stdin: 'ignore', stdout: { maxBytes: 65536, spill: { maxBytes: 64000000 } }, stderr: 'ignore' },
  graceMs: 1000,
});
await handle.done;
const snapshot = handle.collected.stdout.snapshot();
await runtime.dispose();
process.stdout.write(JSON.stringify({ spillDiscarded: snapshot.spillDiscarded, reason: snapshot.spillDiscardReason, spillPath: snapshot.spillPath ?? null, bytesTotal: snapshot.bytesTotal }));
`);
    expect(out).toEqual({
      spillDiscarded: true,
      reason: 'disk-full',
      spillPath: null,
      bytesTotal: 8_000_000,
    });
  });

  it('writeFile on the full disk is E_IO saying the disk is full', () => {
    const out = onFullDisk(`
const { createProcessContext } = await import(DIST + 'contexts/process/index.js');
const context = createProcessContext();
const handle = await context.spawn({ cwd: process.cwd() });
let error;
try { await context.writeFile(handle, 'big.bin', new Uint8Array(4 * 1024 * 1024)); } catch (caught) { error = { code: caught.code, message: caught.message }; }
await context.close();
process.stdout.write(JSON.stringify({ error }));
`);
    expect(out.error).toMatchObject({ code: 'E_IO' });
    expect((out.error as { message: string }).message).toMatch(/the disk is full \(ENOSPC\)/);
  });
});
