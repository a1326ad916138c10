import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ContainmentError, InvalidArgumentError, NotFoundError } from '../../src/errors/index.js';
import { createLocalFileSystem, type LocalFileSystem } from '../../src/vfs/index.js';

let base: string;
let ws: string;
let outside: string;
let fs: LocalFileSystem;

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'berth-vfs-'));
  ws = join(base, 'ws');
  outside = join(base, 'outside');
  mkdirSync(join(ws, 'src', 'a'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(outside, 'secret'), 'top secret');
  writeFileSync(join(ws, 'src', 'a', 'x.ts'), 'x');
  writeFileSync(join(ws, 'src', 'y.js'), 'y');
  writeFileSync(join(ws, '.hidden'), 'h');
  symlinkSync('../outside', join(ws, 'escape'));
  symlinkSync('src/a', join(ws, 'inner'));
  fs = createLocalFileSystem({ root: ws });
});

afterEach(() => {
  rmSync(base, { recursive: true, force: true });
});

const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('utf8');

describe('containment', () => {
  it('refuses an absolute path elsewhere', async () => {
    const error = await fs.readFile('/etc/passwd').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContainmentError);
    expect((error as ContainmentError).code).toBe('E_CONTAINMENT');
    expect((error as Error).message).toContain('an absolute path elsewhere');
  });

  it("refuses '..' that climbs out", async () => {
    const error = await fs.readFile(`${ws}/../outside/secret`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContainmentError);
    expect((error as Error).message).toContain("'..'");
  });

  it('refuses a symlink on the way that leads out, for every operation', async () => {
    const target = join(ws, 'escape', 'secret');
    await expect(fs.readFile(target)).rejects.toBeInstanceOf(ContainmentError);
    await expect(fs.list(join(ws, 'escape'))).rejects.toBeInstanceOf(ContainmentError);
    await expect(fs.writeFile(join(ws, 'escape', 'planted'), Buffer.from('x'))).rejects.toBeInstanceOf(
      ContainmentError,
    );
    expect(existsSync(join(outside, 'planted'))).toBe(false);
    expect(await fs.size(target)).toBeNull();
  });

  it('refuses a final-component symlink to a file outside (no size leak)', async () => {
    symlinkSync(join(outside, 'secret'), join(ws, 'link-to-secret'));
    await expect(fs.readFile(join(ws, 'link-to-secret'))).rejects.toBeInstanceOf(ContainmentError);
    expect(await fs.size(join(ws, 'link-to-secret'))).toBeNull();
    await expect(fs.writeFile(join(ws, 'link-to-secret'), Buffer.from('owned'))).rejects.toBeInstanceOf(
      ContainmentError,
    );
    expect(readFileSync(join(outside, 'secret'), 'utf8')).toBe('top secret');
  });

  it('refuses a dangling symlink that points outside (a write would create the file there)', async () => {
    symlinkSync(join(outside, 'not-yet'), join(ws, 'dangling'));
    await expect(fs.writeFile(join(ws, 'dangling'), Buffer.from('x'))).rejects.toBeInstanceOf(
      ContainmentError,
    );
    expect(existsSync(join(outside, 'not-yet'))).toBe(false);
  });

  it('follows symlinks that stay inside', async () => {
    expect(text(await fs.readFile(join(ws, 'inner', 'x.ts')))).toBe('x');
    expect(await fs.size(join(ws, 'inner', 'x.ts'))).toBe(1);
    await fs.writeFile(join(ws, 'inner', 'made.txt'), Buffer.from('m'));
    expect(readFileSync(join(ws, 'src', 'a', 'made.txt'), 'utf8')).toBe('m');
  });

  it('refuses a symlink loop with a clear error instead of hanging', async () => {
    symlinkSync('loop2', join(ws, 'loop1'));
    symlinkSync('loop1', join(ws, 'loop2'));
    const error = await fs.readFile(join(ws, 'loop1')).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/symlinks on the way/);
  });

  it('a symlink swapped in after an earlier check does not redirect a later write', async () => {
    // First write resolves src/ as a real directory; then src/ is replaced by a link outside.
    await fs.writeFile(join(ws, 'src', 'first.txt'), Buffer.from('1'));
    rmSync(join(ws, 'src'), { recursive: true });
    symlinkSync(outside, join(ws, 'src'));
    await expect(fs.writeFile(join(ws, 'src', 'second.txt'), Buffer.from('2'))).rejects.toBeInstanceOf(
      ContainmentError,
    );
    expect(existsSync(join(outside, 'second.txt'))).toBe(false);
  });

  it('refuses lexically before any I/O: even with the root gone, an escape is ContainmentError', async () => {
    rmSync(ws, { recursive: true });
    await expect(fs.readFile('/etc/passwd')).rejects.toBeInstanceOf(ContainmentError);
    await expect(fs.writeFile(`${ws}/../planted`, Buffer.from('x'))).rejects.toBeInstanceOf(ContainmentError);
    expect(existsSync(join(base, 'planted'))).toBe(false);
    // Inside the (now missing) root, I/O happens and reports what it found.
    await expect(fs.readFile(join(ws, 'src', 'y.js'))).rejects.toMatchObject({ code: 'E_NOT_FOUND' });
  });

  it('a root that is not a directory is refused at construction', () => {
    expect(() => createLocalFileSystem({ root: join(ws, 'src', 'y.js') })).toThrow(InvalidArgumentError);
    expect(() => createLocalFileSystem({ root: join(base, 'missing') })).toThrow(/existing directory/);
    expect(() => createLocalFileSystem({ root: 'relative/root' })).toThrow(/absolute/);
  });

  it('accepts the root spelled through a symlink', async () => {
    symlinkSync(ws, join(base, 'ws-link'));
    const linked = createLocalFileSystem({ root: join(base, 'ws-link') });
    expect(text(await linked.readFile(join(base, 'ws-link', 'src', 'y.js')))).toBe('y');
    expect(text(await linked.readFile(join(ws, 'src', 'y.js')))).toBe('y');
  });
});

describe('files', () => {
  it('round-trips bytes and creates parents', async () => {
    const bytes = new Uint8Array([0, 255, 1, 254, 10, 13]);
    await fs.writeFile(join(ws, 'new', 'deep', 'f.bin'), bytes);
    expect([...(await fs.readFile(join(ws, 'new', 'deep', 'f.bin')))]).toEqual([...bytes]);
  });

  it('replaces a longer file completely', async () => {
    await fs.writeFile(join(ws, 'f'), Buffer.from('a long first version'));
    await fs.writeFile(join(ws, 'f'), Buffer.from('short'));
    expect(readFileSync(join(ws, 'f'), 'utf8')).toBe('short');
  });

  it('missing file, directory as file, file as directory', async () => {
    await expect(fs.readFile(join(ws, 'nope'))).rejects.toBeInstanceOf(NotFoundError);
    await expect(fs.readFile(join(ws, 'src'))).rejects.toMatchObject({ code: 'E_IS_DIRECTORY' });
    await expect(fs.writeFile(join(ws, 'src'), Buffer.from('x'))).rejects.toMatchObject({
      code: 'E_IS_DIRECTORY',
    });
    await expect(fs.list(join(ws, 'src', 'y.js'))).rejects.toMatchObject({ code: 'E_NOT_DIRECTORY' });
    await expect(fs.writeFile(join(ws, 'src', 'y.js', 'child'), Buffer.from('x'))).rejects.toMatchObject({
      code: 'E_NOT_DIRECTORY',
    });
    await expect(fs.list(join(ws, 'nope'))).rejects.toBeInstanceOf(NotFoundError);
  });

  it('refuses a FIFO without hanging', async () => {
    const { execFileSync } = await import('node:child_process');
    execFileSync('mkfifo', [join(ws, 'pipe')]);
    await expect(fs.readFile(join(ws, 'pipe'))).rejects.toMatchObject({ code: 'E_IO' });
    expect(await fs.size(join(ws, 'pipe'))).toBeNull();
    await expect(fs.writeFile(join(ws, 'pipe'), Buffer.from('x'))).rejects.toMatchObject({ code: 'E_IO' });
  });

  it('enforces maxReadBytes before reading', async () => {
    const small = createLocalFileSystem({ root: ws, maxReadBytes: 4 });
    await fs.writeFile(join(ws, 'big'), Buffer.alloc(5));
    await expect(small.readFile(join(ws, 'big'))).rejects.toMatchObject({ code: 'E_FILE_TOO_LARGE' });
    expect(await small.readFile(join(ws, 'src', 'y.js'))).toHaveLength(1);
  });

  it('fileSize: number for files, null otherwise', async () => {
    expect(await fs.size(join(ws, 'src', 'y.js'))).toBe(1);
    expect(await fs.size(join(ws, 'src'))).toBeNull();
    expect(await fs.size(join(ws, 'missing'))).toBeNull();
    expect(await fs.size('/etc/passwd')).toBeNull();
  });

  it('bad path arguments are InvalidArgumentError naming the field', async () => {
    await expect(fs.readFile('relative')).rejects.toMatchObject({
      code: 'E_INVALID_ARGUMENT',
      field: 'path',
    });
    await expect(fs.readFile('')).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(fs.readFile(`${ws}/a\0b`)).rejects.toThrow(/NUL/);
    await expect(fs.readFile(42 as unknown as string)).rejects.toThrow(/must be a string, got number/);
    await expect(fs.writeFile(join(ws, 'f'), 'text' as unknown as Uint8Array)).rejects.toMatchObject({
      field: 'content',
    });
  });
});

describe('listing and globs', () => {
  it('lists immediate entries with type, size and mtime', async () => {
    const entries = await fs.list(ws);
    expect(entries.map((e) => `${e.name}:${e.type}`)).toEqual([
      '.hidden:file',
      'escape:symlink',
      'inner:symlink',
      'src:directory',
    ]);
    const hidden = entries[0]!;
    expect(hidden.path).toBe(join(ws, '.hidden'));
    expect(hidden.size).toBe(1);
    expect(typeof hidden.mtimeMs).toBe('number');
  });

  it('matches * ? [] {} and ** and never descends symlinks', async () => {
    writeFileSync(join(ws, 'src', 'b1.ts'), '');
    writeFileSync(join(ws, 'src', 'b2.ts'), '');
    writeFileSync(join(ws, 'src', 'c3.ts'), '');
    const paths = async (pattern: string) => (await fs.glob(pattern)).map((e) => e.path.slice(ws.length + 1));
    expect(await paths(`${ws}/**/*.{ts,js}`)).toEqual([
      'src/a/x.ts',
      'src/b1.ts',
      'src/b2.ts',
      'src/c3.ts',
      'src/y.js',
    ]);
    expect(await paths(`${ws}/src/b?.ts`)).toEqual(['src/b1.ts', 'src/b2.ts']);
    expect(await paths(`${ws}/src/[bc][13].ts`)).toEqual(['src/b1.ts', 'src/c3.ts']);
    expect(await paths(`${ws}/src/[!b]*.ts`)).toEqual(['src/c3.ts']);
    expect(await paths(`${ws}/*`)).toEqual(['escape', 'inner']);
    expect(await paths(`${ws}/.*`)).toEqual(['.hidden']);
    expect(await paths(`${ws}/nothing/**/*`)).toEqual([]);
  });

  it('a glob cannot reach outside the root', async () => {
    await expect(fs.glob('/etc/*')).rejects.toBeInstanceOf(ContainmentError);
    await expect(fs.glob(`${ws}/../outside/*`)).rejects.toBeInstanceOf(ContainmentError);
    await expect(fs.glob(`${ws}/escape/*`)).rejects.toBeInstanceOf(ContainmentError);
  });

  it('caps the number of entries instead of growing without bound', async () => {
    const capped = createLocalFileSystem({ root: ws, maxEntries: 2 });
    await expect(capped.list(ws)).rejects.toThrow(/maxEntries=2/);
    await expect(capped.glob(`${ws}/**/*`)).rejects.toThrow(/maxEntries=2/);
  });
});

describe('relative paths', () => {
  it('resolve against options.cwd, and are classified in errors as the caller wrote them', async () => {
    expect(text(await fs.readFile('src/y.js', { cwd: ws }))).toBe('y');
    expect(text(await fs.readFile('../y.js', { cwd: join(ws, 'src', 'a') }))).toBe('y');
    const error = (await fs
      .readFile('../../outside/secret', { cwd: join(ws, 'src') })
      .catch((e: unknown) => e)) as ContainmentError;
    expect(error).toBeInstanceOf(ContainmentError);
    expect(error.path).toBe('../../outside/secret');
    expect(error.message).toContain("'..' climbs out of it");
    expect((await fs.glob('src/*.js', { cwd: ws })).map((e) => e.path)).toEqual([join(ws, 'src', 'y.js')]);
    expect(await fs.size('y.js', { cwd: join(ws, 'src') })).toBe(1);
    await expect(fs.readFile('y.js', { cwd: 'relative' })).rejects.toMatchObject({ field: 'path' });
  });
});

describe('without a root', () => {
  it('reaches any path, following symlinks', async () => {
    const open = createLocalFileSystem();
    expect(open.root).toBeNull();
    expect(text(await open.readFile(join(ws, 'escape', 'secret')))).toBe('top secret');
    expect(await open.size(join(ws, 'escape', 'secret'))).toBe(10);
  });
});

describe('realPath', () => {
  it('resolves symlinks and appends missing components', async () => {
    expect(await fs.realPath(join(ws, 'inner', 'zz', 'q'))).toBe(join(ws, 'src', 'a', 'zz', 'q'));
    expect(await fs.realPath(join(ws, 'src', 'y.js'))).toBe(join(ws, 'src', 'y.js'));
    await expect(fs.realPath(join(ws, 'escape', 'q'))).rejects.toBeInstanceOf(ContainmentError);
  });
});

describe('check-then-use race', () => {
  it('a directory flipped to an outside symlink by another process never lets a write or read through', async () => {
    const { spawn } = await import('node:child_process');
    mkdirSync(join(ws, 'flip'));
    writeFileSync(join(outside, 'inside-name'), 'outside bytes');
    // Another process swaps ws/flip between a real directory and a symlink to the outside, nonstop.
    const script = `while :; do mv -T ${ws}/flip ${ws}/flip.real 2>/dev/null; ln -s ${outside} ${ws}/flip 2>/dev/null; rm -f ${ws}/flip; mv -T ${ws}/flip.real ${ws}/flip 2>/dev/null; done`;
    const flipper = spawn('/bin/sh', ['-c', script], { stdio: 'ignore' });
    try {
      const leaked: string[] = [];
      let written = 0;
      for (let round = 0; round < 400; round++) {
        await fs
          .writeFile(join(ws, 'flip', `w${round}`), Buffer.from('x'))
          .then(() => written++)
          .catch(() => undefined);
        const read = await fs.readFile(join(ws, 'flip', 'inside-name')).catch(() => null);
        if (read) leaked.push(text(read));
      }
      expect(leaked).toEqual([]);
      expect(written).toBeGreaterThan(0); // the race was live: some writes landed inside
    } finally {
      flipper.kill('SIGKILL');
    }
    const { readdirSync } = await import('node:fs');
    expect(readdirSync(outside).sort()).toEqual(['inside-name', 'secret']);
  });
});
