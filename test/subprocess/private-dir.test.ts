import { spawnSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  openPrivateDirectory,
  PrivateDirectory,
  privateBase,
  privateBasePaths,
  wellKnownPrivateBase,
} from '../../src/subprocess/private-dir.js';

const scratch = mkdtempSync(join(tmpdir(), 'berth-private-dir-test-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('the private base', () => {
  it('is $TMPDIR/berth-<uid>, a 0700 directory of this user, the same for the whole process', () => {
    const base = privateBase();
    expect(base.path).toBe(join(tmpdir(), `berth-${process.getuid!()}`));
    expect(base.path).toBe(wellKnownPrivateBase());
    const stat = lstatSync(base.path);
    expect(stat.isDirectory()).toBe(true);
    expect(stat.mode & 0o777).toBe(0o700);
    expect(stat.uid).toBe(process.getuid!());
    expect(privateBase()).toBe(base);
    expect(privateBasePaths()).toEqual([base.path]);
  });

  it('owner directories are fresh 0700 directories inside it', () => {
    const one = openPrivateDirectory('berth-test-');
    const two = openPrivateDirectory('berth-test-');
    try {
      expect(one.path.startsWith(`${privateBase().path}/berth-test-`)).toBe(true);
      expect(one.path).not.toBe(two.path);
      expect(lstatSync(one.path).mode & 0o777).toBe(0o700);
    } finally {
      one.remove();
      two.remove();
    }
    expect(() => lstatSync(one.path)).toThrow(/ENOENT/);
  });
});

describe('PrivateDirectory', () => {
  it('refuses to adopt a directory others can read, or a link', () => {
    const open = join(scratch, 'open');
    mkdirSync(open, { mode: 0o755 });
    expect(() => PrivateDirectory.adopt(open)).toThrow(/not a 0700 directory/);
    const link = join(scratch, 'link');
    mkdirSync(join(scratch, 'real'), { mode: 0o700 });
    symlinkSync(join(scratch, 'real'), link);
    expect(() => PrivateDirectory.adopt(link)).toThrow(/ELOOP|ENOTDIR/);
  });

  it('creates files exclusively (0600), and reads back only the file it created', () => {
    const dir = openPrivateDirectory('berth-test-');
    try {
      const { fd, identity } = dir.createFile('a.log');
      writeSync(fd, 'mine');
      closeSync(fd);
      expect(lstatSync(join(dir.path, 'a.log')).mode & 0o777).toBe(0o600);
      expect(() => dir.createFile('a.log')).toThrow(/EEXIST/);
      const readFd = dir.openFile('a.log', identity);
      const buffer = Buffer.alloc(16);
      expect(buffer.subarray(0, readSync(readFd, buffer)).toString()).toBe('mine');
      closeSync(readFd);

      // A link planted under the name is not followed; another file under the name (a hard link
      // to a secret) is refused.
      writeFileSync(join(scratch, 'secret'), 'secret');
      unlinkSync(join(dir.path, 'a.log'));
      symlinkSync(join(scratch, 'secret'), join(dir.path, 'a.log'));
      expect(() => dir.openFile('a.log', identity)).toThrow(/replaced by a symbolic link/);
      unlinkSync(join(dir.path, 'a.log'));
      linkSync(join(scratch, 'secret'), join(dir.path, 'a.log'));
      expect(() => dir.openFile('a.log', identity)).toThrow(/replaced by another file/);
    } finally {
      dir.remove();
    }
  });

  it('refuses to create once the directory was moved and a link put in its place', () => {
    const dir = openPrivateDirectory('berth-test-');
    const moved = `${dir.path}.moved`;
    const outside = join(scratch, 'outside');
    mkdirSync(outside);
    try {
      expect(dir.inPlace).toBe(true);
      renameSync(dir.path, moved);
      symlinkSync(outside, dir.path);
      expect(dir.inPlace).toBe(false);
      expect(() => dir.createFile('b.log')).toThrow(/moved or replaced/);
      expect(() => dir.directory('sub')).toThrow(/moved or replaced/);
      expect(() => readFileSync(join(outside, 'b.log'))).toThrow(/ENOENT/);
    } finally {
      unlinkSync(dir.path);
      renameSync(moved, dir.path);
      dir.remove();
    }
  });
});

describe('directories of dead owners', () => {
  it('a context directory whose process died without its exit hook is swept by the next process', () => {
    const dead = spawnSync('true');
    expect(dead.status).toBe(0);
    // A pid that no longer runs (tagged with an impossible start time, so a reuse does not match).
    const name = `berth-process-${dead.pid}.1-Xy7Zq0`;
    const kept = `berth-subprocess-${dead.pid}.1-Kp3Lm9`;
    mkdirSync(join(privateBase().path, name, 'logs'), { recursive: true, mode: 0o700 });
    mkdirSync(join(privateBase().path, kept), { mode: 0o700 });
    const main = new URL('../../dist/subprocess/private-dir.js', import.meta.url).pathname;
    const child = spawnSync(process.execPath, [
      '--input-type=module',
      '-e',
      `const m = await import(${JSON.stringify(main)}); m.privateBase();`,
    ]);
    expect(child.status, String(child.stderr)).toBe(0);
    expect(existsSync(join(privateBase().path, name))).toBe(false);
    // A runtime's directory may hold spills a caller kept on purpose: never swept.
    expect(existsSync(join(privateBase().path, kept))).toBe(true);
    rmSync(join(privateBase().path, kept), { recursive: true });
  });

  it('owner directories carry this process’s tag', () => {
    const dir = openPrivateDirectory('berth-test-');
    try {
      expect(dir.path).toMatch(new RegExp(`/berth-test-${process.pid}\\.\\d+-\\w{6}$`));
    } finally {
      dir.remove();
    }
  });
});
