import { describe, expect, it } from 'vitest';
import {
  compareVfsNames,
  isVfsPathWithin,
  joinVfsPath,
  normalizeVfsPath,
  relativeVfsPath,
  splitVfsPath,
  utf8Length,
  VfsError,
  vfsBasename,
  vfsDirname,
} from '../../src/vfs/index.js';

describe('vfs paths', () => {
  it('normalizes lexically against a cwd', () => {
    expect(normalizeVfsPath('/a//b/./c/')).toBe('/a/b/c');
    expect(normalizeVfsPath('/../..')).toBe('/');
    expect(normalizeVfsPath('x/../y', '/home/me')).toBe('/home/me/y');
    expect(normalizeVfsPath('.', '/w')).toBe('/w');
    expect(() => normalizeVfsPath('x')).toThrow(VfsError);
    expect(() => normalizeVfsPath('')).toThrow(/non-empty/);
    expect(() => normalizeVfsPath('/a\0')).toThrow(/NUL/);
  });

  it('splits, joins, and names parents and bases', () => {
    expect(splitVfsPath('/')).toEqual([]);
    expect(splitVfsPath('/a/b')).toEqual(['a', 'b']);
    expect(joinVfsPath('/a', 'b', '../c')).toBe('/a/c');
    expect(joinVfsPath('/a', '/abs', 'x')).toBe('/abs/x');
    expect(vfsDirname('/a/b')).toBe('/a');
    expect(vfsDirname('/a')).toBe('/');
    expect(vfsBasename('/a/b')).toBe('b');
    expect(isVfsPathWithin('/a', '/a/b')).toBe(true);
    expect(isVfsPathWithin('/a', '/ab')).toBe(false);
    expect(isVfsPathWithin('/', '/x')).toBe(true);
    expect(relativeVfsPath('/a', '/a/b/c')).toBe('b/c');
    expect(relativeVfsPath('/', '/x')).toBe('x');
  });

  it('orders names as UTF-8 bytes, and counts their bytes', () => {
    const names = ['\u{1F600}', '\uFF21', 'b', 'B', 'a'];
    expect([...names].sort(compareVfsNames)).toEqual(['B', 'a', 'b', '\uFF21', '\u{1F600}']);
    const byBytes = [...names].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)));
    expect([...names].sort(compareVfsNames)).toEqual(byBytes);
    expect(utf8Length('a\u00e9\u20ac\u{1F600}')).toBe(1 + 2 + 3 + 4);
  });
});
