/**
 * Attacks on `workspaceRoot`: absolute paths, `..`, a look-alike sibling, symlinked files and
 * parents (absolute and relative targets), globs through links. Each must be a ContainmentError
 * before any I/O (`realPath` too, where a context has it), `fileSize` must answer null (not leak a size), and nothing may be written
 * outside. Positive controls prove the root is not simply refusing everything.
 * @module
 */
import { posix } from 'node:path';
import { expect } from 'vitest';
import { shQuote } from '../../subprocess/shell-quote.js';
import type { CaseScope, ConformanceSection } from '../case.js';
import { expectBerthError } from '../expect-error.js';

/** A secret planted outside the root; its content must never come back. */
interface Outside {
  readonly dir: string;
  readonly secret: string;
  readonly content: string;
}

const planted = new WeakMap<object, Promise<Outside>>();

function parentOfRoot(scope: CaseScope): string {
  const root = scope.fx.workspaceRoot;
  if (root === '/')
    throw new Error('workspaceRoot is "/": nothing lies outside it, so containment cannot be attacked');
  return posix.dirname(root);
}

/** Plants (once per run) a directory beside the root holding a secret, removed at tear-down. */
function outside(scope: CaseScope): Promise<Outside> {
  const existing = planted.get(scope.fx);
  if (existing) return existing;
  const dir = posix.join(parentOfRoot(scope), scope.fx.unique('outside'));
  const content = `SECRET ${scope.fx.unique('secret')}\n`;
  const made = (async () => {
    await scope.fx.sh(
      `mkdir -p ${shQuote(dir)} && printf '%s' ${shQuote(content)} > ${shQuote(`${dir}/secret.txt`)}`,
    );
    scope.fx.addCleanup(() => scope.fx.sh(`rm -rf ${shQuote(dir)}`));
    return { dir, secret: `${dir}/secret.txt`, content };
  })();
  planted.set(scope.fx, made);
  return made;
}

async function fileSizeOf(scope: CaseScope, path: string): Promise<number | null> {
  if (!scope.context.fileSize) throw new Error('capabilities.filesystem is true but fileSize is missing');
  return scope.context.fileSize(scope.handle, path);
}

/** Every read method refuses `path` with E_CONTAINMENT, and fileSize answers null. */
async function expectReadsRefused(scope: CaseScope, path: string, what: string): Promise<void> {
  const { context, handle } = scope;
  const error = await expectBerthError(context.readFile(handle, path), 'E_CONTAINMENT', `readFile(${what})`);
  expect(error.message, 'the ContainmentError names the path').toContain(path);
  if (context.readFileBytes) {
    await expectBerthError(context.readFileBytes(handle, path), 'E_CONTAINMENT', `readFileBytes(${what})`);
  }
  if (context.readFileRange) {
    await expectBerthError(
      context.readFileRange(handle, path, 0, 1),
      'E_CONTAINMENT',
      `readFileRange(${what})`,
    );
  }
  expect(await fileSizeOf(scope, path), `fileSize(${what}) must not leak a size`).toBeNull();
  if (context.realPath) {
    await expectBerthError(context.realPath(handle, path), 'E_CONTAINMENT', `realPath(${what})`);
  }
}

/** writeFile refuses `path` with E_CONTAINMENT and `check` (asked through exec) shows nothing changed. */
async function expectWriteRefused(
  scope: CaseScope,
  path: string,
  what: string,
  mustNotExist: string,
): Promise<void> {
  await expectBerthError(
    scope.context.writeFile(scope.handle, path, 'written'),
    'E_CONTAINMENT',
    `writeFile(${what})`,
  );
  expect(
    await scope.fx.exists(mustNotExist),
    `writeFile(${what}) created ${mustNotExist} outside the root`,
  ).toBe(false);
}

async function expectSecretIntact(scope: CaseScope, out: Outside): Promise<void> {
  expect(await scope.fx.sh(`cat ${shQuote(out.secret)}`), 'the outside file was modified').toBe(out.content);
}

export const containmentSection: ConformanceSection = {
  name: 'containment',
  cases: [
    {
      id: 'containment/lexical',
      title: 'an absolute path outside the root is refused by every file method, even when it does not exist',
      needs: ['filesystem', 'containment'],
      run: async (scope) => {
        const path = posix.join(parentOfRoot(scope), scope.fx.unique('nowhere'), 'file.txt');
        await expectReadsRefused(scope, path, 'a missing outside path');
        await expectBerthError(
          scope.context.writeFile(scope.handle, path, 'x'),
          'E_CONTAINMENT',
          'writeFile(outside)',
        );
        await expectBerthError(
          scope.context.listFiles(scope.handle, posix.dirname(path)),
          'E_CONTAINMENT',
          'listFiles(outside)',
        );
      },
    },
    {
      id: 'containment/absolute-outside',
      title:
        'an existing file outside the root: reads refused, size not leaked, listing refused, writes refused',
      needs: ['filesystem', 'containment', 'shell'],
      exercises: ['containment'],
      run: async (scope) => {
        const out = await outside(scope);
        await expectReadsRefused(scope, out.secret, 'outside secret');
        await expectBerthError(
          scope.context.listFiles(scope.handle, out.dir),
          'E_CONTAINMENT',
          'listFiles(outside dir)',
        );
        await expectBerthError(
          scope.context.writeFile(scope.handle, out.secret, 'x'),
          'E_CONTAINMENT',
          'writeFile(secret)',
        );
        await expectWriteRefused(scope, `${out.dir}/new.txt`, 'new outside file', `${out.dir}/new.txt`);
        await expectSecretIntact(scope, out);
      },
    },
    {
      id: 'containment/dotdot',
      title: '.. escapes are refused, relative or inside an absolute path, and create no parents outside',
      needs: ['filesystem', 'containment', 'shell'],
      exercises: ['containment'],
      run: async (scope) => {
        const out = await outside(scope);
        const root = scope.fx.workspaceRoot;
        const relative = posix.relative(scope.handle.cwd, out.secret);
        expect(relative.startsWith('..'), 'the relative path climbs out').toBe(true);
        await expectReadsRefused(scope, relative, 'relative ..');
        const dotted = `${root}/sub/../../${posix.basename(out.dir)}/secret.txt`;
        await expectReadsRefused(scope, dotted, 'absolute with ..');
        const newDir = `${posix.dirname(relative)}/made-by-writeFile`;
        await expectWriteRefused(
          scope,
          `${newDir}/f.txt`,
          '.. with missing parents',
          `${out.dir}/made-by-writeFile`,
        );
      },
    },
    {
      id: 'containment/sibling-prefix',
      title: 'a sibling whose name starts with the root (root + "-x") is outside',
      needs: ['filesystem', 'containment', 'shell'],
      exercises: ['containment'],
      run: async (scope) => {
        const sibling = `${scope.fx.workspaceRoot}-${scope.fx.unique('sibling')}`;
        await scope.fx.sh(
          `mkdir -p ${shQuote(sibling)} && printf secret > ${shQuote(`${sibling}/secret.txt`)}`,
        );
        scope.fx.addCleanup(() => scope.fx.sh(`rm -rf ${shQuote(sibling)}`));
        await expectReadsRefused(scope, `${sibling}/secret.txt`, 'root-prefixed sibling');
        await expectWriteRefused(scope, `${sibling}/new.txt`, 'root-prefixed sibling', `${sibling}/new.txt`);
      },
    },
    {
      id: 'containment/symlink-file',
      title: 'a symlink inside the root to a file outside: reads refused, size not leaked, writes refused',
      needs: ['filesystem', 'containment', 'shell'],
      exercises: ['containment'],
      run: async (scope) => {
        const out = await outside(scope);
        const link = `${scope.dir}/link-file`;
        const relativeLink = `${scope.dir}/relative-link-file`;
        await scope.fx.sh(
          `ln -s ${shQuote(out.secret)} ${shQuote(link)} && ln -s ${shQuote(posix.relative(scope.dir, out.secret))} ${shQuote(relativeLink)}`,
        );
        for (const path of [link, relativeLink]) {
          await expectReadsRefused(scope, path, path);
          await expectBerthError(
            scope.context.writeFile(scope.handle, path, 'x'),
            'E_CONTAINMENT',
            `writeFile(${path})`,
          );
        }
        await expectSecretIntact(scope, out);
      },
    },
    {
      id: 'containment/symlinked-parent',
      title: 'a symlinked directory leading outside: reads, listing, sizes and writes below it are refused',
      needs: ['filesystem', 'containment', 'shell'],
      exercises: ['containment'],
      run: async (scope) => {
        const out = await outside(scope);
        const link = `${scope.dir}/link-dir`;
        await scope.fx.sh(`ln -s ${shQuote(out.dir)} ${shQuote(link)}`);
        await expectReadsRefused(scope, `${link}/secret.txt`, 'file below a symlinked dir');
        await expectBerthError(
          scope.context.listFiles(scope.handle, link),
          'E_CONTAINMENT',
          'listFiles(symlinked dir)',
        );
        await expectWriteRefused(scope, `${link}/new.txt`, 'below a symlinked dir', `${out.dir}/new.txt`);
        await expectWriteRefused(
          scope,
          `${link}/nested/new.txt`,
          'nested below a symlinked dir',
          `${out.dir}/nested`,
        );
        await expectSecretIntact(scope, out);
      },
    },
    {
      id: 'containment/glob',
      title:
        'globs never return files outside the root: through a symlinked dir, via **, or a pattern above the root',
      needs: ['filesystem', 'containment', 'shell', 'glob'],
      exercises: ['containment', 'glob'],
      run: async (scope) => {
        const out = await outside(scope);
        const { context, handle, dir } = scope;
        await context.writeFile(handle, `${dir}/inside.txt`, 'inside');
        await scope.fx.sh(`ln -s ${shQuote(out.dir)} ${shQuote(`${dir}/link-dir`)}`);
        const leaks = async (pattern: string): Promise<string[]> => {
          try {
            const entries = await context.listFiles(handle, pattern);
            return entries
              .filter((e) => e.name === 'secret.txt' || !e.path.startsWith(`${scope.fx.workspaceRoot}/`))
              .map((e) => e.path);
          } catch (error) {
            await expectBerthError(Promise.reject(error), 'E_CONTAINMENT', `listFiles(${pattern})`);
            return [];
          }
        };
        expect(await leaks(`${dir}/link-dir/*.txt`), 'a glob through the symlinked dir').toEqual([]);
        expect(await leaks(`${dir}/**/*.txt`), 'a ** glob crossing the symlinked dir').toEqual([]);
        expect(
          (await context.listFiles(handle, `${dir}/**/*.txt`)).map((e) => e.name),
          'inside matches still work',
        ).toContain('inside.txt');
        await expectBerthError(
          context.listFiles(handle, `${scope.fx.workspaceRoot}/../*/secret.txt`),
          'E_CONTAINMENT',
          'a pattern rooted above the workspace',
        );
      },
    },
    {
      id: 'containment/inside-allowed',
      title:
        'paths that stay inside work: .. that returns, links to inside targets, names starting with .., the root itself',
      needs: ['filesystem', 'containment', 'shell'],
      exercises: ['containment'],
      run: async (scope) => {
        const { context, handle, dir, fx } = scope;
        await context.writeFile(handle, `${dir}/inside.txt`, 'inside');
        await context.writeFile(handle, `${dir}/..dots.txt`, 'dots');
        await fx.sh(
          `mkdir -p ${shQuote(`${dir}/real`)} && ln -s inside.txt ${shQuote(`${dir}/link-in`)} && ln -s real ${shQuote(`${dir}/dir-link-in`)}`,
        );
        expect(await context.readFile(handle, `${dir}/sub/../inside.txt`)).toBe('inside');
        expect(await context.readFile(handle, `${dir}/link-in`)).toBe('inside');
        expect(await context.readFile(handle, `${dir}/..dots.txt`)).toBe('dots');
        expect(await fileSizeOf(scope, `${dir}/link-in`)).toBe(6);
        await context.writeFile(handle, `${dir}/dir-link-in/through.txt`, 'through');
        expect(await fx.sh(`cat ${shQuote(`${dir}/real/through.txt`)}`)).toBe('through');
        const rootEntries = await context.listFiles(handle, fx.workspaceRoot);
        expect(Array.isArray(rootEntries), 'the root itself can be listed').toBe(true);
      },
    },
    {
      id: 'containment/symlink-loop',
      title: 'a symlink loop is a typed error (never a hang or an untyped error) and fileSize answers null',
      needs: ['filesystem', 'containment', 'shell'],
      exercises: ['containment'],
      run: async (scope) => {
        const { dir } = scope;
        await scope.fx.sh(
          `ln -s loop-b ${shQuote(`${dir}/loop-a`)} && ln -s loop-a ${shQuote(`${dir}/loop-b`)}`,
        );
        await expectBerthError(
          scope.context.readFile(scope.handle, `${dir}/loop-a`),
          ['E_IO', 'E_NOT_FOUND', 'E_CONTAINMENT', 'E_INVALID_ARGUMENT'],
          'readFile(symlink loop)',
        );
        expect(await fileSizeOf(scope, `${dir}/loop-a`)).toBeNull();
      },
    },
  ],
};
