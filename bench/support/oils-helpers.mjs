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
      await write(ctx.stdout, `${out}\n`);
      await write(ctx.stderr, `${err}\n`);
      return Number.parseInt(status, 10) || 0;
    },
    'read_from_fd.py': async (ctx) => {
      for (const arg of ctx.argv.slice(1)) {
        const fd = Number.parseInt(arg, 10);
        let data;
        try {
          const h = await ctx.fs.open(`/dev/fd/${fd}`, { read: true });
          data = await h.read(1024);
          await h.close();
        } catch {
          await write(ctx.stderr, `FATAL: Error reading from fd ${fd}: [Errno 9] Bad file descriptor\n`);
          return 1;
        }
        await write(ctx.stdout, `${fd}: `);
        await write(ctx.stdout, data);
      }
      return 0;
    },
  };
}
