/**
 * `:`, `true`, `false`.
 * @module
 */
import type { Builtin } from './types.js';

export const colon: Builtin = {
  name: ':',
  special: true,
  synopsis: ':',
  help: 'Do nothing (the arguments are expanded); succeed.',
  run: async () => 0,
};

export const trueBuiltin: Builtin = {
  name: 'true',
  synopsis: 'true',
  help: 'Succeed.',
  run: async () => 0,
};

export const falseBuiltin: Builtin = {
  name: 'false',
  synopsis: 'false',
  help: 'Fail (status 1).',
  run: async () => 1,
};
