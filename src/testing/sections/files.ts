/**
 * The file methods: text and bytes round trips, parents created, listings with types, typed errors
 * for missing paths and directories, and `fileSize` as the cheap guard before a whole read.
 * @module
 */
import { posix } from 'node:path';
import { expect } from 'vitest';
import { shQuote } from '../../subprocess/shell-quote.js';
import { allByteValues, firstDifference, primeCycleBytes } from '../byte-patterns.js';
import type { CaseScope, ConformanceSection } from '../case.js';
import { expectBerthError } from '../expect-error.js';

const utf8 = new TextEncoder();

async function fileSize(scope: CaseScope, path: string): Promise<number | null> {
  if (!scope.context.fileSize) throw new Error('capabilities.filesystem is true but fileSize is missing');
  return scope.context.fileSize(scope.handle, path);
}

/** Reads bytes through readFileBytes when present, else checks what can be checked. */
async function expectBytes(scope: CaseScope, path: string, bytes: Uint8Array): Promise<void> {
  const { context, handle } = scope;
  expect(await fileSize(scope, path), `fileSize(${path})`).toBe(bytes.length);
  if (context.readFileBytes) {
    const back = await context.readFileBytes(handle, path);
    expect(back).toBeInstanceOf(Uint8Array);
    expect(firstDifference(back, bytes), `first differing byte of ${path}`).toBe(-1);
  } else {
    expect(await context.readFile(handle, path)).toBe(new TextDecoder().decode(bytes));
  }
}

export const filesSection: ConformanceSection = {
  name: 'files',
  cases: [
    {
      id: 'files/text-round-trip',
      title: 'writeFile then readFile returns the same text (multibyte, CRLF, no final newline, empty)',
      needs: ['filesystem'],
      run: async ({ context, handle, dir }) => {
        const samples: Record<string, string> = {
          'multibyte.txt': 'caf\u00e9 \u20ac \u65e5\u672c \ud834\udd1e \ud83d\ude00\n',
          'crlf.txt': 'one\r\ntwo\r\n',
          'no-newline.txt': 'last line',
          'empty.txt': '',
        };
        for (const [name, text] of Object.entries(samples)) {
          await context.writeFile(handle, `${dir}/${name}`, text);
          expect(await context.readFile(handle, `${dir}/${name}`), name).toBe(text);
        }
      },
    },
    {
      id: 'files/bytes-round-trip',
      title: 'a Uint8Array of all 256 byte values is written verbatim and read back exact',
      needs: ['filesystem'],
      run: async (scope) => {
        const bytes = allByteValues();
        const path = `${scope.dir}/all.bin`;
        await scope.context.writeFile(scope.handle, path, bytes);
        await expectBytes(scope, path, bytes);
        // A Buffer (a Uint8Array subclass) is written verbatim too, even with an encoding given.
        await scope.context.writeFile(scope.handle, path, Buffer.from(bytes), 'base64');
        await expectBytes(scope, path, bytes);
      },
    },
    {
      id: 'files/large-bytes',
      title: 'an 8 MiB binary file round-trips byte-exact, and fileSize reports it',
      needs: ['filesystem'],
      run: async (scope) => {
        const bytes = primeCycleBytes(8 * 1024 * 1024);
        const path = `${scope.dir}/large.bin`;
        await scope.context.writeFile(scope.handle, path, bytes);
        await expectBytes(scope, path, bytes);
        if (scope.context.capabilities.shell) {
          expect((await scope.fx.sh(`wc -c < ${shQuote(path)}`)).trim(), 'size seen by a command').toBe(
            String(bytes.length),
          );
        }
      },
    },
    {
      id: 'files/encoding',
      title: "writeFile's encoding turns a string into bytes (base64, latin1, utf-8 default)",
      needs: ['filesystem'],
      run: async (scope) => {
        const bytes = allByteValues();
        const path = `${scope.dir}/decoded.bin`;
        await scope.context.writeFile(scope.handle, path, Buffer.from(bytes).toString('base64'), 'base64');
        await expectBytes(scope, path, bytes);
        await scope.context.writeFile(scope.handle, path, '\u00e9', 'latin1');
        await expectBytes(scope, path, Uint8Array.of(0xe9));
        await scope.context.writeFile(scope.handle, path, '\u00e9');
        await expectBytes(scope, path, Uint8Array.of(0xc3, 0xa9));
      },
    },
    {
      id: 'files/creates-parents',
      title: 'writeFile creates missing parent directories',
      needs: ['filesystem'],
      run: async ({ context, handle, dir }) => {
        const path = `${dir}/a/b/c/deep.txt`;
        await context.writeFile(handle, path, 'deep');
        expect(await context.readFile(handle, path)).toBe('deep');
        const entries = await context.listFiles(handle, `${dir}/a/b`);
        expect(entries.map((e) => [e.name, e.type])).toEqual([['c', 'directory']]);
      },
    },
    {
      id: 'files/overwrite',
      title: 'writeFile replaces the whole content (a shorter write leaves no old tail)',
      needs: ['filesystem'],
      run: async ({ context, handle, dir }) => {
        const path = `${dir}/over.txt`;
        await context.writeFile(handle, path, 'a long first version');
        await context.writeFile(handle, path, 'short');
        expect(await context.readFile(handle, path)).toBe('short');
      },
    },
    {
      id: 'files/relative-paths',
      title: "relative paths resolve against the handle's cwd, for file methods and commands alike",
      needs: ['filesystem', 'shell'],
      exercises: ['filesystem'],
      run: async ({ fx, context, handle, dir }) => {
        const relative = `${posix.relative(handle.cwd, dir)}/relative.txt`;
        await context.writeFile(handle, relative, 'rel');
        expect(await context.readFile(handle, `${dir}/relative.txt`)).toBe('rel');
        expect(await fx.sh(`cat ${shQuote(relative)}`)).toBe('rel');
        expect((await context.listFiles(handle, posix.dirname(relative))).map((e) => e.name)).toContain(
          'relative.txt',
        );
      },
    },
    {
      id: 'files/shared-with-exec',
      title: 'file methods and commands see the same filesystem, both ways',
      needs: ['filesystem', 'shell'],
      exercises: ['filesystem'],
      run: async ({ fx, context, handle, dir }) => {
        await context.writeFile(handle, `${dir}/from-api.txt`, 'api \u20ac');
        expect(await fx.sh(`cat ${shQuote(`${dir}/from-api.txt`)}`)).toBe('api \u20ac');
        await fx.sh(`printf 'shell \\342\\202\\254' > ${shQuote(`${dir}/from-shell.txt`)}`);
        expect(await context.readFile(handle, `${dir}/from-shell.txt`)).toBe('shell \u20ac');
      },
    },
    {
      id: 'files/list-entries',
      title: 'listFiles on a directory lists its immediate entries with absolute path, name, type and size',
      needs: ['filesystem', 'shell'],
      exercises: ['filesystem'],
      run: async ({ fx, context, handle, dir }) => {
        const base = `${dir}/tree`;
        await context.writeFile(handle, `${base}/file.txt`, '12345');
        await context.writeFile(handle, `${base}/sub/inner.txt`, 'not listed');
        await fx.sh(`ln -s file.txt ${shQuote(`${base}/link`)}; mkdir ${shQuote(`${base}/empty`)}`);
        const entries = await context.listFiles(handle, base);
        const byName = new Map(entries.map((e) => [e.name, e]));
        expect([...byName.keys()].sort()).toEqual(['empty', 'file.txt', 'link', 'sub']);
        expect(byName.get('file.txt')).toMatchObject({ path: `${base}/file.txt`, type: 'file' });
        expect(byName.get('sub')).toMatchObject({ path: `${base}/sub`, type: 'directory' });
        expect(byName.get('empty')).toMatchObject({ path: `${base}/empty`, type: 'directory' });
        expect(byName.get('link')).toMatchObject({ path: `${base}/link`, type: 'symlink' });
        const size = byName.get('file.txt')?.size;
        if (size !== undefined) expect(size, 'size, when given, is the byte count').toBe(5);
        const mtime = byName.get('file.txt')?.mtimeMs;
        if (mtime !== undefined) expect(Number.isFinite(mtime)).toBe(true);
        expect(await context.listFiles(handle, `${base}/empty`), 'an empty directory lists nothing').toEqual(
          [],
        );
      },
    },
    {
      id: 'files/awkward-names',
      title: 'names with spaces, quotes, multibyte text and a leading dash round-trip through every method',
      needs: ['filesystem', 'shell'],
      exercises: ['filesystem'],
      run: async (scope) => {
        const { fx, context, handle, dir } = scope;
        const names = [
          'with space.txt',
          'it\'s "quoted".txt',
          '\u0444\u0430\u0439\u043b \u20ac.txt',
          '-dash.txt',
        ];
        for (const name of names) await context.writeFile(handle, `${dir}/names/${name}`, name);
        const listed = (await context.listFiles(handle, `${dir}/names`)).map((e) => e.name).sort();
        expect(listed).toEqual([...names].sort());
        for (const name of names) {
          const path = `${dir}/names/${name}`;
          expect(await context.readFile(handle, path), name).toBe(name);
          expect(await fileSize(scope, path), name).toBe(utf8.encode(name).length);
          expect(await fx.sh(`cat -- ${shQuote(path)}`), name).toBe(name);
        }
      },
    },
    {
      id: 'files/missing',
      title: 'a missing path is a NotFoundError (E_NOT_FOUND) naming it, for every read method',
      needs: ['filesystem'],
      run: async ({ context, handle, dir }) => {
        const missing = `${dir}/no/such/file.txt`;
        const error = await expectBerthError(context.readFile(handle, missing), 'E_NOT_FOUND', 'readFile');
        expect(error.message).toContain(missing);
        if (context.readFileBytes) {
          await expectBerthError(context.readFileBytes(handle, missing), 'E_NOT_FOUND', 'readFileBytes');
        }
        await expectBerthError(context.listFiles(handle, `${dir}/no/such`), 'E_NOT_FOUND', 'listFiles');
      },
    },
    {
      id: 'files/directory-errors',
      title:
        'reading or overwriting a directory is E_IS_DIRECTORY; listing a file or writing under one is E_NOT_DIRECTORY',
      needs: ['filesystem'],
      run: async ({ context, handle, dir }) => {
        await context.writeFile(handle, `${dir}/d/file.txt`, 'x');
        await expectBerthError(context.readFile(handle, `${dir}/d`), 'E_IS_DIRECTORY', 'readFile(directory)');
        if (context.readFileBytes) {
          await expectBerthError(
            context.readFileBytes(handle, `${dir}/d`),
            'E_IS_DIRECTORY',
            'readFileBytes(directory)',
          );
        }
        await expectBerthError(
          context.writeFile(handle, `${dir}/d`, 'x'),
          'E_IS_DIRECTORY',
          'writeFile(directory)',
        );
        await expectBerthError(
          context.listFiles(handle, `${dir}/d/file.txt`),
          'E_NOT_DIRECTORY',
          'listFiles(file)',
        );
        await expectBerthError(
          context.writeFile(handle, `${dir}/d/file.txt/child.txt`, 'x'),
          'E_NOT_DIRECTORY',
          'writeFile below a file',
        );
        expect(await context.readFile(handle, `${dir}/d/file.txt`), 'the file below survived').toBe('x');
      },
    },
    {
      id: 'files/invalid-path',
      title: 'a path containing a NUL byte is an InvalidArgumentError, never an untyped error',
      needs: ['filesystem'],
      run: async ({ context, handle, dir }) => {
        const bad = `${dir}/nul\u0000byte.txt`;
        await expectBerthError(context.readFile(handle, bad), 'E_INVALID_ARGUMENT', 'readFile');
        await expectBerthError(context.writeFile(handle, bad, 'x'), 'E_INVALID_ARGUMENT', 'writeFile');
        await expectBerthError(context.listFiles(handle, bad), 'E_INVALID_ARGUMENT', 'listFiles');
      },
    },
    {
      id: 'files/invalid-types',
      title: 'a path or content of the wrong type is an InvalidArgumentError, never an untyped error',
      needs: ['filesystem'],
      run: async ({ context, handle, dir }) => {
        for (const path of [undefined, 42, { path: 'x' }]) {
          const bad = path as unknown as string;
          await expectBerthError(
            context.readFile(handle, bad),
            'E_INVALID_ARGUMENT',
            `readFile(${JSON.stringify(path)})`,
          );
          await expectBerthError(
            context.writeFile(handle, bad, 'x'),
            'E_INVALID_ARGUMENT',
            `writeFile(${JSON.stringify(path)})`,
          );
          await expectBerthError(
            context.listFiles(handle, bad),
            'E_INVALID_ARGUMENT',
            `listFiles(${JSON.stringify(path)})`,
          );
        }
        for (const content of [undefined, 42, { text: 'x' }]) {
          await expectBerthError(
            context.writeFile(handle, `${dir}/typed.txt`, content as unknown as string),
            'E_INVALID_ARGUMENT',
            `writeFile with content ${JSON.stringify(content)}`,
          );
        }
      },
    },
    {
      id: 'files/file-size',
      title: 'fileSize is the byte count of a file (0 when empty) and null for missing paths and directories',
      needs: ['filesystem'],
      run: async (scope) => {
        const { context, handle, dir } = scope;
        await context.writeFile(handle, `${dir}/sized.txt`, '\u20ac\u20ac');
        await context.writeFile(handle, `${dir}/empty.txt`, '');
        expect(await fileSize(scope, `${dir}/sized.txt`)).toBe(utf8.encode('\u20ac\u20ac').length);
        expect(await fileSize(scope, `${dir}/empty.txt`)).toBe(0);
        expect(await fileSize(scope, `${dir}/missing.txt`)).toBeNull();
        expect(await fileSize(scope, dir)).toBeNull();
      },
    },
    {
      id: 'files/read-range',
      title:
        'readFileRange returns exactly the bytes asked for: inside, across the end, at and past it, length 0, relative paths',
      needs: ['filesystem'],
      needsMethods: ['readFileRange'],
      run: async (scope) => {
        const { context, handle, dir } = scope;
        const read = context.readFileRange!.bind(context);
        const bytes = primeCycleBytes(300 * 1024);
        const path = `${dir}/ranged.bin`;
        await context.writeFile(handle, path, bytes);
        const expectRange = async (offset: number, length: number, expected: Uint8Array) => {
          const got = await read(handle, path, offset, length);
          expect(got, `readFileRange(${offset}, ${length})`).toBeInstanceOf(Uint8Array);
          expect(got.length, `length of readFileRange(${offset}, ${length})`).toBe(expected.length);
          expect(firstDifference(got, expected), `first differing byte of (${offset}, ${length})`).toBe(-1);
        };
        await expectRange(0, 10, bytes.subarray(0, 10));
        await expectRange(1000, 70_000, bytes.subarray(1000, 71_000));
        await expectRange(bytes.length - 10, 100, bytes.subarray(bytes.length - 10));
        await expectRange(bytes.length, 10, new Uint8Array());
        await expectRange(bytes.length + 5, 10, new Uint8Array());
        await expectRange(5, 0, new Uint8Array());
        // Relative paths resolve against the handle's cwd, as for every file method.
        const relative = posix.relative(scope.handle.cwd, path);
        expect(Buffer.from(await read(handle, relative, 7, 3))).toEqual(Buffer.from(bytes.subarray(7, 10)));
      },
    },
    {
      id: 'files/read-range-errors',
      title:
        'readFileRange: a missing path is NotFoundError, a directory E_IS_DIRECTORY, bad numbers InvalidArgumentError',
      needs: ['filesystem'],
      needsMethods: ['readFileRange'],
      run: async ({ context, handle, dir }) => {
        const read = context.readFileRange!.bind(context);
        await context.writeFile(handle, `${dir}/small.txt`, 'abc');
        await expectBerthError(read(handle, `${dir}/missing.txt`, 0, 1), 'E_NOT_FOUND', 'a missing path');
        await expectBerthError(read(handle, dir, 0, 1), 'E_IS_DIRECTORY', 'a directory');
        for (const [offset, length] of [
          [-1, 1],
          [0.5, 1],
          [0, -1],
          [0, 1.5],
          [Number.NaN, 1],
          ['1', 1],
          [0, 2 ** 60],
        ] as [number, number][]) {
          await expectBerthError(
            read(handle, `${dir}/small.txt`, offset, length),
            'E_INVALID_ARGUMENT',
            `offset ${String(offset)}, length ${String(length)}`,
          );
        }
      },
    },
    {
      id: 'files/read-range-huge',
      title: 'readFileRange reads the last bytes of a 5 GiB (sparse) file, past any whole-file read limit',
      needs: ['filesystem', 'shell'],
      needsMethods: ['readFileRange'],
      exercises: ['filesystem'],
      run: async (scope) => {
        const path = `${scope.dir}/huge-range.bin`;
        await scope.fx.sh(
          `dd if=/dev/zero of=${shQuote(path)} bs=1048576 count=0 seek=5120 2>/dev/null && printf tail >> ${shQuote(path)}`,
        );
        const end = 5 * 1024 ** 3 + 4;
        const got = await scope.context.readFileRange!(scope.handle, path, end - 6, 100);
        expect(Buffer.from(got).toString('latin1')).toBe('\0\0tail');
        await scope.fx.sh(`rm -f ${shQuote(path)}`);
      },
    },
    {
      id: 'files/file-size-huge',
      title: 'fileSize reports a 5 GiB (sparse) file exactly, without reading it',
      needs: ['filesystem', 'shell'],
      exercises: ['filesystem'],
      run: async (scope) => {
        const path = `${scope.dir}/huge.bin`;
        await scope.fx.sh(`dd if=/dev/zero of=${shQuote(path)} bs=1048576 count=0 seek=5120 2>/dev/null`);
        expect(await fileSize(scope, path)).toBe(5 * 1024 ** 3);
        await scope.fx.sh(`rm -f ${shQuote(path)}`);
      },
    },
  ],
};
