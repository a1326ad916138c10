/**
 * Unknown option names are errors naming the closest known one (the contract's shared rule).
 * @module
 */
import { unknownOption } from '../contract/validate-options.js';

/** Throw for the first key of `options` that `known` lacks; `field` names the object (`options`). */
export function checkOptions(
  options: object,
  known: readonly string[],
  field: string,
  owner = 'the kernel',
): void {
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) throw unknownOption(field, key, known, owner);
  }
}
