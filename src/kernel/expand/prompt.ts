/**
 * Prompt escapes (`\u`, `\h`, `\w`, `\$`, `\t`, ...) as `${x@P}` and `PS4` decode them. The
 * parameter expansion that follows (`promptvars`) is the caller's.
 * @module
 */
import type { Shell } from '../runtime/shell.js';
import { getVar } from '../runtime/vars.js';
import { byteChar } from '../syntax/word-parser.js';
import { strftime } from '../text/strftime.js';

/** A directory name kept from the expansion that follows (`$`, backquotes, backslashes quoted). */
const quoted = (text: string): string => text.replace(/[\\$`]/g, '\\$&');

/**
 * `forPrompt`: the text is a prompt about to be shown (the command it asks for is the next one);
 * otherwise it is expanded while a command runs (`${PS1@P}`, `PS4`).
 */
export function expandPrompt(sh: Shell, s: string, forPrompt = false): string {
  let out = '';
  const id = sh.rt.identity;
  const now = new Date(sh.rt.now());
  const pad = (n: number): string => String(n).padStart(2, '0');
  for (let i = 0; i < s.length; i += 1) {
    const c = s[i] as string;
    if (c !== '\\' || i + 1 >= s.length) {
      out += c;
      continue;
    }
    i += 1;
    const d = s[i] as string;
    switch (d) {
      case 'u':
        out += id.user;
        break;
      case 'h':
        out += id.hostname.split('.')[0];
        break;
      case 'H':
        out += id.hostname;
        break;
      case 'w': {
        const home = getVar(sh, 'HOME') ?? '';
        out += quoted(
          home !== '' && (sh.cwd === home || sh.cwd.startsWith(`${home}/`))
            ? `~${sh.cwd.slice(home.length)}`
            : sh.cwd,
        );
        break;
      }
      case 'W':
        out += quoted(
          sh.cwd === '/'
            ? '/'
            : sh.cwd === getVar(sh, 'HOME')
              ? '~'
              : sh.cwd.slice(sh.cwd.lastIndexOf('/') + 1),
        );
        break;
      case '$':
        out += id.uid === 0 ? '#' : '$';
        break;
      case 's':
        out += 'bash';
        break;
      case 'v':
        out += '5.2';
        break;
      case 'V':
        out += '5.2.15';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 'a':
        out += '\x07';
        break;
      case 'e':
        out += '\x1b';
        break;
      case '\\':
        out += '\\';
        break;
      case '[':
      case ']':
        break;
      case 'j':
        out += String(sh.jobs.all().filter((j) => j.status === undefined).length);
        break;
      case 'l':
        out += 'tty';
        break;
      case '!':
        // While a command runs, its own line is already the last history entry.
        out += String(sh.history.entries.length + (forPrompt || !sh.opts.o('history') ? 1 : 0));
        break;
      case '#':
        out += String(sh.commandNumber - (forPrompt ? 0 : 1));
        break;
      case 't':
        out += `${pad(now.getHours())}:${pad(now.getMinutes())}:${pad(now.getSeconds())}`;
        break;
      case 'T':
        out += `${pad(now.getHours() % 12 || 12)}:${pad(now.getMinutes())}:${pad(now.getSeconds())}`;
        break;
      case '@':
        out += `${pad(now.getHours() % 12 || 12)}:${pad(now.getMinutes())} ${now.getHours() < 12 ? 'AM' : 'PM'}`;
        break;
      case 'A':
        out += `${pad(now.getHours())}:${pad(now.getMinutes())}`;
        break;
      case 'D': {
        const close = s.indexOf('}', i + 1);
        if (s[i + 1] === '{' && close !== -1) {
          const format = s.slice(i + 2, close);
          out += strftime(format === '' ? '%X' : format, sh.rt.now(), getVar(sh, 'TZ'));
          i = close;
        } else out += '\\D';
        break;
      }
      case 'd': {
        const days = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
        const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
        out += `${days[now.getDay()]} ${months[now.getMonth()]} ${pad(now.getDate())}`;
        break;
      }
      default:
        if (d >= '0' && d <= '7') {
          const m = /^[0-7]{1,3}/.exec(s.slice(i)) as RegExpExecArray;
          out += byteChar(Number.parseInt(m[0], 8) & 0xff);
          i += m[0].length - 1;
        } else out += `\\${d}`;
    }
  }
  return out;
}
