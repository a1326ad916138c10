/**
 * The shell's builtins by name (one file per builtin or small family, each a {@link Builtin}).
 * @module
 */
import { alias, unalias } from './alias.js';
import { bind } from './bind.js';
import { compgen, complete, compopt } from './completion.js';
import { declare, exportBuiltin, local, readonly, typeset, unset } from './declare.js';
import { cd, dirs, popd, pushd, pwd } from './directories.js';
import { echo } from './echo.js';
import { dot, evalBuiltin, source } from './eval-source.js';
import { exec } from './exec.js';
import { breakBuiltin, continueBuiltin, exit, returnBuiltin, shift } from './flow.js';
import { getopts } from './getopts.js';
import { help } from './help.js';
import { fc, history } from './history.js';
import { builtin, command, enable, hash, type } from './introspect.js';
import { bg, disown, fg, jobs, kill, wait } from './jobs.js';
import { mapfile, readarray } from './mapfile.js';
import { caller, let_, times, umask } from './misc.js';
import { printf } from './printf.js';
import { read } from './read.js';
import { set } from './set.js';
import { shopt } from './shopt.js';
import { bracket, test } from './test.js';
import { trap } from './trap.js';
import { colon, falseBuiltin, trueBuiltin } from './true-false.js';
import type { Builtin } from './types.js';
import { ulimit } from './ulimit.js';

const ALL: readonly Builtin[] = [
  bind,
  colon,
  trueBuiltin,
  falseBuiltin,
  echo,
  printf,
  read,
  mapfile,
  readarray,
  cd,
  pwd,
  pushd,
  popd,
  dirs,
  test,
  bracket,
  evalBuiltin,
  source,
  dot,
  exec,
  exit,
  returnBuiltin,
  breakBuiltin,
  continueBuiltin,
  shift,
  getopts,
  set,
  shopt,
  alias,
  unalias,
  trap,
  type,
  command,
  builtin,
  hash,
  enable,
  let_,
  umask,
  wait,
  jobs,
  kill,
  disown,
  fg,
  bg,
  times,
  help,
  caller,
  declare,
  typeset,
  local,
  exportBuiltin,
  readonly,
  unset,
  complete,
  compgen,
  compopt,
  history,
  fc,
  ulimit,
];

export const BUILTINS: ReadonlyMap<string, Builtin> = new Map(ALL.map((b) => [b.name, b]));
