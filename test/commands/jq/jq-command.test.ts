/**
 * The `jq` command in the virtual shell: what the differential corpus cannot show (streams through
 * pipes, structured data in and out, abort, broken pipes, files from the virtual filesystem, very
 * large and very deep inputs), plus the options and statuses jq 1.7.1 documents.
 */
import { describe, expect, it } from 'vitest';
import { readerFromBytes } from '../../../src/commands/byte-io.js';
import { createBytePipe } from '../../../src/commands/byte-pipe.js';
import type { ByteReader, CommandContext } from '../../../src/commands/command.js';
import { createCooperate } from '../../../src/commands/cooperate.js';
import { jqCommand } from '../../../src/commands/jq/index.js';
import { builtinCommands } from '../../../src/commands/registry.js';
import { runStandalone } from '../../../src/commands/standalone.js';
import { createMemoryFilesystem } from '../../../src/vfs/index.js';

const enc = new TextEncoder();
const dec = new TextDecoder();

interface Ran {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly data: unknown;
}

async function jq(
  argv: readonly string[],
  stdin: string | Uint8Array | ByteReader = '',
  files: Record<string, string> = {},
): Promise<Ran> {
  const fs = createMemoryFilesystem();
  await fs.mkdir('/work', { recursive: true });
  for (const [name, text] of Object.entries(files)) {
    const path = `/work/${name}`;
    await fs.mkdir(path.slice(0, path.lastIndexOf('/')), { recursive: true });
    await fs.writeFile(path, enc.encode(text));
  }
  const r = await runStandalone(jqCommand.run, {
    argv: ['jq', ...argv],
    fs,
    cwd: '/work',
    stdin: typeof stdin === 'string' ? enc.encode(stdin) : stdin,
    env: { HOME: '/home/u', PATH: '/bin' },
  });
  return { status: r.status, stdout: dec.decode(r.stdout), stderr: dec.decode(r.stderr), data: r.data };
}

describe('jq as a command', () => {
  it('is registered among the built-in commands', () => {
    expect(builtinCommands().get('jq')).toBe(jqCommand);
  });

  it('says its version and prints its help', async () => {
    expect(await jq(['--version'])).toMatchObject({ status: 0, stdout: 'jq-1.7.1\n' });
    const help = await jq(['--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^Usage:\tjq \[options\] <jq filter> \[file\.\.\.\]/m);
    expect(help.stdout).toContain('--arg name value');
    expect((await jq(['-h'])).stdout).toBe(help.stdout);
  });

  it('runs `.` when no program is given and input is not a terminal', async () => {
    expect(await jq([], '{"a":1}')).toMatchObject({ status: 0, stdout: '{\n  "a": 1\n}\n' });
  });

  it('parses option clusters as jq does', async () => {
    expect((await jq(['-nr', '"x"'])).stdout).toBe('x\n');
    expect((await jq(['-cn', '[1,2]'])).stdout).toBe('[1,2]\n');
    expect((await jq(['-nj', '"a", "b"'])).stdout).toBe('ab');
    expect((await jq(['-n', '--indent', '1', '[1]'])).stdout).toBe('[\n 1\n]\n');
    expect((await jq(['-n', '--tab', '{"a":[1]}'])).stdout).toBe('{\n\t"a": [\n\t\t1\n\t]\n}\n');
    expect((await jq(['-nS', '-c', '{"b":1,"a":{"d":1,"c":2}}'])).stdout).toBe('{"a":{"c":2,"d":1},"b":1}\n');
    expect((await jq(['-na', '"é\\u0001"'])).stdout).toBe('"\\u00e9\\u0001"\n');
  });

  it('refuses bad options with status 2', async () => {
    const r = await jq(['-Z', '.']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^jq: Unknown option: -Z\nUse jq --help for help with command-line options,/);
    const indent = await jq(['--indent', '9', '.']);
    expect(indent.status).toBe(2);
    expect(indent.stderr).toMatch(/^jq: --indent takes a number between -1 and 7\n/);
    expect((await jq(['--arg', 'x'])).status).toBe(2);
    expect((await jq(['--argjson', 'x', '{', '.'])).stderr).toMatch(
      /^jq: invalid JSON text passed to --argjson\n/,
    );
  });

  it('binds --arg, --argjson, --args, --jsonargs, --slurpfile and --rawfile', async () => {
    const files = { 'v.json': '1 2\n', 'r.txt': 'raw\n' };
    const r = await jq(
      [
        '-nc',
        '--arg',
        'a',
        'x',
        '--argjson',
        'j',
        '{"k":1}',
        '--slurpfile',
        's',
        'v.json',
        '--rawfile',
        'r',
        'r.txt',
        '[$a, $j, $s, $r, $ARGS.named.a]',
      ],
      '',
      files,
    );
    expect(r).toMatchObject({ status: 0, stdout: '["x",{"k":1},[1,2],"raw\\n","x"]\n' });
    expect((await jq(['-nc', '$ARGS', '--args', 'p', 'q'])).stdout).toBe(
      '{"positional":["p","q"],"named":{}}\n',
    );
    expect((await jq(['-nc', '$ARGS.positional', '--jsonargs', '1', '{}'])).stdout).toBe('[1,{}]\n');
    expect((await jq(['-n', '--slurpfile', 's', 'nope.json', '.'])).stderr).toBe(
      'jq: Bad JSON in --slurpfile s nope.json: Could not open nope.json: No such file or directory\n',
    );
  });

  it('reads files from the virtual filesystem and names them in input_filename', async () => {
    const r = await jq(['-c', '[., input_filename]', 'a.json', 'sub/b.json'], '', {
      'a.json': '1\n2\n',
      'sub/b.json': '3',
    });
    expect(r.stdout).toBe('[1,"a.json"]\n[2,"a.json"]\n[3,"sub/b.json"]\n');
    const missing = await jq(['.', 'a.json', 'gone.json'], '', { 'a.json': '1' });
    expect(missing).toMatchObject({
      status: 2,
      stdout: '1\n',
      stderr: 'jq: error: Could not open file gone.json: No such file or directory\n',
    });
    expect(
      (await jq(['-f', 'prog.jq', 'a.json'], '', { 'prog.jq': '. + 1 # comment\n', 'a.json': '1' })).stdout,
    ).toBe('2\n');
  });

  it('reports invalid JSON with the line and column, status 5 (jq 1.7)', async () => {
    expect(await jq(['.'], '{"a":1}\n{"a" 2}')).toMatchObject({
      status: 5,
      stdout: '{\n  "a": 1\n}\n',
      stderr: 'jq: parse error: Expected separator between values at line 2, column 7\n',
    });
    expect((await jq(['-c', '.'], '[1,\n2')).stderr).toBe(
      'jq: parse error: Unfinished JSON term at EOF at line 2, column 1\n',
    );
    expect((await jq(['-c', '.'], '{"a":tru}')).stderr).toBe(
      'jq: parse error: Invalid literal at line 1, column 9\n',
    );
  });

  it("gives jq's statuses: 5 for a runtime error, 3 for a compile error, -e by the last output", async () => {
    expect(await jq(['.a'], '1')).toMatchObject({
      status: 5,
      stderr: 'jq: error (at <stdin>:0): Cannot index number with "a"\n',
    });
    const compile = await jq(['.a |'], '1');
    expect(compile.status).toBe(3);
    expect(compile.stderr).toMatch(/^jq: error: syntax error, unexpected end of file/);
    expect(compile.stderr).toMatch(/jq: 1 compile error\n$/);
    expect((await jq(['-e', '.'], 'null')).status).toBe(1);
    expect((await jq(['-e', '.'], '1')).status).toBe(0);
    expect((await jq(['-e', 'empty'], '1')).status).toBe(4);
    expect((await jq(['-n', 'halt_error'], '')).status).toBe(5);
    expect(await jq(['-n', '"bye\\n" | halt_error(3)'])).toMatchObject({ status: 3, stderr: 'bye\n' });
  });

  it('reads --seq and --stream input', async () => {
    expect((await jq(['-c', '--seq', '.'], '\u001e1\n\u001e[2]\n')).stdout).toBe('\u001e1\n\u001e[2]\n');
    expect((await jq(['-c', '--stream', '.'], '{"a":[1,2]}')).stdout).toBe(
      '[["a",0],1]\n[["a",1],2]\n[["a",1]]\n[["a"]]\n',
    );
    expect((await jq(['-c', '-n', '--stream', 'fromstream(inputs)'], '{"a":[1,2]} 3')).stdout).toBe(
      '{"a":[1,2]}\n3\n',
    );
  });

  it('reads raw lines and slurps', async () => {
    expect((await jq(['-R', '.'], 'a\nb')).stdout).toBe('"a"\n"b"\n');
    expect((await jq(['-Rs', '.'], 'a\nb')).stdout).toBe('"a\\nb"\n');
    expect((await jq(['-sc', '.'], '1 2 [3]')).stdout).toBe('[1,2,[3]]\n');
    expect((await jq(['-nc', '[inputs]'], '1 2')).stdout).toBe('[1,2]\n');
    expect((await jq(['-c', '[., input]'], '1 2 3 4')).stdout).toBe('[1,2]\n[3,4]\n');
    expect((await jq(['-c', 'input_line_number'], '1\n2\n\n3')).stdout).toBe('1\n2\n3\n');
  });

  it('decodes invalid UTF-8 as jq does (U+FFFD)', async () => {
    const bytes = Uint8Array.of(0x22, 0x61, 0xff, 0x62, 0x22);
    expect((await jq(['-c', '[., length]'], bytes)).stdout).toBe('["a\ufffdb",3]\n');
  });

  it('streams: prints each result before the input ends', async () => {
    const input = createBytePipe();
    const output = createBytePipe();
    const ctx: CommandContext = {
      argv: ['jq', '-c', '.a'],
      stdin: input.reader,
      stdout: output.writer,
      stderr: createBytePipe().writer,
      env: new Map(),
      cwd: '/',
      fs: createMemoryFilesystem(),
      signal: new AbortController().signal,
      dispatch: { run: async () => 127, classify: () => 'not-found' },
      cooperate: createCooperate(),
    };
    let seen = '';
    const readUntil = async (text: string): Promise<void> => {
      while (!seen.endsWith(text)) {
        const chunk = await output.reader.read();
        if (chunk === null) throw new Error(`output ended at ${JSON.stringify(seen)}`);
        seen += dec.decode(chunk);
      }
    };
    const running = jqCommand.run(ctx);
    // The first text waits until a second one starts (one text alone may be replaced by the
    // structured value upstream attached); from then on each result follows its input.
    await input.writer.write(enc.encode('{"a":1}\n'));
    await input.writer.write(enc.encode('{"a":2}\n'));
    await readUntil('1\n2\n');
    await input.writer.write(enc.encode('{"a":'));
    await input.writer.write(enc.encode('3}'));
    await readUntil('3\n');
    await input.writer.write(enc.encode('{}'));
    await input.writer.close();
    expect(await running).toBe(0);
    await output.writer.close();
    await readUntil('null\n');
  });

  it('waits for `input` to arrive', async () => {
    const input = createBytePipe();
    const output = createBytePipe();
    const ctx: CommandContext = {
      argv: ['jq', '-nc', '[input, input]'],
      stdin: input.reader,
      stdout: output.writer,
      stderr: createBytePipe().writer,
      env: new Map(),
      cwd: '/',
      fs: createMemoryFilesystem(),
      signal: new AbortController().signal,
      dispatch: { run: async () => 127, classify: () => 'not-found' },
      cooperate: createCooperate(),
    };
    const running = jqCommand.run(ctx);
    await input.writer.write(enc.encode('1 '));
    await new Promise((resolve) => setTimeout(resolve, 20));
    await input.writer.write(enc.encode('2 '));
    await input.writer.close();
    expect(dec.decode((await output.reader.read()) ?? undefined)).toBe('[1,2]\n');
    expect(await running).toBe(0);
  });

  it('uses the structured value upstream attached instead of parsing the bytes', async () => {
    const data = { ok: true, n: [1, 2] };
    const stdin = readerFromBytes(enc.encode('{"not":"this"}\n'), data);
    const r = await jq(['-c', '.n'], stdin);
    expect(r.stdout).toBe('[1,2]\n');
    expect(r.data).toEqual([1, 2]);
  });

  it('attaches its single JSON result to stdout, and nothing for raw or several outputs', async () => {
    expect((await jq(['-c', '{b: .a}'], '{"a":[1]}')).data).toEqual({ b: [1] });
    expect((await jq(['-r', '.'], '"s"')).data).toBeUndefined();
    expect((await jq(['.[]'], '[1,2]')).data).toBeUndefined();
  });

  it('exits 141 when its reader goes away', async () => {
    const output = createBytePipe({ capacityBytes: 1024 });
    const ctx: CommandContext = {
      argv: ['jq', '-n', 'repeat(1)'],
      stdin: readerFromBytes(new Uint8Array()),
      stdout: output.writer,
      stderr: createBytePipe().writer,
      env: new Map(),
      cwd: '/',
      fs: createMemoryFilesystem(),
      signal: new AbortController().signal,
      dispatch: { run: async () => 127, classify: () => 'not-found' },
      cooperate: createCooperate(),
    };
    const running = jqCommand.run(ctx);
    await output.reader.read();
    output.reader.close();
    expect(await running).toBe(141);
  });
});

describe('jq under hostile programs and inputs', () => {
  async function bounded(argv: readonly string[], stdin = '', ms = 300): Promise<Ran & { elapsed: number }> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new Error('timeout')), ms);
    const started = Date.now();
    try {
      const r = await runStandalone(jqCommand.run, {
        argv: ['jq', ...argv],
        fs: createMemoryFilesystem(),
        stdin: enc.encode(stdin),
        signal: controller.signal,
        maxOutputBytes: 1 << 20,
      });
      return {
        status: r.status,
        stdout: dec.decode(r.stdout),
        stderr: dec.decode(r.stderr),
        data: r.data,
        elapsed: Date.now() - started,
      };
    } finally {
      clearTimeout(timer);
    }
  }

  it.each([
    ['[repeat(1)]'],
    ['def f: f; f'],
    ['[range(1e9)] | length'],
    ['last(range(1e12))'],
    ['reduce range(1e12) as $x (0; . + 1)'],
    ['until(false; .)'],
    ['def f(x): f([x]); f(1)'],
    ['[limit(1e9; repeat("x"))] | add'],
  ])('%s stops when the kernel aborts it', async (program) => {
    const r = await bounded(['-n', program]);
    expect(r.status).toBe(130);
    expect(r.elapsed).toBeLessThan(3000);
  });

  it('lets timers run while a program computes (ctx.cooperate)', async () => {
    let ticks = 0;
    const interval = setInterval(() => {
      ticks += 1;
    }, 10);
    try {
      await bounded(['-n', 'def f: f; f'], '', 400);
    } finally {
      clearInterval(interval);
    }
    expect(ticks).toBeGreaterThan(5);
  });

  it('answers lazy programs over infinite generators at once', async () => {
    expect(
      (await bounded(['-nc', '[limit(3; repeat(1))], first(range(1e9)), nth(5; range(1e12))'])).stdout,
    ).toBe('[1,1,1]\n0\n5\n');
  });

  it('ends huge strings and arrays with jq-like errors', async () => {
    expect((await bounded(['-n', '"x" * 1e9'])).stderr).toBe(
      'jq: error (at <unknown>): Repeat string result too long\n',
    );
    expect((await bounded(['-n', '"x" * 1e8 | . + . | . + .'])).stderr).toBe(
      'jq: error (at <unknown>): String too long\n',
    );
    const r = await bounded(['-n', '[range(1e9)] | length'], '', 20000);
    expect(r.stderr === 'jq: error (at <unknown>): Array too large\n' || r.status === 130).toBe(true);
  });

  it('ends runaway recursion with an error instead of crashing', async () => {
    for (const program of ['def f: [f]; f', 'def f: 1 + f; f', '[recurse(. + 1)]']) {
      const r = await bounded(['-n', program], '', 20000);
      expect(r.status).toBe(5);
      expect(r.stderr).toMatch(
        /^jq: error \(at <unknown>\): (program nested too deeply|recurse deeper than)/,
      );
    }
  });

  it('runs deep tail recursion as a loop', async () => {
    expect(
      (await bounded(['-n', 'def f: if . < 1000000 then . + 1 | f else . end; 0 | f'], '', 20000)).stdout,
    ).toBe('1000000\n');
  });

  it('refuses input nested deeper than 10000 levels, as jq does', async () => {
    const deep = `${'['.repeat(10001)}${']'.repeat(10001)}`;
    const r = await bounded(['-c', 'length'], deep, 20000);
    expect(r.status).toBe(5);
    expect(r.stderr).toBe('jq: parse error: Exceeds depth limit for parsing at line 1, column 10001\n');
    const ok = `${'['.repeat(10000)}${']'.repeat(10000)}`;
    expect((await bounded(['-c', '[paths] | length'], ok, 20000)).stdout).toBe('9999\n');
  });

  it("prints values nested past the printer's depth without exhausting the stack", async () => {
    const r = await bounded(['-c', 'reduce range(20000) as $i (0; [.]) | tojson | length'], 'null', 20000);
    expect(r.status).toBe(0);
  });

  it('reads a large input in one pass', async () => {
    const big = `[${Array.from({ length: 200000 }, (_, i) => `{"i":${i},"ok":${i % 2 === 0}}`).join(',')}]`;
    const r = await bounded(['[.[] | select(.ok)] | length'], big, 30000);
    expect(r.stdout).toBe('100000\n');
    const many = Array.from({ length: 100000 }, (_, i) => `${i}`).join('\n');
    expect((await bounded(['-n', 'reduce inputs as $x (0; . + $x)'], many, 30000)).stdout).toBe(
      '4999950000\n',
    );
  });
});
