import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ContainmentError,
  InvalidArgumentError,
  NotFoundError,
} from '../../../src/contexts/process/index.js';
import { makeContext } from './helpers.js';

let base: string;
let ws: string;
beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'berth-files-'));
  ws = join(base, 'ws');
  mkdirSync(join(ws, 'src', 'lib'), { recursive: true });
  writeFileSync(join(base, 'secret.txt'), 'outside');
  writeFileSync(join(ws, 'src', 'a.ts'), 'export const a = 1;\n');
  writeFileSync(join(ws, 'src', 'lib', 'b.ts'), 'b');
  writeFileSync(join(ws, 'README.md'), '# hi');
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

describe('files berth keeps for a handle outside the root', () => {
  it('keepOutput and spills: readable by their handle through the file methods, by no other, gone with the handle', async () => {
    const ctx = makeContext({ workspaceRoot: ws, output: { maxOutputBytes: 4096 } });
    const h = await ctx.spawn({ cwd: ws });
    const other = await ctx.spawn({ cwd: ws });
    const kept = await ctx.keepOutput(h, 'stdout', 'the whole text\n');
    expect(kept.startsWith(ws)).toBe(false);
    expect(await ctx.readFile(h, kept)).toBe('the whole text\n');
    expect(await ctx.fileSize(h, kept)).toBe(15);
    expect(await ctx.realPath(h, kept)).toBe(kept);
    await expect(ctx.readFile(other, kept)).rejects.toBeInstanceOf(ContainmentError);
    const result = await ctx.exec(h, 'seq 1 5000');
    const spill = result.stdoutFacts.spillPath;
    expect(spill).not.toBeNull();
    expect((await ctx.readFile(h, spill!)).split('\n')[4999]).toBe('5000');
    await expect(ctx.readFile(h, `${spill}.x`)).rejects.toBeInstanceOf(ContainmentError);
    await expect(ctx.keepOutput(h, '', 'x')).rejects.toBeInstanceOf(InvalidArgumentError);
    await ctx.destroy(h);
    await expect(ctx.readFile(other, spill!)).rejects.toBeInstanceOf(ContainmentError);
    await ctx.destroy(other);
  });
});

describe('files through the process context', () => {
  it('reads, writes (creating parents), and resolves relative paths against the handle cwd', async () => {
    const ctx = makeContext();
    const h = await ctx.spawn({ cwd: ws });
    await ctx.writeFile(h, 'new/dir/note.txt', 'héllo');
    expect(readFileSync(join(ws, 'new', 'dir', 'note.txt'), 'utf8')).toBe('héllo');
    expect(await ctx.readFile(h, 'new/dir/note.txt')).toBe('héllo');
    expect(await ctx.readFile(h, join(ws, 'README.md'))).toBe('# hi');
    await ctx.writeFile(h, 'enc.txt', Buffer.from('bytes!').toString('base64'), 'base64');
    expect(readFileSync(join(ws, 'enc.txt'), 'utf8')).toBe('bytes!');
    await ctx.writeFile(h, 'latin.txt', 'é', 'latin1');
    expect([...readFileSync(join(ws, 'latin.txt'))]).toEqual([0xe9]);
  });

  it('keeps a UTF-8 byte order mark through readFile', async () => {
    const ctx = makeContext();
    const h = await ctx.spawn({ cwd: ws });
    await ctx.writeFile(h, 'bom.txt', new Uint8Array([0xef, 0xbb, 0xbf, 0x61]));
    expect(await ctx.readFile(h, 'bom.txt')).toBe('\uFEFFa');
  });

  it('round-trips binary bytes with readFileBytes', async () => {
    const ctx = makeContext();
    const h = await ctx.spawn({ cwd: ws });
    const bytes = new Uint8Array(Array.from({ length: 256 }, (_, i) => i));
    await ctx.writeFile(h, 'all.bin', bytes);
    expect([...(await ctx.readFileBytes!(h, 'all.bin'))]).toEqual([...bytes]);
    // Text reads decode invalid UTF-8 as U+FFFD rather than failing.
    expect(await ctx.readFile(h, 'all.bin')).toContain('\uFFFD');
  });

  it('missing files, directories as files, files as directories: typed errors', async () => {
    const ctx = makeContext();
    const h = await ctx.spawn({ cwd: ws });
    await expect(ctx.readFile(h, 'missing.txt')).rejects.toBeInstanceOf(NotFoundError);
    await expect(ctx.readFile(h, 'src')).rejects.toMatchObject({ code: 'E_IS_DIRECTORY' });
    await expect(ctx.writeFile(h, 'src', 'x')).rejects.toMatchObject({ code: 'E_IS_DIRECTORY' });
    await expect(ctx.listFiles(h, 'README.md')).rejects.toMatchObject({ code: 'E_NOT_DIRECTORY' });
    await expect(ctx.listFiles(h, 'nothing-here')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('listFiles: plain path lists entries with type, size, mtime; a glob lists matched files', async () => {
    const ctx = makeContext();
    const h = await ctx.spawn({ cwd: ws });
    const entries = await ctx.listFiles(h, '.');
    expect(entries.map((e) => [e.name, e.type])).toEqual([
      ['README.md', 'file'],
      ['src', 'directory'],
    ]);
    expect(entries[0]).toMatchObject({ path: join(ws, 'README.md'), size: 4 });
    expect(entries[0]!.mtimeMs).toBeGreaterThan(0);
    expect((await ctx.listFiles(h, '**/*.ts')).map((e) => e.path)).toEqual([
      join(ws, 'src', 'a.ts'),
      join(ws, 'src', 'lib', 'b.ts'),
    ]);
    expect((await ctx.listFiles(h, 'src/*.{ts,md}')).map((e) => e.name)).toEqual(['a.ts']);
    expect((await ctx.listFiles(h, '[A-Z]*')).map((e) => e.name)).toEqual(['README.md']);
    expect(await ctx.listFiles(h, 'src/?.js')).toEqual([]);
  });

  it('fileSize: bytes for files; null for missing, directories', async () => {
    const ctx = makeContext();
    const h = await ctx.spawn({ cwd: ws });
    expect(await ctx.fileSize!(h, 'README.md')).toBe(4);
    expect(await ctx.fileSize!(h, 'src')).toBeNull();
    expect(await ctx.fileSize!(h, 'missing')).toBeNull();
  });

  it('a huge file is refused by maxReadBytes before it is read; fileSize tells the caller first', async () => {
    const ctx = makeContext({ maxReadBytes: 1024 });
    const h = await ctx.spawn({ cwd: ws });
    await ctx.exec(h, 'head -c 5000 /dev/zero > big.bin');
    expect(await ctx.fileSize!(h, 'big.bin')).toBe(5000);
    await expect(ctx.readFileBytes!(h, 'big.bin')).rejects.toMatchObject({ code: 'E_FILE_TOO_LARGE' });
  });

  it('bad arguments are InvalidArgumentError naming the field', async () => {
    const ctx = makeContext();
    const h = await ctx.spawn({ cwd: ws });
    await expect(ctx.readFile(h, 5 as never)).rejects.toMatchObject({ field: 'path' });
    await expect(ctx.writeFile(h, 'x', { not: 'content' } as never)).rejects.toMatchObject({
      field: 'content',
    });
    await expect(ctx.writeFile(h, 'x', 'text', 'klingon' as never)).rejects.toMatchObject({
      field: 'encoding',
    });
    await expect(ctx.listFiles(h, '')).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(ctx.fileSize!(h, null as never)).rejects.toBeInstanceOf(InvalidArgumentError);
  });
});

describe('workspaceRoot containment through the context', () => {
  it('refuses absolute, .. and symlink escapes before any I/O, for every file method', async () => {
    symlinkSync(base, join(ws, 'up'));
    const ctx = makeContext({ workspaceRoot: ws });
    expect(ctx.capabilities.containment).toBe(true);
    const h = await ctx.spawn();
    expect(h.cwd).toBe(ws);
    for (const path of [join(base, 'secret.txt'), '../secret.txt', 'src/../../secret.txt', 'up/secret.txt']) {
      await expect(ctx.readFile(h, path), path).rejects.toBeInstanceOf(ContainmentError);
      await expect(ctx.readFileBytes!(h, path), path).rejects.toBeInstanceOf(ContainmentError);
      await expect(ctx.writeFile(h, path, 'pwned'), path).rejects.toBeInstanceOf(ContainmentError);
      expect(await ctx.fileSize!(h, path), path).toBeNull();
    }
    await expect(ctx.listFiles(h, '..')).rejects.toBeInstanceOf(ContainmentError);
    await expect(ctx.listFiles(h, 'up')).rejects.toBeInstanceOf(ContainmentError);
    await expect(ctx.listFiles(h, '../*')).rejects.toBeInstanceOf(ContainmentError);
    expect(readFileSync(join(base, 'secret.txt'), 'utf8')).toBe('outside');
    const error = (await ctx.readFile(h, '../secret.txt').catch((e: unknown) => e)) as ContainmentError;
    expect(error.path).toBe('../secret.txt');
    expect(error.root).toBe(ws);
    expect(error.message).toContain("'..' climbs out of it");
  });

  it('a handle cwd outside the root is refused; inside is fine', async () => {
    const ctx = makeContext({ workspaceRoot: ws });
    await expect(ctx.spawn({ cwd: base })).rejects.toBeInstanceOf(ContainmentError);
    const h = await ctx.spawn({ cwd: 'src' });
    expect(h.cwd).toBe(join(ws, 'src'));
    expect(await ctx.readFile(h, 'a.ts')).toBe('export const a = 1;\n');
  });

  it('shell commands are not contained by workspaceRoot (that is the sandbox)', async () => {
    const ctx = makeContext({ workspaceRoot: ws });
    const h = await ctx.spawn();
    expect((await ctx.exec(h, `cat ${join(base, 'secret.txt')}`)).stdout).toBe('outside');
  });
});
