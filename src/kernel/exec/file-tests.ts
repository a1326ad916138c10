/**
 * The file, string and integer tests shared by `[[ ]]` and `test`/`[`: `-e -f -d -s -r -w -x -L
 * -h -p -S -b -c -g -u -k -O -G -N -t`, `-nt -ot -ef`, over the virtual filesystem.
 * @module
 */
import type { VfsStat } from '../../vfs/filesystem.js';
import { resolvePath } from '../runtime/paths.js';
import type { Shell } from '../runtime/shell.js';
import { deviceFs } from './device-fs.js';

async function statOf(sh: Shell, path: string, follow: boolean): Promise<VfsStat | undefined> {
  if (path === '') return undefined;
  const abs = resolvePath(sh.cwd, path);
  if (/^\/dev\/(null|zero|u?random|tty)$/.test(abs)) {
    return {
      type: 'char-device',
      size: 0,
      mode: 0o666,
      mtimeMs: 0,
      atimeMs: 0,
      ctimeMs: 0,
      ino: 1,
      dev: 0,
      nlink: 1,
      uid: 0,
      gid: 0,
    };
  }
  const fdMatch = /^\/dev\/(?:fd\/([0-9]+)|(stdin|stdout|stderr))$/.exec(abs);
  if (fdMatch !== null) {
    const fd =
      fdMatch[1] !== undefined
        ? Number(fdMatch[1])
        : ['stdin', 'stdout', 'stderr'].indexOf(fdMatch[2] as string);
    if (sh.fds.get(fd) === undefined) return undefined;
    return {
      type: 'fifo',
      size: 0,
      mode: 0o600,
      mtimeMs: 0,
      atimeMs: 0,
      ctimeMs: 0,
      ino: 2,
      dev: 0,
      nlink: 1,
      uid: 0,
      gid: 0,
    };
  }
  try {
    return follow ? await deviceFs(sh).stat(abs) : await deviceFs(sh).lstat(abs);
  } catch {
    return undefined;
  }
}

export const FILE_UNARY = new Set([
  '-a',
  '-b',
  '-c',
  '-d',
  '-e',
  '-f',
  '-g',
  '-h',
  '-k',
  '-p',
  '-r',
  '-s',
  '-t',
  '-u',
  '-w',
  '-x',
  '-G',
  '-L',
  '-N',
  '-O',
  '-S',
]);

/** A unary file test. */
export async function fileTest(sh: Shell, op: string, operand: string): Promise<boolean> {
  if (op === '-t') {
    const fd = Number.parseInt(operand, 10);
    void fd;
    return false;
  }
  const st = await statOf(sh, operand, op !== '-h' && op !== '-L');
  if (st === undefined) return false;
  const uid = sh.rt.identity.uid;
  const access = (bit: number): boolean => {
    if (uid === 0) return bit !== 0o1 || (st.mode & 0o111) !== 0 || st.type === 'directory';
    const shift = st.uid === uid ? 6 : st.gid === sh.rt.identity.gid ? 3 : 0;
    return ((st.mode >> shift) & bit) !== 0;
  };
  switch (op) {
    case '-a':
    case '-e':
      return true;
    case '-f':
      return st.type === 'file';
    case '-d':
      return st.type === 'directory';
    case '-h':
    case '-L':
      return st.type === 'symlink';
    case '-p':
      return st.type === 'fifo';
    case '-S':
      return st.type === 'socket';
    case '-b':
      return st.type === 'block-device';
    case '-c':
      return st.type === 'char-device';
    case '-s':
      return st.size > 0;
    case '-r':
      return access(0o4);
    case '-w':
      return access(0o2);
    case '-x':
      return access(0o1);
    case '-g':
      return (st.mode & 0o2000) !== 0;
    case '-u':
      return (st.mode & 0o4000) !== 0;
    case '-k':
      return (st.mode & 0o1000) !== 0;
    case '-O':
      return st.uid === uid;
    case '-G':
      return st.gid === sh.rt.identity.gid;
    case '-N':
      return st.mtimeMs > st.atimeMs;
    default:
      return false;
  }
}

/** `-nt`, `-ot`, `-ef`. */
export async function fileCompare(sh: Shell, op: string, left: string, right: string): Promise<boolean> {
  const a = await statOf(sh, left, true);
  const b = await statOf(sh, right, true);
  switch (op) {
    case '-nt':
      return a !== undefined && (b === undefined || a.mtimeMs > b.mtimeMs);
    case '-ot':
      return b !== undefined && (a === undefined || a.mtimeMs < b.mtimeMs);
    case '-ef':
      return a !== undefined && b !== undefined && a.dev === b.dev && a.ino === b.ino;
    default:
      return false;
  }
}

/** String comparison in the C.UTF-8 locale: code point order. */
export function compareStrings(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i += 1) {
    const d = ((x[i] as string).codePointAt(0) as number) - ((y[i] as string).codePointAt(0) as number);
    if (d !== 0) return d;
  }
  return x.length - y.length;
}
