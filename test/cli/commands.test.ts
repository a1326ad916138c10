import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { berth } from './berth-binary.js';

let root: string;
beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'berth-cli-cmd-')));
  writeFileSync(join(root, 'notes.txt'), 'first\nsecond TODO\n');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const ESC = '\u001b[';
const version = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'))
  .version as string;

describe('berth --help and usage', () => {
  it.each([
    [['--help'], 'berth <command> [options]'],
    [['run', '--help'], 'berth run [options] -- CMD [ARG...]'],
    [['mcp', '--help'], 'berth mcp --http PORT [options]'],
    [['shell', '--help'], 'berth shell [options] -- PROGRAM [ARG...]'],
    [['tools', '--help'], 'berth tools call NAME [JSON] [options]'],
    [['tools', 'list', '--help'], 'berth tools list [options]'],
    [['tools', 'call', '--help'], "berth tools call NAME ['JSON-ARGUMENTS'] [options]"],
    [['doctor', '--help'], 'berth doctor [--json] [--image IMAGE]'],
  ])('%j prints help and exits 0', async (args, usage) => {
    const result = await berth(args);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(usage);
    expect(result.stdout).toMatch(/-h, --help\s+show (this )?help/);
    expect(result.stderr).toBe('');
  });

  it('documents the embedded default on every context command', async () => {
    for (const command of ['run', 'mcp', 'shell']) {
      const help = (await berth([command, '--help'])).stdout;
      expect(help).toContain('--sandbox, --no-sandbox');
      expect(help).toContain('With --sandbox a');
      expect(help).toMatch(/missing sandbox is an error/);
    }
  });

  it('--version prints the package version', async () => {
    expect((await berth(['--version'])).stdout).toBe(`${version}\n`);
  });

  it('no command: help on stdout, exit 2; an unknown command: exit 2 with the list', async () => {
    const none = await berth([]);
    expect(none.code).toBe(2);
    expect(none.stdout).toContain('Commands:');
    const unknown = await berth(['deploy']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe(
      'berth: "deploy": is not a berth command; the commands are run, mcp, shell, tools, doctor, changes, diff, commit, discard (berth --help)\n',
    );
  });

  it("berth help NAME and berth --help NAME show that command's help; nothing ever runs", async () => {
    const help = await berth(['help', 'mcp']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('berth mcp --check [--json] [options]');
    expect((await berth(['--help', 'tools', 'call'])).stdout).toContain('berth tools call NAME');
    const marker = join(root, 'help-must-not-run.txt');
    const guarded = await berth(['help', 'run', 'touch', marker]);
    expect(guarded.code).toBe(0);
    expect(guarded.stdout).toContain('berth run [options] -- CMD [ARG...]');
    expect(existsSync(marker)).toBe(false);
    const unknown = await berth(['help', 'deploy']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('"deploy": is not a berth command to show help for');
  });

  it('an option before the command, or after --version, is a usage error that says where options go', async () => {
    const early = await berth(['--verbose', 'run', 'true']);
    expect(early.code).toBe(2);
    expect(early.stderr).toBe(
      'berth: --verbose: unknown option; before a command berth takes only --help and --version. Options go after the command: berth <command> [options] (berth --help)\n',
    );
    const version = await berth(['--version', 'run']);
    expect(version.code).toBe(2);
    expect(version.stderr).toBe('berth: "run": unexpected after --version, which takes nothing else\n');
  });

  it('berth shell without a terminal on stdin is a usage error pointing at berth run', async () => {
    const result = await berth(['shell', '--no-sandbox', '--root', root], { input: 'echo hi\n' });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      'berth shell: stdin: is not a terminal, and berth shell is interactive; to run commands from a pipe or a script use berth run (e.g. `echo ls | berth run --stdin -- sh`)\n',
    );
  });

  it('unknown flags are errors on every command', async () => {
    for (const args of [
      ['mcp', '--port', '1'],
      ['doctor', '--verbose'],
      ['tools', 'list', '-x'],
      ['shell', '--tty'],
    ]) {
      const result = await berth(args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toMatch(/unknown flag for berth/);
    }
    const badPort = await berth(['mcp', '--http', '99999']);
    expect(badPort.code).toBe(2);
    expect(badPort.stderr).toContain('--http: must be a port number from 0 to 65535, got "99999"');
  });
});

describe('berth tools', () => {
  it('list names every tool', async () => {
    const result = await berth(['tools', 'list', '--root', root]);
    expect(result.code).toBe(0);
    for (const name of ['bash', 'task_output', 'read_file', 'edit_file', 'glob', 'grep', 'list_dir']) {
      expect(result.stdout).toMatch(new RegExp(`^${name}\\s`, 'm'));
    }
    const json = JSON.parse((await berth(['tools', 'list', '--json', '--root', root])).stdout);
    expect(json[0]).toMatchObject({ name: 'bash', inputSchema: { type: 'object' } });
  });

  it('call prints what the model sees and exits 0', async () => {
    const bash = await berth([
      'tools',
      'call',
      'bash',
      '{"command":"echo hello from berth"}',
      '--root',
      root,
    ]);
    expect(bash.code).toBe(0);
    expect(bash.stdout).toContain('hello from berth');
    expect(bash.stdout).toMatch(/Exit code 0/);
    const read = await berth(['tools', 'call', 'read_file', '{"path":"notes.txt"}', '--root', root]);
    expect(read.stdout).toMatch(/1\tfirst\n\s*2\tsecond TODO/);
    const grep = await berth([
      'tools',
      'call',
      'grep',
      '{"pattern":"TODO","output_mode":"content"}',
      '--root',
      root,
    ]);
    expect(grep.stdout).toContain('notes.txt:2:second TODO');
  });

  it('shows an image block as a one-line placeholder with its real size', async () => {
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
      'base64',
    );
    writeFileSync(join(root, 'dot.png'), png);
    const result = await berth(['tools', 'call', 'read_file', '{"path":"dot.png"}', '--root', root]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`[image image/png, ${png.length} bytes]`);
  });

  it('--json prints the raw tool result; arguments can come from stdin', async () => {
    const result = await berth(['tools', 'call', 'list_dir', '-', '--json', '--root', root], { input: '{}' });
    const parsed = JSON.parse(result.stdout);
    expect(parsed.content[0].type).toBe('text');
    expect(parsed.content[0].text).toContain('notes.txt');
  });

  it('a tool error is printed as the model sees it, exit 1', async () => {
    const result = await berth(['tools', 'call', 'read_file', '{"path":3}', '--root', root]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/Invalid arguments for read_file/);
    const missing = await berth([
      'tools',
      'call',
      'edit_file',
      '{"path":"notes.txt","old_string":"zzz","new_string":"y"}',
      '--root',
      root,
    ]);
    expect(missing.code).toBe(1);
  });

  it('usage errors exit 2: bad JSON, unknown tool, extra words, missing name', async () => {
    const badJson = await berth(['tools', 'call', 'bash', '{command:ls}', '--root', root]);
    expect(badJson.code).toBe(2);
    expect(badJson.stderr).toMatch(/JSON: "\{command:ls\}" is not valid JSON .*quote it for your shell/);
    const unknown = await berth(['tools', 'call', 'rm_rf', '--root', root]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/no tool named "rm_rf"; the tools are: bash, /);
    const extra = await berth(['tools', 'call', 'bash', '{"command":"ls"}', 'extra', '--root', root]);
    expect(extra.code).toBe(2);
    expect((await berth(['tools', 'call'])).code).toBe(2);
    expect((await berth(['tools', 'delete'])).code).toBe(2);
  });
});

describe('berth doctor', () => {
  it('--json reports every check with a status, detail and fix', async () => {
    // No kubeconfig: the Kubernetes check is a skip (test/cli/kubernetes-context.test.ts has a cluster).
    const result = await berth(['doctor', '--json'], {
      env: { KUBECONFIG: '/nonexistent/kubeconfig' },
      timeoutMs: 120_000,
    });
    const report = JSON.parse(result.stdout);
    expect(report).toMatchObject({ version, platform: `${process.platform}-${process.arch}` });
    expect(typeof report.ok).toBe('boolean');
    expect(report.checks.map((c: { id: string }) => c.id)).toEqual([
      'node',
      'node-pty',
      'supervisor',
      'sandbox',
      'docker',
      'gvisor',
      'kubernetes',
      'e2b',
      'daytona',
      'virtual',
    ]);
    for (const check of report.checks) {
      expect(['ok', 'warn', 'fail', 'skip']).toContain(check.status);
      expect(check.detail.length).toBeGreaterThan(0);
      if (check.status === 'fail') expect(check.fix, check.id).toBeTruthy();
    }
    expect(result.code).toBe(report.ok ? 0 : 1);
    expect(report.sandbox).toMatchObject({ backend: 'bubblewrap', available: expect.any(Boolean) });
    // This machine (and CI) has all of them; a red here means something broke, not a skip.
    const status = Object.fromEntries(
      report.checks.map((c: { id: string; status: string }) => [c.id, c.status]),
    );
    expect(status).toMatchObject({
      node: 'ok',
      'node-pty': 'ok',
      supervisor: 'ok',
      sandbox: 'ok',
      docker: 'ok',
      gvisor: 'ok',
      kubernetes: 'skip',
      virtual: 'ok',
    });
    // The SDKs are installed here (dev dependencies); credentials only where a key is configured.
    for (const remote of ['e2b', 'daytona']) expect(['ok', 'warn']).toContain(status[remote]);
    const virtual = report.checks.find((c: { id: string }) => c.id === 'virtual');
    expect(virtual.checks.map((c: { id: string; status: string }) => [c.id, c.status])).toEqual([
      ['virtual-shell', 'ok'],
      ['virtual-sessions', 'ok'],
    ]);
  });

  it('reports a missing engine as a failure with a fix', async () => {
    const result = await berth(['doctor', '--json'], {
      env: { DOCKER_HOST: 'unix:///nonexistent/docker.sock' },
    });
    const report = JSON.parse(result.stdout);
    const docker = report.checks.find((c: { id: string }) => c.id === 'docker');
    expect(docker.status).toBe('fail');
    expect(docker.detail).toContain('unix:///nonexistent/docker.sock');
    expect(docker.fix).toMatch(/start the engine/);
    expect(report.checks.find((c: { id: string }) => c.id === 'gvisor').status).toBe('skip');
    expect(report.ok).toBe(false);
    expect(result.code).toBe(1);
  });

  it('colours only when asked: plain in a pipe, coloured with FORCE_COLOR, plain again with NO_COLOR', async () => {
    const plain = await berth(['doctor']);
    expect(plain.stdout).toMatch(/^✓ Node\.js: v/m);
    expect(plain.stdout).not.toContain(ESC);
    const forced = await berth(['doctor'], { env: { FORCE_COLOR: '1' } });
    expect(forced.stdout).toContain(`${ESC}32m✓${ESC}39m`);
    const noColor = await berth(['doctor'], { env: { FORCE_COLOR: '1', NO_COLOR: '1' } });
    expect(noColor.stdout).not.toContain(ESC);
  });
});
