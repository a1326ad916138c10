import type { ShellCase } from '../support/bash-oracle.js';
import { ARITH } from './arith.js';
import { BUILTINS } from './builtins.js';
import { COMMANDS } from './commands.js';
import { COMPAT } from './compat.js';
import { EXEC } from './exec.js';
import { EXPANSION } from './expansion.js';
import { JOBS } from './jobs.js';
import { OPTIONS } from './options.js';
import { SYNTAX } from './syntax.js';
import { TRAPS } from './traps.js';
import { VARS } from './vars.js';

export const ALL_CASES: readonly ShellCase[] = [
  ...SYNTAX,
  ...ARITH,
  ...EXPANSION,
  ...EXEC,
  ...VARS,
  ...OPTIONS,
  ...TRAPS,
  ...JOBS,
  ...BUILTINS,
  ...COMMANDS,
  ...COMPAT,
];
