/**
 * `listFiles` with a pattern: `*`, `?`, `[...]`, `{a,b}` and `**` match files inside the context,
 * relative patterns resolve against the handle's cwd, and no match is an empty list.
 * @module
 */
import { posix } from 'node:path';
import { expect } from 'vitest';
import type { CaseScope, ConformanceCase, ConformanceSection } from '../case.js';

/** The tree every glob case matches against, relative to the case directory. */
const TREE = [
  'a.txt',
  'b.txt',
  'ab.txt',
  'c.md',
  'x1.log',
  'x2.log',
  'xa.log',
  'sub/d.txt',
  'sub/deep/e.txt',
  'sub/deep/f.md',
  'other/g.txt',
];

async function plant(scope: CaseScope): Promise<string> {
  const root = `${scope.dir}/g`;
  for (const rel of TREE) await scope.context.writeFile(scope.handle, `${root}/${rel}`, rel);
  return root;
}

/** Matched paths, relative to `root`, sorted. Fails when a match lies outside `root`. */
async function match(scope: CaseScope, root: string, pattern: string): Promise<string[]> {
  const entries = await scope.context.listFiles(scope.handle, pattern);
  expect(Array.isArray(entries), `listFiles(${pattern}) returns an array`).toBe(true);
  return entries
    .map((entry) => {
      expect(entry.path.startsWith(`${root}/`), `match ${entry.path} is absolute and below ${root}`).toBe(
        true,
      );
      expect(entry.name, `name of ${entry.path}`).toBe(posix.basename(entry.path));
      expect(entry.type, `type of ${entry.path}`).toBe('file');
      return entry.path.slice(root.length + 1);
    })
    .sort();
}

function globCase(id: string, title: string, pattern: string, expected: string[]): ConformanceCase {
  return {
    id: `glob/${id}`,
    title: `${title}: ${pattern}`,
    needs: ['filesystem', 'glob'],
    exercises: ['glob'],
    run: async (scope) => {
      const root = await plant(scope);
      expect(await match(scope, root, `${root}/${pattern}`)).toEqual([...expected].sort());
    },
  };
}

export const globSection: ConformanceSection = {
  name: 'glob',
  cases: [
    globCase('star', '* matches within one directory level', '*.txt', ['a.txt', 'ab.txt', 'b.txt']),
    globCase('question', '? matches exactly one character', '?.txt', ['a.txt', 'b.txt']),
    globCase('brackets', '[...] matches one character of a set or range', 'x[0-9].log', ['x1.log', 'x2.log']),
    globCase('braces', '{a,b} matches either alternative', '*.{md,log}', [
      'c.md',
      'x1.log',
      'x2.log',
      'xa.log',
    ]),
    globCase('globstar', '** matches any depth, including none', '**/*.txt', [
      'a.txt',
      'ab.txt',
      'b.txt',
      'other/g.txt',
      'sub/d.txt',
      'sub/deep/e.txt',
    ]),
    globCase('globstar-middle', '** between fixed segments', 'sub/**/*.md', ['sub/deep/f.md']),
    globCase('no-match', 'a pattern that matches nothing is an empty list, not an error', '*.nothing', []),
    {
      id: 'glob/relative',
      title: "a relative pattern resolves against the handle's cwd",
      needs: ['filesystem', 'glob'],
      exercises: ['glob'],
      run: async (scope) => {
        const root = await plant(scope);
        const relative = posix.relative(scope.handle.cwd, root);
        expect(await match(scope, root, `${relative}/sub/*.txt`)).toEqual(['sub/d.txt']);
      },
    },
  ],
};
