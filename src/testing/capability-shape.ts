/**
 * Declared capabilities against the methods actually present: a `true` capability needs its
 * methods, a `false` one needs them `undefined` (callers test `context.execStream !== undefined`).
 * @module
 */
import type { ContextCapabilities, ExecutionContext } from '../contract/types.js';

/** The capabilities that are a boolean flag (everything but `isolation`). */
export type BooleanCapability = Exclude<keyof ContextCapabilities, 'isolation'>;

/** Every boolean capability, in the order the suite reports them. */
export const BOOLEAN_CAPABILITIES: readonly BooleanCapability[] = [
  'shell',
  'filesystem',
  'network',
  'stream',
  'terminal',
  'background',
  'backgroundStdin',
  'glob',
  'ports',
  'containment',
];

/** The allowed values of `capabilities.isolation`. */
export const ISOLATION_KINDS: readonly ContextCapabilities['isolation'][] = [
  'none',
  'os-sandbox',
  'container',
  'virtual',
  'remote',
];

type OptionalMethod = Exclude<
  {
    [K in keyof ExecutionContext]-?: undefined extends ExecutionContext[K] ? K : never;
  }[keyof ExecutionContext],
  undefined
>;

/** Optional methods that a capability switches on or off. */
export const CAPABILITY_METHODS: Readonly<Partial<Record<BooleanCapability, readonly OptionalMethod[]>>> = {
  filesystem: ['fileSize'],
  stream: ['execStream'],
  terminal: ['openTerminal'],
  background: ['execBackground', 'listBackground', 'killBackground', 'waitBackground', 'reassignBackground'],
  backgroundStdin: ['writeBackground'],
  ports: ['getMappedPort'],
};

/** One mismatch between `capabilities` and the methods present. */
export interface ShapeProblem {
  readonly capability: BooleanCapability;
  readonly method: string;
  readonly problem: 'missing' | 'present';
}

/** Lists the mismatches for one capability (empty when consistent). */
export function capabilityShapeProblems(
  context: ExecutionContext,
  capability: BooleanCapability,
): ShapeProblem[] {
  const claimed = context.capabilities[capability] === true;
  const methods: readonly string[] = [
    ...(CAPABILITY_METHODS[capability] ?? []),
    // A context with no filesystem has no native binary read either.
    ...(capability === 'filesystem' && !claimed ? ['readFileBytes'] : []),
  ];
  const problems: ShapeProblem[] = [];
  for (const method of methods) {
    const present = typeof (context as unknown as Record<string, unknown>)[method] === 'function';
    if (claimed && !present) problems.push({ capability, method, problem: 'missing' });
    if (!claimed && (context as unknown as Record<string, unknown>)[method] !== undefined) {
      problems.push({ capability, method, problem: 'present' });
    }
  }
  return problems;
}

/** Human sentence for a problem list, used in assertion messages. */
export function describeShapeProblems(problems: readonly ShapeProblem[]): string {
  return problems
    .map((p) =>
      p.problem === 'missing'
        ? `capabilities.${p.capability} is true but ${p.method} is not a function`
        : `capabilities.${p.capability} is false but ${p.method} is not undefined`,
    )
    .join('; ');
}
