/**
 * The API snapshot sees what a user's code depends on: run over a copy of the built declarations
 * with a parameter type, a return type, an option field, a method of an unexported base class and
 * an export's name changed, each shows up as exactly the changed lines of its subpath; a reworded
 * TSDoc comment and a renamed private field change nothing.
 */
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entryPointsOf } from './entry-points.js';
import { declaredApi } from './signatures.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));

interface Mutation {
  readonly file: string;
  readonly from: string;
  readonly to: string;
}

/**
 * Edits of the built declarations. Each `from` must be found (a moved declaration fails the test
 * instead of testing nothing): when one of these declarations changes on purpose, take its new text.
 */
const MUTATIONS: readonly Mutation[] = [
  // A parameter type.
  {
    file: 'dist/contexts/docker/docker-context.d.ts',
    from: 'createDockerContext(options?: DockerContextOptions): DockerContext;',
    to: 'createDockerContext(options?: string): DockerContext;',
  },
  // A return type.
  {
    file: 'dist/contexts/docker/docker-context.d.ts',
    from: "'requestTimeoutMs'>): Promise<string[]>;",
    to: "'requestTimeoutMs'>): Promise<string>;",
  },
  // An option field becomes optional.
  {
    file: 'dist/contexts/process/options.d.ts',
    from: 'readonly stateDir: string;',
    to: 'readonly stateDir?: string;',
  },
  // A method of a base class no subpath exports (ProcessContext extends it).
  {
    file: 'dist/contexts/shared/background-methods.d.ts',
    from: 'listBackground(handle: ContextHandle): Promise<BackgroundTaskInfo[]>;',
    to: 'listBackground(handle: ContextHandle): Promise<BackgroundTaskInfo[] | null>;',
  },
  // An export renamed.
  {
    file: 'dist/api/sandbox.d.ts',
    from: 'formatSandboxReport }',
    to: 'formatSandboxReport as formatReport }',
  },
  // Not API: a comment and a private field.
  { file: 'dist/contexts/docker/docker-context.d.ts', from: '/**', to: '/** Reworded.' },
  {
    file: 'dist/contexts/process/process-context.d.ts',
    from: 'private readonly deps;',
    to: 'private readonly dependencies;',
  },
];

/** The lines each mutation takes out of, and puts into, the subpath that exports what it changed. */
const EXPECTED: Record<string, { removed: string[]; added: string[] }> = {
  'berth/docker': {
    removed: [
      'export declare function createDockerContext(options?: DockerContextOptions): DockerContext;',
      "export declare function sweepDockerContainers(options?: Pick<DockerContextOptions, 'socketPath' | 'host' | 'requestTimeoutMs'>): Promise<string[]>;",
    ],
    added: [
      'export declare function createDockerContext(options?: string): DockerContext;',
      "export declare function sweepDockerContainers(options?: Pick<DockerContextOptions, 'socketPath' | 'host' | 'requestTimeoutMs'>): Promise<string>;",
    ],
  },
  'berth/process': {
    removed: [
      '    readonly stateDir: string;',
      '    listBackground(handle: ContextHandle): Promise<BackgroundTaskInfo[]>;',
    ],
    added: [
      '    readonly stateDir?: string;',
      '    listBackground(handle: ContextHandle): Promise<BackgroundTaskInfo[] | null>;',
    ],
  },
  'berth/sandbox': {
    removed: ['// formatSandboxReport: type'],
    added: ['// formatReport: type, declared as formatSandboxReport'],
  },
};

/** Lines of `a` that `b` lacks (as a set: order and repeats aside). */
function linesMissing(a: string, b: string): string[] {
  const other = new Set(b.split('\n'));
  return [...new Set(a.split('\n'))].filter((line) => !other.has(line)).sort();
}

function copyDeclarations(from: string, to: string): void {
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = join(from, entry.name);
    if (entry.isDirectory()) copyDeclarations(source, join(to, entry.name));
    else if (entry.name.endsWith('.d.ts')) {
      mkdirSync(to, { recursive: true });
      copyFileSync(source, join(to, entry.name));
    }
  }
}

function mutate(root: string, m: Mutation): void {
  const path = join(root, m.file);
  const text = readFileSync(path, 'utf8');
  // A moved declaration must fail here, not silently test nothing.
  expect(text.includes(m.from), `${m.file} contains ${m.from}`).toBe(true);
  writeFileSync(path, text.replace(m.from, m.to));
}

describe('the API snapshot over a mutated copy of the declarations', () => {
  const copy = mkdtempSync(join(tmpdir(), 'berth-api-copy-'));
  let before: Record<string, string> = {};
  let after: Record<string, string> = {};

  beforeAll(async () => {
    copyDeclarations(join(repo, 'dist'), join(copy, 'dist'));
    copyFileSync(join(repo, 'package.json'), join(copy, 'package.json'));
    symlinkSync(join(repo, 'node_modules'), join(copy, 'node_modules'));
    before = declaredApi(copy, await entryPointsOf(copy, false));
    for (const m of MUTATIONS) mutate(copy, m);
    after = declaredApi(copy, await entryPointsOf(copy, false));
  });
  afterAll(() => rmSync(copy, { recursive: true, force: true }));

  it.each(Object.keys(EXPECTED))('%s changes by exactly the mutated lines', (specifier) => {
    const expected = EXPECTED[specifier];
    expect(linesMissing(before[specifier] ?? '', after[specifier] ?? '')).toEqual(
      [...(expected?.removed ?? [])].sort(),
    );
    expect(linesMissing(after[specifier] ?? '', before[specifier] ?? '')).toEqual(
      [...(expected?.added ?? [])].sort(),
    );
  });

  it('changes no other subpath, except where it reaches the mutated base class', () => {
    const base = EXPECTED['berth/process'];
    for (const specifier of Object.keys(before).filter((s) => !(s in EXPECTED))) {
      const removed = linesMissing(before[specifier] ?? '', after[specifier] ?? '');
      const added = linesMissing(after[specifier] ?? '', before[specifier] ?? '');
      expect(
        removed.filter((l) => !base?.removed.includes(l)),
        specifier,
      ).toEqual([]);
      expect(
        added.filter((l) => !base?.added.includes(l)),
        specifier,
      ).toEqual([]);
    }
    expect(Object.keys(after).sort()).toEqual(Object.keys(before).sort());
  });
});
