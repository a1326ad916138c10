/**
 * awk behaviour the differential corpus cannot show: bounds, cancellation, streaming, byte
 * exactness, the dispatcher, and the command's registration.
 */
import { describe, expect, it } from 'vitest';
import { awkCommand } from '../../../src/commands/awk/awk.js';
import { DEFAULT_AWK_LIMITS } from '../../../src/commands/awk/limits.js';
import { readerFromBytes } from '../../../src/commands/byte-io.js';
import { createBytePipe } from '../../../src/commands/byte-pipe.js';
import type { ByteReader, CommandHandler } from '../../../src/commands/command.js';
import { builtinCommands } from '../../../src/commands/registry.js';
import { runStandalone } from '../../../src/commands/standalone.js';
import { createMemoryFilesystem } from '../../../src/vfs/index.js';
import { hostShell } from './support/host-shell.js';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const dec = (b: Uint8Array): string => new TextDecoder().decode(b);

interface RunOptions {
  readonly stdin?: Uint8Array | ByteReader;
  readonly files?: Record<string, string | Uint8Array>;
  readonly signal?: AbortSignal;
  readonly limits?: Partial<typeof DEFAULT_AWK_LIMITS>;
  readonly commands?: ReadonlyMap<string, CommandHandler>;
}

async function awk(args: readonly string[], o: RunOptions = {}) {
  const fs = createMemoryFilesystem();
  await fs.mkdir('/work', { recursive: true });
  for (const [name, content] of Object.entries(o.files ?? {})) {
    const path = `/work/${name}`;
    await fs.mkdir(path.slice(0, path.lastIndexOf('/')), { recursive: true });
    await fs.writeFile(path, typeof content === 'string' ? enc(content) : content);
  }
  const handler = awkCommand('awk', { ...DEFAULT_AWK_LIMITS, ...o.limits }).run;
  const r = await runStandalone(handler, {
    argv: ['awk', ...args],
    fs,
    cwd: '/work',
    stdin: o.stdin,
    signal: o.signal,
    commands: o.commands,
    env: { TZ: 'UTC' },
  });
  return { ...r, out: dec(r.stdout), err: dec(r.stderr), fs };
}

/**
 * Run `work` with a signal that a host interval aborts on its fifth tick: the work can only end
 * (with the cancelled status) if the host's timers keep firing while it runs.
 */
async function abortedByTimer<T>(
  work: (signal: AbortSignal) => Promise<T>,
): Promise<{ result: T; ticks: number }> {
  const ac = new AbortController();
  let ticks = 0;
  const timer = setInterval(() => {
    ticks += 1;
    if (ticks === 5) ac.abort();
  }, 5);
  try {
    const result = await work(ac.signal);
    return { result, ticks };
  } finally {
    clearInterval(timer);
  }
}

describe('awk: the host is never held', () => {
  it('an endless loop ends at the abort while host timers keep firing', async () => {
    const { result, ticks } = await abortedByTimer((signal) => awk(['BEGIN { while (1) x++ }'], { signal }));
    expect(result.status).toBe(143);
    expect(ticks).toBeGreaterThanOrEqual(5);
  });

  it('an endless loop in END and in a function ends too', async () => {
    for (const prog of [
      'END { for (;;) n++ }',
      'function f() { while (1) ; } BEGIN { f() }',
      'BEGIN { do x++; while (1) }',
    ]) {
      const { result, ticks } = await abortedByTimer((signal) => awk([prog], { signal }));
      expect(result.status, prog).toBe(143);
      expect(ticks, prog).toBeGreaterThanOrEqual(5);
    }
  });

  it('exponential recursion without a loop still yields to the host', async () => {
    const { result, ticks } = await abortedByTimer((signal) =>
      awk(['function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2) } BEGIN { print fib(60) }'], {
        signal,
      }),
    );
    expect(result.status).toBe(143);
    expect(ticks).toBeGreaterThanOrEqual(5);
  });

  it('deep recursion works beyond the host stack, and endless recursion hits the depth limit', async () => {
    const deep = await awk(['function f(n) { return n == 0 ? 0 : 1 + f(n - 1) } BEGIN { print f(30000) }']);
    expect(deep.out).toBe('30000\n');
    const endless = await awk(['function f(n) { return f(n + 1) } BEGIN { f(0) }'], {
      limits: { maxCallDepth: 5000 },
    });
    expect(endless.status).toBe(2);
    expect(endless.err).toBe(
      "awk: cmd. line:1: fatal: function `f' nested deeper than 5000 calls (the limit of this shell)\n",
    );
  });

  it('a record loop over endless input ends at the abort', async () => {
    const pipe = createBytePipe();
    let writing = true;
    const feed = (async () => {
      while (writing) await pipe.writer.write(enc('a b c\n'.repeat(1000))).catch(() => {});
    })();
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 100);
    const r = await awk(['{ n += NF } END { print n }'], { stdin: pipe.reader, signal: ac.signal });
    writing = false;
    pipe.reader.close();
    await feed;
    expect(r.status).toBe(143);
  });
});

describe('awk: bounds', () => {
  it('a string cannot grow past the limit', async () => {
    const r = await awk(['BEGIN { s = "x"; while (1) s = s s }'], { limits: { maxStringChars: 1 << 20 } });
    expect(r.status).toBe(2);
    expect(r.err).toBe(
      'awk: cmd. line:1: fatal: string longer than 1048576 characters (the limit of this shell)\n',
    );
  });

  it('arrays cannot hold more than the element budget', async () => {
    const r = await awk(['BEGIN { while (1) a[i++] = i }'], { limits: { maxArrayElements: 10_000 } });
    expect(r.status).toBe(2);
    expect(r.err).toBe('awk: fatal: arrays hold more than 10000 elements in all (the limit of this shell)\n');
  });

  it('field numbers and NF are bounded', async () => {
    const a = await awk(['{ $3000001 = 1 }'], { stdin: enc('x\n') });
    expect(a.status).toBe(2);
    expect(a.err).toContain('field number 3000001 is beyond the limit of 2000000 fields of this shell');
    const b = await awk(['{ NF = 1e9 }'], { stdin: enc('x\n') });
    expect(b.status).toBe(2);
    expect(b.err).toContain('NF set to 1000000000, beyond the limit of 2000000 fields of this shell');
  });

  it('printf widths and precisions are bounded, and huge precisions stay exact and fast', async () => {
    const r = await awk(['BEGIN { printf "%1000000000d", 1 }'], { limits: { maxStringChars: 1 << 20 } });
    expect(r.status).toBe(2);
    expect(r.err).toContain("field width or precision in `%1000000000d' is beyond the 1048576 characters");
    const p = await awk([
      'BEGIN { x = sprintf("%.5000f", 1/3); print length(x), substr(x, 1, 20), substr(x, 4990) }',
    ]);
    expect(p.out).toBe('5002 0.333333333333333314 0000000000000\n');
  });

  it('a program nested beyond the host stack is refused clearly, not as an internal error', async () => {
    const deep = await awk([`BEGIN { x = ${'('.repeat(5000)}1${')'.repeat(5000)} }`]);
    expect(deep.status).toBe(2);
    expect(deep.err).toBe('awk: fatal: program nested too deeply for this shell\n');
    const long = await awk([`BEGIN { x = 1${' + 1'.repeat(50_000)}; print x }`]);
    expect(long.status).toBe(2);
    expect(long.err).toBe('awk: fatal: program nested too deeply for this shell\n');
    const fine = await awk([`BEGIN { x = ${'('.repeat(200)}1${')'.repeat(200)}; print x + 1 }`]);
    expect(fine.out).toBe('2\n');
  });

  it('an input record longer than the limit fails clearly', async () => {
    const r = await awk(['{ n++ } END { print n }'], {
      stdin: enc(`${'x'.repeat(300_000)}\n`),
      limits: { maxStringChars: 100_000 },
    });
    expect(r.status).toBe(2);
    expect(r.err).toContain('input record longer than 100000 characters (the limit of this shell)');
  });

  it('open redirections are bounded', async () => {
    const r = await awk(['BEGIN { for (i = 0; i < 10; i++) print i > ("f" i) }'], {
      limits: { maxOpenStreams: 4 },
    });
    expect(r.status).toBe(2);
    expect(r.err).toContain('more than 4 files and commands open at once');
  });
});

describe('awk: input and output', () => {
  it('passes every byte through unchanged', async () => {
    const all = new Uint8Array(256);
    for (let i = 0; i < 256; i += 1) all[i] = i;
    const r = await awk(['{ print }'], { stdin: all });
    const expected = new Uint8Array([...all, 10]);
    expect(Buffer.from(r.stdout).equals(Buffer.from(expected))).toBe(true);
  });

  it('keeps invalid UTF-8 byte-exact through field splitting and joining', async () => {
    const input = new Uint8Array([0xff, 0x20, 0xc3, 0x28, 0x20, 0x80, 0x0a]);
    const r = await awk(['{ $1 = $1; print $3, $2, $1 }']);
    void r;
    const s = await awk(['{ t = $3; $3 = $1; $1 = t; print }'], { stdin: input });
    expect([...s.stdout]).toEqual([0x80, 0x20, 0xc3, 0x28, 0x20, 0xff, 0x0a]);
  });

  it('reads a character split across chunks whole', async () => {
    const bytes = enc('é€😀\n');
    const chunks = [...bytes].map((b) => new Uint8Array([b]));
    const r = await awk(['{ print length($0), $0 }'], { stdin: readerFromBytes(chunks) });
    expect(r.out).toBe('3 é€😀\n');
  });

  it('handles empty input, a last line without newline, and huge lines', async () => {
    expect((await awk(['{ n++ } END { print n + 0 }'], { stdin: new Uint8Array() })).out).toBe('0\n');
    expect((await awk(['{ print NR ":" $0 }'], { stdin: enc('a\nb') })).out).toBe('1:a\n2:b\n');
    const big = 'y'.repeat(5_000_000);
    const r = await awk(['{ print length($0), substr($0, 4999999) }'], { stdin: enc(`${big}\n`) });
    expect(r.out).toBe('5000000 yy\n');
  });

  it('handles records with a million fields', async () => {
    const line = Array.from({ length: 1_000_000 }, (_, i) => i % 10).join(' ');
    const r = await awk(['{ for (i = 1; i <= NF; i++) s += $i; print NF, $NF, s }'], {
      stdin: enc(`${line}\n`),
    });
    expect(r.out).toBe('1000000 9 4500000\n');
  });

  it('streams: a large input through bounded pipes on both sides completes', async () => {
    const input = createBytePipe();
    const line = 'alpha beta gamma 42\n';
    const total = 200_000;
    const feed = (async () => {
      for (let i = 0; i < total; i += 1000) await input.writer.write(enc(line.repeat(1000)));
      await input.writer.close();
    })();
    const out = createBytePipe();
    let bytes = 0;
    const drain = (async () => {
      for (;;) {
        const c = await out.reader.read();
        if (c === null) break;
        bytes += c.length;
      }
    })();
    const fs = createMemoryFilesystem();
    const handler = awkCommand('awk').run;
    const { createCooperate } = await import('../../../src/commands/cooperate.js');
    const status = await handler({
      argv: ['awk', '{ print $4, $1 }'],
      stdin: input.reader,
      stdout: out.writer,
      stderr: out.writer,
      env: new Map(),
      cwd: '/',
      fs,
      signal: new AbortController().signal,
      dispatch: { run: async () => 127, classify: () => 'not-found' },
      cooperate: createCooperate(),
    });
    await out.writer.close();
    await Promise.all([feed, drain]);
    expect(status).toBe(0);
    expect(bytes).toBe(total * '42 alpha\n'.length);
  });

  it('ends quietly with the SIGPIPE status when its reader goes away', async () => {
    const out = createBytePipe({ capacityBytes: 1024 });
    const reading = (async () => {
      await out.reader.read();
      out.reader.close();
    })();
    const fs = createMemoryFilesystem();
    const { createCooperate } = await import('../../../src/commands/cooperate.js');
    const err: Uint8Array[] = [];
    const status = await awkCommand('awk').run({
      argv: ['awk', 'BEGIN { while (1) print "y" }'],
      stdin: readerFromBytes([]),
      stdout: out.writer,
      stderr: { write: async (b) => void err.push(b), attachData: () => {}, close: async () => {} },
      env: new Map(),
      cwd: '/',
      fs,
      signal: new AbortController().signal,
      dispatch: { run: async () => 127, classify: () => 'not-found' },
      cooperate: createCooperate(),
    });
    await reading;
    expect(status).toBe(141);
    expect(err).toEqual([]);
  });

  it('writes files through the filesystem and reads them back', async () => {
    const r = await awk(
      [
        '{ print $2 > "out/x.txt"; print $1 >> "log" } END { close("out/x.txt"); while ((getline l < "out/x.txt") > 0) print "read", l }',
      ],
      {
        stdin: enc('a 1\nb 2\n'),
        files: { 'out/.keep': '', log: 'old\n' },
      },
    );
    expect(r.out).toBe('read 1\nread 2\n');
    expect(dec(await r.fs.readFile('/work/out/x.txt'))).toBe('1\n2\n');
    expect(dec(await r.fs.readFile('/work/log'))).toBe('old\na\nb\n');
  });

  it('reads its program from -f files in the filesystem, relative to the working directory', async () => {
    const r = await awk(['-f', 'lib.awk', '-f', 'main.awk', 'data'], {
      files: {
        'lib.awk': 'function double(x) { return 2 * x }\n',
        'main.awk': '{ print double($1) }\n',
        data: '4\n21\n',
      },
    });
    expect(r.out).toBe('8\n42\n');
  });
});

describe('awk: commands run through the dispatcher', () => {
  const commands = new Map<string, CommandHandler>([['sh', hostShell]]);

  it('system(), print | cmd and cmd | getline go through `sh -c` of the shell', async () => {
    const r = await awk(
      [
        'BEGIN { print "b\\na" | "sort"; close("sort"); "echo from-sh" | getline x; print x; print system("exit 3") }',
      ],
      {
        commands,
      },
    );
    expect(r.out).toBe('a\nb\nfrom-sh\n3\n');
  });

  it('without an `sh` in the shell, says so and returns 127', async () => {
    const seen: string[][] = [];
    const spy: CommandHandler = async (ctx) => {
      seen.push([...ctx.argv]);
      return 0;
    };
    const r = await awk(['BEGIN { print system("ls -l") }']);
    expect(r.out).toBe('127\n');
    expect(r.err).toBe("awk: warning: cannot run `ls -l': this shell has no `sh' command\n");
    const s = await awk(['BEGIN { system("ls -l"); "date" | getline d }'], {
      commands: new Map([['sh', spy]]),
    });
    expect(s.status).toBe(0);
    expect(seen).toEqual([
      ['sh', '-c', 'ls -l'],
      ['sh', '-c', 'date'],
    ]);
  });

  it('--sandbox refuses system() and redirections', async () => {
    const r = await awk(['-S', 'BEGIN { system("true") }'], { commands });
    expect(r.status).toBe(2);
    expect(r.err).toBe("awk: cmd. line:1: fatal: 'system' function not allowed in sandbox mode\n");
  });
});

describe('awk: the command', () => {
  it('is registered as awk and gawk, with help and version', async () => {
    const all = builtinCommands();
    expect(all.get('awk')?.name).toBe('awk');
    expect(all.get('gawk')?.help).toContain(
      'Usage: gawk [POSIX or GNU style options] -f progfile [--] file ...',
    );
    const v = await awk(['--version']);
    expect(v.status).toBe(0);
    expect(v.out.split('\n')[0]).toMatch(/^GNU Awk 5\.2\.1/);
    const h = await awk(['--help']);
    expect(h.status).toBe(0);
    expect(h.out).toContain("Usage: awk [POSIX or GNU style options] [--] 'program' file ...");
  });

  it('refuses options whose results it does not reproduce', async () => {
    const r = await awk(['-M', 'BEGIN { print 2^100 }']);
    expect(r.status).toBe(2);
    expect(r.err).toBe("awk: fatal: option `-M' is not supported by this shell\n");
  });

  it('names itself in messages by the name it was called by', async () => {
    const r = await awk(['BEGIN { x = }']);
    expect(r.err).toBe('awk: cmd. line:1: BEGIN { x = }\nawk: cmd. line:1:             ^ syntax error\n');
    expect(r.status).toBe(1);
  });

  it('takes the time zone from TZ', async () => {
    const fs = createMemoryFilesystem();
    const r = await runStandalone(awkCommand('awk').run, {
      argv: ['awk', 'BEGIN { print strftime("%H:%M %Z", 0), mktime("1970 01 01 01 00 00") }'],
      fs,
      env: { TZ: 'Europe/Paris' },
    });
    expect(dec(r.stdout)).toBe('01:00 CET 0\n');
  });
});
