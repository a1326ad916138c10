// A descriptor the host inherited (a directory on fd 100) must not reach any command, sandboxed or
// not: through /proc/self/fd/100 it would let the command create files outside its sandbox.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// The host runs the BUILT package (dist/); `npm test` builds before vitest.
const DIST = new URL('../../../dist/', import.meta.url).href;
const root = realpathSync(mkdtempSync(join(tmpdir(), 'berth-fd-')));
const outside = join(root, 'outside');
const ws = join(root, 'ws');
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Start a host with `outside` open on fd 100; it runs `command` through the process context. */
function hostRun(command: string, sandboxed: boolean, supervise = true, terminal = false) {
  const script = `
const { createProcessContext } = await import(${JSON.stringify(`${DIST}contexts/process/index.js`)});
const { createSandboxPolicy } = await import(${JSON.stringify(`${DIST}sandbox/index.js`)});
const sandbox = ${sandboxed} ? createSandboxPolicy({ writableRoots: [${JSON.stringify(ws)}] }) : undefined;
const context = createProcessContext({ cwd: ${JSON.stringify(ws)}, sandbox, supervise: ${supervise} });
const handle = await context.spawn();
let result;
if (${terminal}) {
  const terminal = await context.openTerminal(handle, { cols: 200, rows: 24, shell: ['/bin/sh', '-c', ${JSON.stringify(command)}] });
  let screen = '';
  terminal.onData((chunk) => { screen += Buffer.from(chunk).toString(); });
  result = { exitCode: await terminal.exited, stdout: screen.replaceAll(String.fromCharCode(13), ''), stderr: '' };
} else {
  result = await context.exec(handle, ${JSON.stringify(command)});
}
process.stdout.write(JSON.stringify({ exitCode: result.exitCode, stdout: result.stdout, stderr: result.stderr }));
await context.close();
`;
  // bash: dash cannot redirect descriptors above 9.
  const run = spawnSync(
    '/bin/bash',
    [
      '-c',
      `mkdir -p "$1" "$2" && exec 100<"$1" && exec "$3" --input-type=module -e "$4"`,
      'host',
      outside,
      ws,
      process.execPath,
      script,
    ],
    { encoding: 'utf8', timeout: 30_000 },
  );
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as { exitCode: number; stdout: string; stderr: string };
}

const PROBE =
  'ls /proc/self/fd | sort -n | tr "\\n" " "; touch /proc/self/fd/100/planted 2>/dev/null && echo CREATED';

describe('descriptors the host inherited', () => {
  it('the host really holds the directory on fd 100 (the probe can see it when passed on)', () => {
    // Without the supervisor the command inherits fd 100 and the attack works: the control case.
    const result = hostRun(PROBE, false, false);
    expect(result.stdout).toContain('100');
    expect(result.stdout).toContain('CREATED');
    expect(existsSync(join(outside, 'planted'))).toBe(true);
    rmSync(join(outside, 'planted'));
  });

  it.each([
    ['without the OS sandbox', false],
    ['in the OS sandbox', true],
  ])('%s, a command starts with only fds 0-2', (_name, sandboxed) => {
    const result = hostRun(PROBE, sandboxed);
    // ls itself holds one more descriptor (3) for the directory it lists.
    expect(result.stdout.trim()).toBe('0 1 2 3');
    expect(result.stdout).not.toContain('CREATED');
    expect(existsSync(join(outside, 'planted'))).toBe(false);
  });

  it.each([
    ['without the OS sandbox', false],
    ['in the OS sandbox', true],
  ])('%s, a terminal starts with only fds 0-2', (_name, sandboxed) => {
    const result = hostRun(PROBE, sandboxed, true, true);
    // ls itself holds one more descriptor (3) for the directory it lists.
    expect(result.stdout.trim()).toBe('0 1 2 3');
    expect(result.stdout).not.toContain('CREATED');
    expect(existsSync(join(outside, 'planted'))).toBe(false);
  });
});
