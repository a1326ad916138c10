/**
 * The kernel's API: calls and their results, sessions, classify and plan, host-defined commands
 * in pipelines, structured data through pipes, the external-command gate (off by default, and
 * never bypassed by a command that runs commands), patient holds, trash snapshots, MCP tools as
 * commands, option validation.
 */
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are shell scripts, `${x}` is bash's
import { describe, expect, it } from 'vitest';
import { decodeBytes, encodeText } from '../../src/commands/byte-text.js';
import type { CommandContext } from '../../src/commands/command.js';
import type { ContextHandle, ExecutionContext } from '../../src/contract/types.js';
import { createKernel, createTrash, type KernelOptions } from '../../src/kernel/index.js';
import { createMemoryFilesystem } from '../../src/vfs/index.js';

function kernel(options: Partial<KernelOptions> = {}) {
  const fs = createMemoryFilesystem({
    files: { '/work/a.txt': 'alpha\n', '/home/user': { type: 'directory' } },
  });
  return { fs, k: createKernel({ fs, cwd: '/work', ...options }) };
}

async function readAll(ctx: CommandContext): Promise<string> {
  let text = '';
  for (;;) {
    const chunk = await ctx.stdin.read();
    if (chunk === null) return text;
    text += decodeBytes(chunk);
  }
}

describe('exec', () => {
  it('returns status, output and timing facts', async () => {
    const { k } = kernel();
    const r = await k.exec('echo out; echo err >&2; exit 3');
    expect(r.exitCode).toBe(3);
    expect(r.stdout).toBe('out\n');
    expect(r.stderr).toBe('err\n');
    expect(r.timedOut).toBe(false);
    expect(r.aborted).toBe(false);
    expect(r.stdoutFacts.bytesTotal).toBe(4);
    expect(decodeBytes(r.stdoutBytes as Uint8Array)).toBe('out\n');
  });

  it('takes cwd, env and stdin per call', async () => {
    const { k } = kernel({ env: { BASE: 'b' } });
    const r = await k.exec('pwd; echo "$BASE $EXTRA"; read l; echo "[$l]"', {
      cwd: '/home/user',
      env: { EXTRA: 'x' },
      stdin: 'line\n',
    });
    expect(r.stdout).toBe('/home/user\nb x\n[line]\n');
  });

  it('streams output through onOutput as it is written', async () => {
    const { k } = kernel();
    const chunks: string[] = [];
    await k.exec('echo one; echo two >&2', {
      onOutput: (c) => chunks.push(`${c.stream}:${c.text}`),
    });
    expect(chunks.join('')).toContain('stdout:one\n');
    expect(chunks.join('')).toContain('stderr:two\n');
  });

  it('keeps bytes exactly (invalid UTF-8 round-trips)', async () => {
    const { k } = kernel();
    const r = await k.exec("printf '\\xff\\xfe\\n'");
    expect([...(r.stdoutBytes as Uint8Array)]).toEqual([0xff, 0xfe, 0x0a]);
  });

  it('starts each call fresh unless sessions are on', async () => {
    const { k } = kernel();
    await k.exec('x=1; f() { echo f; }; cd /');
    const r = await k.exec('echo "[${x-}]"; type -t f; pwd');
    expect(r.stdout).toBe('[]\n/work\n');
  });

  it('carries variables, functions, cwd, options and aliases between calls in a session', async () => {
    const { k } = kernel({ session: true });
    await k.exec('x=1; f() { echo "f $x"; }; cd /home; set -u; shopt -s expand_aliases; alias hi="echo hi"');
    const r = await k.exec('f; pwd; echo $-; hi');
    const [fLine, pwdLine, flags, hiLine] = r.stdout.split('\n');
    expect([fLine, pwdLine, hiLine]).toEqual(['f 1', '/home', 'hi']);
    expect(flags).toContain('u');
    k.reset();
    expect((await k.exec('echo "[${x-}]"')).stdout).toBe('[]\n');
    k.close();
  });

  it('keeps background jobs of a session until the kernel closes', async () => {
    const { k } = kernel({ session: true });
    await k.exec('{ while :; do :; done; } & echo started');
    const r = await k.exec('jobs');
    expect(r.stdout).toContain('Running');
    k.close();
  });

  it('rejects unknown options with the closest name', () => {
    const fs = createMemoryFilesystem();
    expect(() => createKernel({ fs, sesion: true } as unknown as KernelOptions)).toThrow(/session/);
    const k = createKernel({ fs });
    return expect(k.exec('true', { timeoutMS: 5 } as never)).rejects.toThrow(/timeoutMs/);
  });
});

describe('classify and plan', () => {
  it('classifies names as bash resolves them', async () => {
    const { k } = kernel({ session: true });
    await k.exec('f() { :; }; shopt -s expand_aliases; alias ll="ls -l"');
    expect(await k.classify('if')).toBe('keyword');
    expect(await k.classify('cd')).toBe('builtin');
    expect(await k.classify('f')).toBe('function');
    expect(await k.classify('ll')).toBe('alias');
    expect(await k.classify('grep')).toBe('command');
    expect(await k.classify('no-such-thing')).toBe('not-found');
  });

  it('plans a script without running it', () => {
    const { k } = kernel();
    const p = k.plan('echo hi | grep h; rm -rf / 2>/dev/null; f() { curl x; }');
    const names = p.commands.map((c) => c.name);
    expect(names).toEqual(expect.arrayContaining(['echo', 'grep', 'rm', 'curl']));
    expect(p.commands.find((c) => c.name === 'echo')?.kind).toBe('builtin');
    expect(p.commands.find((c) => c.name === 'grep')?.kind).toBe('command');
    expect(p.external).toEqual([]);
  });

  it('reports a syntax error in the plan', () => {
    const { k } = kernel();
    expect(k.plan('if true; then').syntaxError?.message).toMatch(/unexpected end of file/);
  });
});

describe('host-defined commands', () => {
  it('get argv, stdin, env, cwd and the filesystem, and join pipelines', async () => {
    const { k } = kernel();
    k.defineCommand(
      'upper',
      async (ctx) => {
        const text = await readAll(ctx);
        const file = decodeBytes(await ctx.fs.readFile(`${ctx.cwd}/a.txt`));
        await ctx.stdout.write(
          encodeText(`${ctx.argv.slice(1).join(',')}|${ctx.env.get('V')}|${text.toUpperCase()}${file}`),
        );
        return 0;
      },
      { help: 'upper: shout' },
    );
    const r = await k.exec(
      'export V=v; echo abc | upper x y | while read l; do echo "<$l>"; done; type -t upper',
    );
    // A registered command is a file on the PATH for `type`, as a real command is.
    expect(r.stdout).toBe('<x,y|v|ABC>\n<alpha>\nfile\n');
  });

  it('get the cancellation signal when the call times out', async () => {
    const { k } = kernel();
    let sawAbort = false;
    k.defineCommand(
      'wait-forever',
      (ctx) =>
        new Promise((resolve) => {
          ctx.signal.addEventListener('abort', () => {
            sawAbort = true;
            resolve(1);
          });
        }),
    );
    const r = await k.exec('wait-forever', { timeoutMs: 100 });
    expect(r.exitCode).toBe(124);
    expect(sawAbort).toBe(true);
  });

  it('pass structured data through a pipe alongside the bytes', async () => {
    const { k } = kernel();
    k.defineCommand('produce', async (ctx) => {
      ctx.stdout.attachData({ rows: [1, 2, 3] });
      await ctx.stdout.write(encodeText('1\n2\n3\n'));
      return 0;
    });
    k.defineCommand('consume', async (ctx) => {
      const bytes = await readAll(ctx);
      const data = (await ctx.stdin.data()) as { rows: number[] } | undefined;
      await ctx.stdout.write(
        encodeText(`${bytes.split('\n').length - 1} lines, sum ${data?.rows.reduce((a, b) => a + b, 0)}\n`),
      );
      return 0;
    });
    expect((await k.exec('produce | consume')).stdout).toBe('3 lines, sum 6\n');
  });

  it('can run commands through the dispatcher, which resolves functions and builtins', async () => {
    const { k } = kernel();
    k.defineCommand('each', async (ctx) => {
      for (const w of (await readAll(ctx)).split(/\s+/).filter(Boolean)) {
        const status = await ctx.dispatch.run([ctx.argv[1] as string, w], {
          stdin: { read: async () => null, unread: () => {}, data: async () => undefined, close: () => {} },
          stdout: ctx.stdout,
          stderr: ctx.stderr,
        });
        if (status !== 0) return status;
      }
      return 0;
    });
    const r = await k.exec(
      'greet() { echo "hello $1"; }; echo a b | each greet; echo x | each nosuch; echo $?',
    );
    expect(r.stdout).toBe('hello a\nhello b\n127\n');
  });

  it('holds the watchdog patiently within its own budget', async () => {
    const { k } = kernel();
    k.defineCommand('slow', async (ctx) => {
      const hold = ctx.hold?.(2000, 'slow service');
      await new Promise((resolve) => setTimeout(resolve, 400));
      hold?.release();
      await ctx.stdout.write(encodeText('done\n'));
      return 0;
    });
    const r = await k.exec('slow; echo after', { timeoutMs: 200 });
    expect(r.stdout).toBe('done\nafter\n');
    expect(r.exitCode).toBe(0);
    expect(r.holds.length).toBe(1);
    expect(r.holds[0]?.reason).toBe('slow service');
  });

  it('a hold past its budget ends with the call timing out', async () => {
    const { k } = kernel();
    k.defineCommand('slower', async (ctx) => {
      const hold = ctx.hold?.(100, 'too slow');
      await new Promise((resolve) => {
        const t = setTimeout(resolve, 3000);
        ctx.signal.addEventListener('abort', () => {
          clearTimeout(t);
          resolve(undefined);
        });
      });
      hold?.release();
      return 0;
    });
    const started = Date.now();
    const r = await k.exec('slower; echo never', { timeoutMs: 100 });
    expect(r.exitCode).toBe(124);
    expect(Date.now() - started).toBeLessThan(2500);
  });
});

describe('the external-command gate', () => {
  function fakeContext(): { context: ExecutionContext; ran: string[] } {
    const ran: string[] = [];
    const context = {
      async exec(_handle: ContextHandle, command: string) {
        ran.push(command);
        return {
          exitCode: 0,
          signal: null,
          stdout: `ran ${command}\n`,
          stderr: '',
          timedOut: false,
          aborted: false,
          durationMs: 1,
          stdoutFacts: { bytesTotal: 0, truncated: false, omittedBytes: 0, spillPath: null },
          stderrFacts: { bytesTotal: 0, truncated: false, omittedBytes: 0, spillPath: null },
        };
      },
    } as unknown as ExecutionContext;
    return { context, ran };
  }

  it('is off by default: nothing leaves the kernel', async () => {
    const { k } = kernel();
    // curl is a built-in command now (network only with an allowlist); lsblk exists on no side.
    const r = await k.exec('lsblk -a; echo $?');
    expect(r.stdout).toBe('127\n');
    expect(r.stderr).toContain('lsblk: command not found');
  });

  it('runs only the allowed commands on the context', async () => {
    const { context, ran } = fakeContext();
    const { k } = kernel({ external: { context, handle: {} as ContextHandle, allow: ['lsblk'] } });
    const r = await k.exec('lsblk -a; nc x; echo $?');
    expect(r.stdout).toBe('ran lsblk -a\n127\n');
    expect(ran).toEqual(['lsblk -a']);
    expect(await k.classify('lsblk')).toBe('external');
  });

  it('never hands an empty command name to the gate, even when its predicate allows everything', async () => {
    const { context, ran } = fakeContext();
    const { k } = kernel({ external: { context, handle: {} as ContextHandle, allow: () => true } });
    const r = await k.exec('x=; "$x"; echo $?; if \'\'; then echo yes; else echo no; fi');
    expect(ran).toEqual([]);
    expect(r.stdout).toBe('127\nno\n');
    expect(r.stderr).toBe('bash: line 1: : command not found\nbash: line 1: : command not found\n');
  });

  it('applies to what the dispatcher runs (a command never smuggles a refused one)', async () => {
    const { context, ran } = fakeContext();
    const { k } = kernel({ external: { context, handle: {} as ContextHandle, allow: ['lsblk'] } });
    k.defineCommand('run', (ctx) =>
      ctx.dispatch.run(ctx.argv.slice(1), { stdin: ctx.stdin, stdout: ctx.stdout, stderr: ctx.stderr }),
    );
    const r = await k.exec('run nc x; echo $?; run lsblk; command nc; echo $?');
    expect(ran).toEqual(['lsblk']);
    expect(r.stdout).toBe('127\nran lsblk\n127\n');
  });
});

describe('trash', () => {
  it('snapshots a file before a redirection truncates it, under set -o trash', async () => {
    const trash = createTrash();
    const { fs, k } = kernel({ trash });
    await k.exec('echo one > f; echo two > f; set -o trash; echo three > f; echo four >> f');
    const entries = trash.entries();
    expect(entries.length).toBe(1);
    expect(entries[0]?.path).toBe('/work/f');
    expect(decodeBytes(await fs.readFile(entries[0]?.copy as string))).toBe('two\n');
    await trash.restore(fs, entries[0] as (typeof entries)[number]);
    expect(decodeBytes(await fs.readFile('/work/f'))).toBe('two\n');
    expect((await k.exec('set -o | grep -c trash')).stdout).toBe('0\n');
  });
});

describe('MCP tools as commands', () => {
  const client = {
    calls: [] as unknown[],
    async listTools() {
      return {
        tools: [
          {
            name: 'search',
            description: 'Search the docs.',
            inputSchema: {
              type: 'object',
              properties: {
                query: { type: 'string' },
                limit: { type: 'integer' },
                exact: { type: 'boolean' },
              },
              required: ['query'],
            },
          },
          { name: 'fail', inputSchema: { type: 'object', properties: {} } },
        ],
      };
    },
    async callTool(params: { name: string; arguments?: Record<string, unknown> }) {
      this.calls.push(params);
      if (params.name === 'fail') return { content: [{ type: 'text', text: 'it broke' }], isError: true };
      return {
        content: [{ type: 'text', text: `found ${JSON.stringify(params.arguments)}` }],
        structuredContent: { hits: 2 },
      };
    },
  };

  it('mounts each tool with a prefix; flags and JSON on stdin become its arguments', async () => {
    const { k } = kernel();
    const names = await k.mountMcpTools(client, { prefix: 'docs_' });
    expect(names).toEqual(['docs_search', 'docs_fail']);
    const r = await k.exec(
      'docs_search --query "a b" --limit 3 --exact; echo \'{"query":"q"}\' | docs_search; docs_fail; echo $?; docs_search --nope 1; echo $?; docs_search --help | head -1 2>/dev/null || docs_search --help | while read -r l; do echo "$l"; break; done',
    );
    expect(r.stdout).toContain('found {"query":"a b","limit":3,"exact":true}\n');
    expect(r.stdout).toContain('found {"query":"q"}\n');
    expect(r.stdout).toContain('1\n2\n');
    expect(r.stdout).toContain('Usage: docs_search');
    expect(r.stderr).toContain('docs_fail: it broke');
    expect(r.stderr).toContain("unknown option '--nope'");
  });
});
