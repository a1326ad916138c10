// The Oils spec helpers of `spec/bin/` (`argv.py`, `printenv.py`, ...) as commands of the
// kernel, byte for byte what the Python 2 originals print (their `repr` of byte strings).

const enc = new TextEncoder();

/** Python 2's repr of a byte string. */
export function py2repr(bytes) {
  const hasSingle = bytes.includes(0x27);
  const hasDouble = bytes.includes(0x22);
  const quote = hasSingle && !hasDouble ? '"' : "'";
  let out = quote;
  for (const b of bytes) {
    if (b === 0x5c) out += '\\\\';
    else if (b === 0x0a) out += '\\n';
    else if (b === 0x0d) out += '\\r';
    else if (b === 0x09) out += '\\t';
    else if (b === quote.charCodeAt(0)) out += `\\${quote}`;
    else if (b < 0x20 || b >= 0x7f) out += `\\x${b.toString(16).padStart(2, '0')}`;
    else out += String.fromCharCode(b);
  }
  return out + quote;
}

/** The text of a string as the bytes the kernel would write (surrogate-escaped bytes kept). */
function bytesOf(s, encodeText) {
  return encodeText(s);
}

async function write(w, text) {
  await w.write(typeof text === 'string' ? enc.encode(text) : text);
}

function concat(parts) {
  const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
  }
  return all;
}

/** Handlers by file name; each gets a `CommandContext`. `encodeText` is the kernel's. */
export function oilsHelpers(encodeText) {
  return {
    'argv.py': async (ctx) => {
      const items = ctx.argv.slice(1).map((a) => py2repr(bytesOf(a, encodeText)));
      await write(ctx.stdout, `[${items.join(', ')}]\n`);
      return 0;
    },
    'printenv.py': async (ctx) => {
      let out = '';
      for (const name of ctx.argv.slice(1)) out += `${ctx.env.get(name) ?? 'None'}\n`;
      await write(ctx.stdout, out);
      return 0;
    },
    'stdout_stderr.py': async (ctx) => {
      const [, out = 'STDOUT', err = 'STDERR', status = '0'] = ctx.argv;
      // stderr is unbuffered, stdout (a pipe or a file here) is flushed at exit.
      await write(ctx.stderr, `${err}\n`);
      await write(ctx.stdout, `${out}\n`);
      return Number.parseInt(status, 10) || 0;
    },
    'read_from_fd.py': async (ctx) => {
      // Python's stdout to a pipe is block-buffered: what it prints leaves in one write at exit.
      const out = [];
      for (const arg of ctx.argv.slice(1)) {
        const fd = Number.parseInt(arg, 10);
        let data;
        try {
          const h = await ctx.fs.open(`/dev/fd/${fd}`, { read: true });
          data = await h.read(1024);
          await h.close();
        } catch {
          await write(ctx.stdout, concat(out));
          await write(ctx.stderr, `FATAL: Error reading from fd ${fd}: [Errno 9] Bad file descriptor\n`);
          return 1;
        }
        out.push(enc.encode(`${fd}: `), data);
      }
      await write(ctx.stdout, concat(out));
      return 0;
    },
  };
}
