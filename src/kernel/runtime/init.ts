/**
 * A new shell process: the environment imported as exported variables, then bash's own
 * variables (`IFS`, `PS4`, `OPTIND`, `BASH_VERSION`, `PWD`, `SHLVL`, `UID`, ...), as
 * `bash -c` starts with them.
 * @module
 */
import { IndexedArray } from '../state/arrays.js';
import { ATTR_EXPORT, ATTR_INDEXED, ATTR_INTEGER, ATTR_READONLY } from '../state/variables.js';
import type { JobTable } from './jobs.js';
import { SET_OPTION_NAMES, SHOPT_NAMES } from './options.js';
import { type Runtime, Shell } from './shell.js';
import { installDynamicVariables } from './vars.js';

export interface ShellInit {
  readonly env: ReadonlyMap<string, string>;
  readonly cwd: string;
  readonly arg0: string;
  readonly args: readonly string[];
  readonly jobs: JobTable;
  readonly mode: 'c' | 'stdin' | 'file';
  /** The file being run (`mode: 'file'`). */
  readonly source?: string | undefined;
}

export const BASH_VERSION = '5.2.15(1)-release';

export function createShell(rt: Runtime, init: ShellInit): Shell {
  const sh = new Shell(rt, { jobs: init.jobs, pid: rt.nextPid(), cwd: init.cwd, arg0: init.arg0 });
  sh.positional = [...init.args];
  sh.mode = init.mode;
  sh.opts.invocation = init.mode === 'c' ? 'c' : init.mode === 'stdin' ? 's' : '';
  sh.source = init.mode === 'file' ? (init.source ?? init.arg0) : '';
  if (init.mode === 'file') sh.callStack = [];
  const g = sh.vars.global;
  const put = (name: string, value: string, attrs = 0): void => {
    sh.vars.put(g, name, { value, attrs });
  };
  for (const [name, value] of init.env) {
    if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) put(name, value, ATTR_EXPORT);
  }
  installDynamicVariables(sh);
  // A shell started with SHELLOPTS (BASHOPTS) in its environment turns those options on.
  for (const name of (init.env.get('SHELLOPTS') ?? '').split(':'))
    if (SET_OPTION_NAMES.has(name)) sh.opts.set.set(name, true);
  for (const name of (init.env.get('BASHOPTS') ?? '').split(':'))
    if (SHOPT_NAMES.has(name)) sh.opts.shopt.set(name, true);
  const id = rt.identity;
  put('IFS', ' \t\n');
  put('PS4', '+ ');
  put('PS2', '> ');
  put('OPTIND', '1', ATTR_INTEGER);
  put('OPTERR', '1');
  put('BASH', '/bin/bash');
  put('BASH_VERSION', BASH_VERSION);
  sh.vars.put(g, 'BASH_VERSINFO', {
    value: IndexedArray.from(['5', '2', '15', '1', 'release', 'x86_64-pc-linux-gnu']),
    attrs: ATTR_INDEXED | ATTR_READONLY,
  });
  // Set by the shell unless inherited (`HOSTNAME=x bash -c 'echo $HOSTNAME'` says x).
  const inherit = (name: string, value: string): void => {
    if (!init.env.has(name)) put(name, value);
  };
  inherit('HOSTNAME', id.hostname);
  inherit('HOSTTYPE', 'x86_64');
  inherit('MACHTYPE', 'x86_64-pc-linux-gnu');
  inherit('OSTYPE', 'linux-gnu');
  put('UID', String(id.uid), ATTR_INTEGER | ATTR_READONLY);
  put('EUID', String(id.uid), ATTR_INTEGER | ATTR_READONLY);
  if (!init.env.has('PATH')) put('PATH', '/usr/local/bin:/usr/bin:/bin');
  if (!init.env.has('HOME')) put('HOME', id.home);
  if (!init.env.has('SHELL')) put('SHELL', '/bin/bash');
  put('PWD', init.cwd, ATTR_EXPORT);
  const oldpwd = init.env.get('OLDPWD');
  sh.vars.put(g, 'OLDPWD', { value: oldpwd, attrs: ATTR_EXPORT });
  const level = Number.parseInt(init.env.get('SHLVL') ?? '0', 10);
  put('SHLVL', String(Number.isFinite(level) ? level + 1 : 1), ATTR_EXPORT);
  sh.lastArg = init.arg0;
  return sh;
}
