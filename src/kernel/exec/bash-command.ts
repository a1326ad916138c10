/**
 * `bash` and `sh` as commands inside the kernel: `bash -c 'cmd' name args`, `bash script args`,
 * `bash < script` (the script on stdin), with the usual flags (`-e -u -x -v -n -f -o NAME
 * --posix --norc --noprofile`). Each runs as a new shell process of the kernel: nothing leaves it.
 * @module
 */
import { decodeBytes } from '../../commands/byte-text.js';
import { optionForLetter, SET_OPTION_NAMES, SHOPT_NAMES } from '../runtime/options.js';
import { resolvePath } from '../runtime/paths.js';
import type { Shell } from '../runtime/shell.js';
import { writeStderr } from './messages.js';
import { runShellProcess } from './process.js';
import { readUntil } from './read-input.js';

export async function runBashCommand(
  sh: Shell,
  argv: readonly string[],
  env: ReadonlyMap<string, string> | undefined,
): Promise<number> {
  const name = argv[0] ?? 'bash';
  const sets: [string, boolean][] = [];
  const shopts: [string, boolean][] = [];
  let command: string | undefined;
  let i = 1;
  let fromStdin = false;
  let interactive = false;
  let rcfile: string | null | undefined;
  for (; i < argv.length; i += 1) {
    const a = argv[i] as string;
    if (a === '--' || a === '-') {
      i += 1;
      break;
    }
    if (a === '--rcfile' || a === '--init-file') {
      rcfile = argv[i + 1] ?? null;
      i += 1;
      continue;
    }
    if (a === '--norc') {
      rcfile = null;
      continue;
    }
    if (a.startsWith('--')) {
      if (
        ['--norc', '--noprofile', '--posix', '--login', '--noediting', '--restricted', '--verbose'].includes(
          a,
        )
      ) {
        if (a === '--verbose') sets.push(['verbose', true]);
        continue;
      }
      if (a === '--help') {
        await writeOut(sh, BASH_HELP);
        return 0;
      }
      if (a === '--version') {
        await writeOut(sh, 'GNU bash, version 5.2.15(1)-release (x86_64-pc-linux-gnu)\n');
        return 0;
      }
      await writeStderr(sh, `${name}: ${a}: invalid option\n`);
      return 2;
    }
    if ((a.startsWith('-') || a.startsWith('+')) && a.length > 1) {
      const on = a[0] === '-';
      for (let j = 1; j < a.length; j += 1) {
        const c = a[j] as string;
        if (c === 'c') command = '';
        else if (c === 's') fromStdin = true;
        else if (c === 'i') interactive = true;
        else if (c === 'l' || c === 'r') continue;
        else if (c === 'O') {
          // `bash -O nullglob`: a shopt option at invocation.
          const opt = argv[i + 1];
          i += 1;
          if (opt === undefined || !SHOPT_NAMES.has(opt)) {
            await writeStderr(sh, `${name}: ${opt ?? ''}: invalid shell option name\n`);
            return 2;
          }
          shopts.push([opt, on]);
        } else if (c === 'o') {
          const opt = argv[i + 1];
          i += 1;
          if (opt === undefined || !SET_OPTION_NAMES.has(opt)) {
            await writeStderr(sh, `${name}: ${opt ?? ''}: invalid option name\n`);
            return 2;
          }
          sets.push([opt, on]);
        } else {
          const opt = optionForLetter(c);
          if (opt === undefined) {
            await writeStderr(sh, `${name}: -${c}: invalid option\n`);
            return 2;
          }
          sets.push([opt, on]);
        }
      }
      continue;
    }
    break;
  }
  const rest = argv.slice(i);
  const setup = (child: Shell): void => {
    // An interactive shell edits lines in emacs mode unless told otherwise.
    if (interactive) child.opts.set.set('emacs', true);
    for (const [opt, on] of sets) child.opts.set.set(opt, on);
    for (const [opt, on] of shopts) child.opts.shopt.set(opt, on);
  };
  const session = interactive ? { rcfile } : undefined;
  if (command !== undefined) {
    const text = rest[0];
    if (text === undefined) {
      await writeStderr(sh, `${name}: -c: option requires an argument\n`);
      return 2;
    }
    return runShellProcess(sh, {
      text,
      arg0: rest[1] ?? name,
      args: rest.slice(2),
      mode: 'c',
      env,
      setup,
      interactive: session,
    });
  }
  if (rest.length > 0 && !fromStdin) {
    const script = rest[0] as string;
    const path = resolvePath(sh.cwd, script);
    let bytes: Uint8Array;
    try {
      const st = await sh.rt.fs.stat(path);
      if (st.type === 'directory') {
        await writeStderr(sh, `${name}: ${script}: Is a directory\n`);
        return 126;
      }
      bytes = await sh.rt.fs.readFile(path);
    } catch {
      await writeStderr(sh, `${name}: ${script}: No such file or directory\n`);
      return 127;
    }
    if (looksBinary(bytes)) {
      await writeStderr(sh, `${script}: ${script}: cannot execute binary file\n`);
      return 126;
    }
    return runShellProcess(sh, {
      text: decodeBytes(bytes),
      arg0: script,
      args: rest.slice(1),
      mode: 'file',
      name: script,
      env,
      setup,
    });
  }
  if (interactive) {
    return runShellProcess(sh, {
      text: undefined,
      arg0: name,
      args: rest,
      mode: 'stdin',
      env,
      setup,
      interactive: session,
    });
  }
  // The script is standard input.
  const input = sh.fds.get(0);
  let text = '';
  if (input?.readable) {
    const r = await readUntil(input, -1, { limits: sh.rt.limits });
    text = decodeBytes(r.bytes);
  }
  return runShellProcess(sh, { text, arg0: name, args: rest, mode: 'stdin', env, setup });
}

async function writeOut(sh: Shell, text: string): Promise<void> {
  const f = sh.fds.get(1);
  if (f !== undefined) await f.write(new TextEncoder().encode(text)).catch(() => {});
}

/** bash refuses a script with a NUL byte in its first line (within the first 80 bytes). */
function looksBinary(bytes: Uint8Array): boolean {
  const head = bytes.subarray(0, Math.min(80, bytes.length));
  const newline = head.indexOf(10);
  return (newline === -1 ? head : head.subarray(0, newline)).includes(0);
}

const BASH_HELP = `GNU bash, version 5.2.15(1)-release-(x86_64-pc-linux-gnu)
Usage:\tbash [GNU long option] [option] ...
\tbash [GNU long option] [option] script-file ...
GNU long options:
${['debug', 'debugger', 'dump-po-strings', 'dump-strings', 'help', 'init-file', 'login', 'noediting', 'noprofile', 'norc', 'posix', 'pretty-print', 'rcfile', 'restricted', 'verbose', 'version'].map((o) => `\t--${o}\n`).join('')}Shell options:
\t-ilrsD or -c command or -O shopt_option\t\t(invocation only)
\t-abefhkmnptuvxBCEHPT or -o option
Type \`bash -c "help set"' for more information about shell options.
Type \`bash -c help' for more information about shell builtin commands.
Use the \`bashbug' command to report bugs.

bash home page: <http://www.gnu.org/software/bash>
General help using GNU software: <http://www.gnu.org/gethelp/>
`;
