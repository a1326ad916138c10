import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeSandbox } from '../../src/sandbox/index.js';
import { inCI } from '../support/ci.js';
import { berth, MAIN } from './berth-binary.js';

// `berth mcp --check` from the BUILT binary: it starts the real `berth mcp` as its own child and
// drives it with the SDK client, so these tests run three real processes deep.

const TOOLS = [
  'bash',
  'task_output',
  'task_write',
  'task_wait',
  'task_kill',
  'task_list',
  'read_file',
  'write_file',
  'edit_file',
  'multi_edit',
  'apply_patch',
  'glob',
  'grep',
  'list_dir',
];

interface CheckJson {
  ok: boolean;
  error?: string;
  server: { command: string; args: string[]; pid: number | null };
  serverInfo: { name: string; version: string } | null;
  context: string | null;
  sandbox: { state: string; reason: string };
  tools: string[];
  calls: { tool: string; arguments: Record<string, unknown>; isError: boolean; text: string }[];
  steps: { name: string; ok: boolean; error?: string }[];
  serverStderr: string;
  install: string;
  clientConfig: { mcpServers: { berth: { command: string; args: string[] } } };
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Containers berth made for process `pid` (other tests make and remove their own meanwhile). */
function containersOwnedBy(pid: number): string[] {
  const filter = `label=dev.berth.owner.pid=${pid}`;
  return execFileSync('docker', ['ps', '-aq', '--filter', filter], { encoding: 'utf8' })
    .split('\n')
    .filter(Boolean);
}

let root: string;
let elsewhere: string;
beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'berth-mcp-check-')));
  elsewhere = realpathSync(mkdtempSync(join(tmpdir(), 'berth-mcp-check-cwd-')));
  writeFileSync(join(root, 'marker-file.txt'), 'x');
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(elsewhere, { recursive: true, force: true });
});

describe('berth mcp --check on the embedded default', () => {
  it('reports the tools, what the model saw, and a client configuration that names this checkout', async () => {
    const result = await berth(['mcp', '--check'], { cwd: root });
    expect(result.code, result.stderr).toBe(0);
    const out = result.stdout;
    expect(out).toMatch(/^✓ berth mcp works/);
    expect(out).toContain(`tools    14: ${TOOLS.join(', ')}`);
    expect(out).toContain('bash {"command":"echo hello from berth && pwd"}');
    expect(out).toContain('  │ hello from berth\n');
    expect(out).toContain(`  │ ${root}\n`);
    expect(out).toContain('[Exit code 0');
    expect(out).toContain('list_dir {"path":"."}');
    expect(out).toContain('marker-file.txt');
    const config = JSON.parse(out.slice(out.indexOf('\n{\n') + 1, out.indexOf('\n}\n') + 2));
    expect(config).toEqual({
      mcpServers: { berth: { command: 'node', args: [MAIN, 'mcp', '--root', root] } },
    });
    expect(out).toContain('source checkout');
  });

  it('--json: the same facts, machine-readable; the server exited when the client closed', async () => {
    const probe = await probeSandbox();
    // A broken probe must not pass as "unsandboxed": where bubblewrap is installed (always in CI),
    // the sandbox has to work before the report's "off" could mean anything.
    if (inCI() || existsSync('/usr/bin/bwrap')) expect(probe.available, probe.reason).toBe(true);
    const sandboxWorks = probe.available;
    const result = await berth(['mcp', '--check', '--json', '--root', root], { cwd: elsewhere });
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as CheckJson;
    expect(report.ok).toBe(true);
    expect(report.error).toBeUndefined();
    expect(report.serverInfo?.name).toBe('berth');
    expect(report.server).toMatchObject({ command: process.execPath, args: [MAIN, 'mcp', '--root', root] });
    expect(report.tools).toEqual(TOOLS);
    expect(report.steps.map((s) => [s.name, s.ok])).toEqual([
      ['start', true],
      ['list_tools', true],
      ['bash', true],
      ['list_dir', true],
      ['stop', true],
    ]);
    const [bash, listDir] = report.calls;
    expect(bash).toMatchObject({ tool: 'bash', isError: false });
    expect(bash?.text).toMatch(new RegExp(`^hello from berth\\n${root}\\n`));
    expect(listDir).toMatchObject({ tool: 'list_dir', arguments: { path: '.' }, isError: false });
    expect(listDir?.text).toContain('marker-file.txt');
    expect(report.context).toBe(
      `process context, ${sandboxWorks ? 'sandboxed (bubblewrap, network deny)' : 'unsandboxed'}, root ${root}`,
    );
    expect(report.sandbox.state).toBe(sandboxWorks ? 'on' : 'off');
    expect(report.serverStderr).toContain('berth mcp: serving 14 tools on stdio');
    expect(report.install).toBe('checkout');
    expect(report.clientConfig.mcpServers.berth.args).toEqual([MAIN, 'mcp', '--root', root]);
    expect(report.server.pid).toBeGreaterThan(0);
    expect(isRunning(report.server.pid!)).toBe(false);
  });

  it('passes the context options to the server and into the configuration', async () => {
    const result = await berth([
      'mcp',
      '--check',
      '--json',
      '--no-sandbox',
      '--network',
      'allow',
      '--root',
      root,
    ]);
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as CheckJson;
    const args = [MAIN, 'mcp', '--root', root, '--network', 'allow', '--no-sandbox'];
    expect(report.server.args).toEqual(args);
    expect(report.clientConfig.mcpServers.berth.args).toEqual(args);
    expect(report.context).toBe(`process context, unsandboxed, root ${root}`);
    expect(report.sandbox).toEqual({ state: 'off', reason: '--no-sandbox was given' });
  });
});

describe('berth mcp --check in a container', () => {
  it('runs the tools in the container and removes it', async () => {
    const result = await berth(
      ['mcp', '--check', '--json', '--context', 'docker', '--image', 'berth-test:busybox', '--root', root],
      { timeoutMs: 120_000 },
    );
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as CheckJson;
    expect(report.calls[0]?.text).toMatch(/^hello from berth\n\/workspace\n/);
    expect(report.calls[1]?.text).toContain('marker-file.txt');
    expect(report.sandbox.state).toBe('container');
    expect(report.context).toBe(
      `docker context (berth-test:busybox, network deny, hardened), ${root} at /workspace`,
    );
    expect(report.server.pid).toBeGreaterThan(0);
    expect(containersOwnedBy(report.server.pid!)).toEqual([]);
  }, 130_000);

  it('a missing image fails the start step: exit 1 and the reason, from the server itself', async () => {
    const args = [
      'mcp',
      '--check',
      '--context',
      'docker',
      '--image',
      'berth-test:no-such-image',
      '--root',
      root,
    ];
    const result = await berth(args, { timeoutMs: 120_000 });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^✗ berth mcp --check FAILED/);
    expect(result.stdout).toContain('steps    start FAILED');
    expect(result.stdout).not.toContain('mcpServers');
    expect(result.stderr).toContain(
      'berth mcp --check: starting the server and the MCP handshake (initialize) failed: the server closed the connection (it exited with code 1)',
    );
    expect(result.stderr).toContain('image "berth-test:no-such-image" is not present in the Docker engine');
    expect(result.stderr).toContain('[E_DOCKER_IMAGE_NOT_FOUND]');

    const json = await berth([...args, '--json'], { timeoutMs: 120_000 });
    expect(json.code).toBe(1);
    const report = JSON.parse(json.stdout) as CheckJson;
    expect(report.ok).toBe(false);
    expect(report.error).toMatch(/^starting the server .* failed: the server closed the connection/);
    expect(report.steps).toHaveLength(1);
    expect(report.steps[0]).toMatchObject({ name: 'start', ok: false });
    expect(report.tools).toEqual([]);
    expect(report.serverStderr).toContain('E_DOCKER_IMAGE_NOT_FOUND');
    expect(json.stderr).toBe('');
  }, 130_000);
});

describe('berth mcp --check: the environment an MCP client gives', () => {
  it('carries DOCKER_HOST into the server and into the configuration', async () => {
    const args = ['mcp', '--check', '--context', 'docker', '--image', 'berth-test:busybox', '--root', root];
    const wrong = await berth(args, {
      env: { DOCKER_HOST: 'unix:///nonexistent-berth-check.sock' },
      timeoutMs: 120_000,
    });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain(
      'the Docker engine at unix:///nonexistent-berth-check.sock is not reachable',
    );

    const right = await berth([...args, '--json'], {
      env: { DOCKER_HOST: 'unix:///var/run/docker.sock', TMPDIR: undefined },
      timeoutMs: 120_000,
    });
    expect(right.code, right.stderr).toBe(0);
    const report = JSON.parse(right.stdout) as CheckJson & {
      clientConfig: { mcpServers: { berth: { env?: Record<string, string> } } };
    };
    expect(report.clientConfig.mcpServers.berth.env).toEqual({ DOCKER_HOST: 'unix:///var/run/docker.sock' });
  }, 130_000);

  it('passes nothing else: a variable set in this shell only is absent from the configuration', async () => {
    const result = await berth(['mcp', '--check', '--json', '--root', root], {
      env: { BERTH_CHECK_UNRELATED: 'x', DOCKER_HOST: undefined, TMPDIR: undefined },
    });
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as CheckJson;
    expect(report.clientConfig.mcpServers.berth).toEqual({
      command: 'node',
      args: [MAIN, 'mcp', '--root', root],
    });
  });
});

describe('berth mcp --check: bad input and limits', () => {
  it('a step that outlives --timeout fails with the limit named, and the server is ended', async () => {
    const result = await berth(['mcp', '--check', '--json', '--timeout', '1ms', '--root', root]);
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as CheckJson;
    expect(report.error).toContain('no answer within 1ms (--timeout)');
    expect(report.server.pid).toBeGreaterThan(0);
    expect(isRunning(report.server.pid!)).toBe(false);
  });

  it.each([
    [['mcp', '--json'], '--json: applies to berth mcp --check only; add --check'],
    [['mcp', '--timeout', '5s'], '--timeout: applies to berth mcp --check only; add --check'],
    [
      ['mcp', '--check', '--http', '0'],
      '--check: checks the stdio server and cannot be combined with --http',
    ],
    [['mcp', '--check', '--timeout', '5'], '--timeout: "5" has no unit'],
    [
      ['mcp', '--check', '--context', 'vm'],
      '--context: must be process, docker, kubernetes, e2b, daytona or virtual, got "vm"',
    ],
    [['mcp', '--check', '--context', 'docker'], '--image: the docker context needs an image'],
    [['mcp', '--check', '--check=yes'], '--check: is a switch and takes no value'],
  ])('%j is a usage error (exit 2) started nothing', async (args, message) => {
    const result = await berth(args);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`berth mcp: ${message}`);
  });

  it('refuses an implicit / as the workspace, before starting anything', async () => {
    const result = await berth(['mcp', '--check'], { cwd: '/' });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--root: the current directory is /');
  });

  it('--help describes the check', async () => {
    const result = await berth(['mcp', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('berth mcp --check [--json] [options]');
    expect(result.stdout).toContain('--timeout DURATION');
  });
});
