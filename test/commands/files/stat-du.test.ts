import { describe, expect, it } from 'vitest';
import { dfCommand } from '../../../src/commands/files/df.js';
import { duCommand } from '../../../src/commands/files/du.js';
import { mktempCommand } from '../../../src/commands/files/mktemp.js';
import { statCommand } from '../../../src/commands/files/stat.js';
import { runStandalone } from '../../../src/commands/standalone.js';
import { createMemoryFilesystem } from '../../../src/vfs/index.js';
import { oracleTable } from '../text/support/oracle-table.js';
import { runText } from '../text/support/run-text.js';

const files = {
  files: { a: 'hello\n', e: '', 'big.bin': 'x'.repeat(10_000), 'd/in': 'in', 'd/sub/deep': 'd'.repeat(5000) },
  symlinks: { la: 'a', broken: 'nowhere' },
  modes: { a: 0o640, 'big.bin': 0o4755 },
  mtimes: { a: 1705312800, e: 1600000000, 'big.bin': 1700000000 },
};
/** Fields that do not depend on inode numbers, devices or change times (the host's). */
const portable = '%n|%s|%a|%A|%F|%h|%u|%g|%U|%G|%b|%B|%o|%x|%y|%X|%Y|%N|%f|%t|%T';
/** Symbolic links keep the host's creation times. */
const untimed = '%n|%s|%a|%A|%F|%h|%u|%g|%b|%N|%f';

oracleTable(statCommand, [
  { argv: ['stat', '-c', portable, 'a', 'e', 'big.bin'], ...files },
  { argv: ['stat', '-c', untimed, 'la', 'broken'], ...files },
  {
    argv: ['stat', '-c', '%w|%W', 'a'],
    ...files,
    known: 'the virtual filesystem keeps no birth times (- and 0)',
  },
  { argv: ['stat', '-c', '%5', 'a'], ...files },
  { argv: ['stat', '-L', '-c', portable, 'la'], ...files },
  { argv: ['stat', '-L', '-c', '%n', 'broken'], ...files },
  { argv: ['stat', '--printf', '%n\\t%s\\n\\x41\\101|%%|\\\\', 'a'], ...files },
  { argv: ['stat', '-c', '%10s|%-10s|%05a|%.3Y|%.9y|%+s|% s|%10.3s|%-5.2n|%#x', 'a'], ...files },
  { argv: ['stat', '-c', '%Q|%', 'a'], ...files },
  { argv: ['stat', '-c', '%y', 'a'], ...files, env: { TZ: 'Asia/Kolkata' } },
  { argv: ['stat', 'nonexist'] },
  { argv: ['stat'] },
  { argv: ['stat', '-x'] },
  {
    argv: ['stat', 'a'],
    ...files,
    known: "device, inode and change/birth times are the virtual filesystem's",
  },
]);

oracleTable(duCommand, [
  { argv: ['du', '-a', 'a', 'e', 'big.bin', 'la'], ...files },
  { argv: ['du', '-s', 'a', 'big.bin'], ...files },
  { argv: ['du', '-c', 'a', 'big.bin'], ...files },
  { argv: ['du', '-ch', 'a', 'big.bin'], ...files },
  { argv: ['du', '--apparent-size', 'a', 'big.bin', 'e'], ...files },
  { argv: ['du', '-b', 'a', 'big.bin', 'e'], ...files },
  { argv: ['du', '-k', 'big.bin'], ...files },
  { argv: ['du', '-m', 'big.bin'], ...files },
  { argv: ['du', '--si', 'big.bin'], ...files },
  { argv: ['du', '-B', 'K', 'big.bin'], ...files },
  { argv: ['du', '-0', 'a', 'e'], ...files },
  { argv: ['du', 'd/sub'], ...files },
  { argv: ['du', '-s', 'd'], ...files },
  { argv: ['du', '--inodes', '-s', 'd'], ...files },
  { argv: ['du', 'nonexist'] },
  { argv: ['du', '-sa', 'd'] },
  { argv: ['du', '-d', 'x'] },
  { argv: ['du', '-B', 'bogus', 'a'], ...files },
  { argv: ['du', '--block-size=bogus', 'a'], ...files },
]);

oracleTable(mktempCommand, [
  { argv: ['mktemp', 'aXX'] },
  { argv: ['mktemp', 'a', 'b'] },
  { argv: ['mktemp', '-p', '/nonexist'] },
  { argv: ['mktemp', 'XXX/aXXX'] },
  { argv: ['mktemp', '-t', '/abs/XXXX'] },
  { argv: ['mktemp', '-q', '/nonexist/XXXXXX'] },
  { argv: ['mktemp', '--suffix=a/b', 'xXXX'] },
]);

// df's figures are the virtual volumes' (tested below); its command line is GNU's.
oracleTable(dfCommand, [
  { argv: ['df', '--bogus'] },
  { argv: ['df', '-B', 'x'] },
  { argv: ['df', '--block-size=x'] },
  { argv: ['df', '--output=bogus'] },
  { argv: ['df', 'nonexist'] },
]);

describe('mktemp, du and df over the virtual filesystem', () => {
  it('mktemp makes a 0600 file and a 0700 directory from the template', async () => {
    const fs = createMemoryFilesystem();
    await fs.mkdir('/tmp', { recursive: true });
    const f = await runText(mktempCommand, ['mktemp'], { fs });
    expect(f.status).toBe(0);
    const name = f.stdout.trim();
    expect(name).toMatch(/^\/tmp\/tmp\.[A-Za-z0-9]{10}$/);
    expect((await fs.stat(name)).mode & 0o777).toBe(0o600);
    const d = await runText(mktempCommand, ['mktemp', '-d', '--suffix=.dir', 'workXXXXX'], { fs });
    expect(d.stdout).toMatch(/^work[A-Za-z0-9]{5}\.dir\n$/);
    const st = await fs.stat(`/work/${d.stdout.trim()}`);
    expect([st.type, st.mode & 0o777]).toEqual(['directory', 0o700]);
    const mid = await runText(mktempCommand, ['mktemp', 'fooXXXbar'], { fs });
    expect(mid.stdout).toMatch(/^foo[A-Za-z0-9]{3}bar\n$/);
    const dry = await runText(mktempCommand, ['mktemp', '-u', '-p', '/tmp'], { fs });
    await expect(fs.stat(dry.stdout.trim())).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('df reports the volumes the context gives, with budgets and use', async () => {
    const fs = createMemoryFilesystem();
    const r = await runStandalone(dfCommand.run, {
      argv: ['df', '-h'],
      fs,
      context: {
        volumes: () => [
          {
            source: 'memory',
            mountPoint: '/',
            type: 'memory',
            sizeBytes: 64 * 1024 * 1024,
            usedBytes: 3 * 1024 * 1024,
          },
          {
            source: 'overlay',
            mountPoint: '/workspace',
            type: 'overlay',
            sizeBytes: Number.POSITIVE_INFINITY,
            usedBytes: 1536,
          },
        ],
      },
    });
    expect(new TextDecoder().decode(r.stdout)).toBe(
      'Filesystem      Size  Used Avail Use% Mounted on\nmemory           64M  3.0M   61M   5% /\noverlay            -  1.5K     -    - /workspace\n',
    );
  });

  it('df without volumes counts the tree it walks', async () => {
    const fs = createMemoryFilesystem({ files: { '/a': 'x'.repeat(5000), '/d/b': 'y' } });
    const r = await runStandalone(dfCommand.run, { argv: ['df', '-i', '/d'], fs });
    expect(new TextDecoder().decode(r.stdout)).toBe(
      'Filesystem     Inodes IUsed IFree IUse% Mounted on\nvirtual             -     3     -     - /\n',
    );
  });

  it('du walks a deep tree without holding it and counts hard links once', async () => {
    const fs = createMemoryFilesystem();
    let dir = '/deep';
    for (let i = 0; i < 200; i += 1) dir += '/d';
    await fs.mkdir(dir, { recursive: true });
    await fs.writeFile(`${dir}/f`, new Uint8Array(4096));
    await fs.link(`${dir}/f`, '/deep/hard');
    const r = await runStandalone(duCommand.run, { argv: ['du', '-s', '/deep'], fs });
    expect(new TextDecoder().decode(r.stdout)).toBe(`${201 * 4 + 4}\t/deep\n`);
  });
});
