import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { encodeTar, TarDecoder, type TarEntry } from '../../src/archive/tar-codec.js';
import { ProtocolError } from '../../src/errors/index.js';

const work = mkdtempSync(join(tmpdir(), 'berth-tar-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function decodeAll(
  archive: Uint8Array,
  chunkSize = archive.length,
): { entries: TarEntry[]; data: Map<string, Buffer> } {
  const entries: TarEntry[] = [];
  const data = new Map<string, Buffer>();
  let current = '';
  const decoder = new TarDecoder({
    onEntry(entry) {
      entries.push(entry);
      current = entry.name;
      data.set(current, Buffer.alloc(0));
      return true;
    },
    onData(slice) {
      data.set(current, Buffer.concat([data.get(current)!, slice]));
    },
  });
  for (let offset = 0; offset < archive.length; offset += chunkSize) {
    decoder.push(archive.subarray(offset, offset + chunkSize));
  }
  decoder.end();
  return { entries, data };
}

const longName = `${'deep/'.repeat(30)}file-with-a-long-name.txt`;

describe('encodeTar', () => {
  it('writes archives the system tar extracts byte for byte, long names included', () => {
    const binary = new Uint8Array(1500).map((_, index) => (index * 7) % 256);
    const archive = encodeTar([
      { name: 'short.txt', data: Buffer.from('hello\n') },
      { name: longName, data: binary, mode: 0o600 },
      { name: 'empty', data: new Uint8Array(0) },
      { name: 'ü-名前.txt', data: Buffer.from('unicode name') },
    ]);
    expect(archive.length % 512).toBe(0);
    const dir = join(work, 'extract');
    mkdirSync(dir);
    writeFileSync(join(work, 'out.tar'), archive);
    execFileSync('tar', ['-xf', join(work, 'out.tar'), '-C', dir]);
    expect(readFileSync(join(dir, 'short.txt'), 'utf8')).toBe('hello\n');
    expect(new Uint8Array(readFileSync(join(dir, longName)))).toEqual(binary);
    expect(readFileSync(join(dir, 'empty')).length).toBe(0);
    expect(readFileSync(join(dir, 'ü-名前.txt'), 'utf8')).toBe('unicode name');
    const listing = execFileSync('tar', ['-tvf', join(work, 'out.tar')], { encoding: 'utf8' });
    expect(listing).toMatch(/-rw------- .*file-with-a-long-name\.txt/);
  });

  it('round-trips through its own decoder in chunks of any size', () => {
    const data = Buffer.from('x'.repeat(1025));
    const archive = encodeTar([
      { name: 'a', data },
      { name: longName, data: Buffer.from('long') },
    ]);
    for (const chunkSize of [1, 7, 512, 513, archive.length]) {
      const { entries, data: contents } = decodeAll(archive, chunkSize);
      expect(entries.map((entry) => entry.name)).toEqual(['a', longName]);
      expect(contents.get('a')).toEqual(data);
      expect(contents.get(longName)?.toString()).toBe('long');
    }
  });
});

describe('TarDecoder', () => {
  it('reads GNU long names, pax records, directories and symlinks written by the system tar', () => {
    const src = join(work, 'src');
    mkdirSync(join(src, 'sub'), { recursive: true });
    writeFileSync(join(src, 'sub', 'a.txt'), 'A');
    mkdirSync(join(src, ...longName.split('/').slice(0, -1)), { recursive: true });
    writeFileSync(join(src, longName), 'L');
    symlinkSync('sub/a.txt', join(src, 'link'));
    for (const format of ['gnu', 'pax', 'ustar']) {
      const file = join(work, `${format}.tar`);
      const members = format === 'ustar' ? ['sub', 'link'] : ['sub', 'link', longName];
      execFileSync('tar', [`--format=${format}`, '-cf', file, '-C', src, ...members]);
      const { entries, data } = decodeAll(readFileSync(file), 100);
      const byName = new Map(entries.map((entry) => [entry.name.replace(/\/$/, ''), entry]));
      expect(byName.get('sub')?.type).toBe('directory');
      expect(byName.get('sub/a.txt')?.type).toBe('file');
      expect(data.get('sub/a.txt')?.toString()).toBe('A');
      expect(byName.get('link')).toMatchObject({ type: 'symlink', linkName: 'sub/a.txt' });
      if (format !== 'ustar') expect(data.get(longName)?.toString()).toBe('L');
    }
  });

  it('rejects a corrupt header with ProtocolError', () => {
    const archive = encodeTar([{ name: 'a', data: Buffer.from('x') }]);
    archive[0] = 0x62; // change the name without fixing the checksum
    expect(() => decodeAll(archive)).toThrow(ProtocolError);
    expect(() => decodeAll(archive)).toThrow(/checksum/);
  });

  it('rejects an archive cut inside a member', () => {
    const archive = encodeTar([{ name: 'a', data: Buffer.alloc(600) }]);
    expect(() => decodeAll(archive.subarray(0, 700))).toThrow(/ended inside a member/);
  });

  it('skips the data of entries the sink declines', () => {
    const archive = encodeTar([
      { name: 'skip', data: Buffer.alloc(1000, 1) },
      { name: 'keep', data: Buffer.from('kept') },
    ]);
    const seen: string[] = [];
    let kept = '';
    const decoder = new TarDecoder({
      onEntry(entry) {
        seen.push(entry.name);
        return entry.name === 'keep';
      },
      onData(slice) {
        kept += Buffer.from(slice).toString();
      },
    });
    decoder.push(archive);
    expect(seen).toEqual(['skip', 'keep']);
    expect(kept).toBe('kept');
    expect(decoder.done).toBe(true);
  });
});
