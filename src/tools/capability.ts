/**
 * A tool that needs an optional context method fails with a `CapabilityError` naming it; berth never
 * falls back to the host.
 * @module
 */
import type { ExecutionContext } from '../contract/types.js';
import { CapabilityError } from '../errors/index.js';

/** The bound method `name` of `context`, or a `CapabilityError` saying which capability is missing. */
export function requireMethod<K extends keyof ExecutionContext>(
  context: ExecutionContext,
  name: K,
  capability: string,
  hint?: string,
): NonNullable<ExecutionContext[K]> {
  const method = context[name];
  if (typeof method !== 'function')
    throw new CapabilityError(`${capability} (${String(name)})`, context.type, hint);
  return (method as (...a: unknown[]) => unknown).bind(context) as NonNullable<ExecutionContext[K]>;
}
