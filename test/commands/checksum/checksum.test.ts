import { base64Command } from '../../../src/commands/checksum/basenc.js';
import { checksumCommands } from '../../../src/commands/checksum/sums.js';
import type { CommandSpec } from '../../../src/commands/command.js';
import { oracleTable } from '../text/support/oracle-table.js';

const byName = (name: string): CommandSpec => {
  const spec = checksumCommands.find((s) => s.name === name);
  if (spec === undefined) throw new Error(`no ${name}`);
  return spec;
};

const files = {
  files: {
    a: 'hello\n',
    e: '',
    bin: Uint8Array.from([0, 1, 2, 255, 254, 10, 13]),
    'back\\slash': 'x',
    'new\nline': 'y',
    'sp ace': 'z',
    'c\rr': 'w',
    'd/x': '',
  },
};

oracleTable(byName('md5sum'), [
  { argv: ['md5sum', 'a', 'e', 'bin'], ...files },
  { argv: ['md5sum'], stdin: 'from stdin\n' },
  { argv: ['md5sum', '-', 'a'], stdin: 'x', ...files },
  { argv: ['md5sum', '-b', 'a'], ...files },
  { argv: ['md5sum', '--tag', 'a', 'sp ace'], ...files },
  { argv: ['md5sum', '-z', 'a', 'new\nline'], ...files },
  { argv: ['md5sum', 'back\\slash', 'new\nline', 'sp ace', 'c\rr'], ...files },
  { argv: ['md5sum', '--tag', 'new\nline'], ...files },
  { argv: ['md5sum', 'nonexist', 'a'], ...files },
  { argv: ['md5sum', 'd'], ...files },
  { argv: ['md5sum', '--bogus'] },
  { argv: ['md5sum', '--tag', '-t', 'a'], ...files },
  { argv: ['md5sum', '--status', 'a'], ...files },
  { argv: ['md5sum', '-c', '--tag', 'a'], ...files },
  { argv: ['md5sum', '-c', '-b', 'a'], ...files },
]);

const sums = {
  files: {
    ...files.files,
    'good.md5': 'b1946ac92492d2347c6235b4d2611834  a\nd41d8cd98f00b204e9800998ecf8427e *e\n',
    'bad.md5':
      'b1946ac92492d2347c6235b4d2611834  a\n00000000000000000000000000000000  e\nnot a line\nb1946ac92492d2347c6235b4d2611834  nonexist\n',
    'tag.md5': 'MD5 (a) = b1946ac92492d2347c6235b4d2611834\nMD5 (e) = d41d8cd98f00b204e9800998ecf8427e\n',
    'junk.md5': 'junk\nmore junk\n',
    'missing.md5': 'b1946ac92492d2347c6235b4d2611834  nonexist\nb1946ac92492d2347c6235b4d2611834  a\n',
    'only-missing.md5': 'b1946ac92492d2347c6235b4d2611834  nonexist\n',
    'escaped.md5':
      '\\9dd4e461268c8034f5c8564e155c67a6  back\\\\slash\n\\415290769594460e2e485922904f345d  new\\nline\n',
    'crlf.md5': 'b1946ac92492d2347c6235b4d2611834  a\r\n',
    'comments.md5': '# made by hand\n\nb1946ac92492d2347c6235b4d2611184  a\n\n',
    'reversed.md5': 'b1946ac92492d2347c6235b4d2611184 a\nd41d8cd98f00b204e9800998ecf8427e e\n',
  },
};

oracleTable(byName('md5sum'), [
  { argv: ['md5sum', '-c', 'good.md5'], ...sums },
  { argv: ['md5sum', '-c', 'bad.md5'], ...sums },
  { argv: ['md5sum', '-c', '--quiet', 'bad.md5'], ...sums },
  { argv: ['md5sum', '-c', '--status', 'bad.md5'], ...sums },
  { argv: ['md5sum', '-c', '-w', 'bad.md5'], ...sums },
  { argv: ['md5sum', '-c', '--strict', 'good.md5', 'junk.md5'], ...sums },
  { argv: ['md5sum', '-c', 'tag.md5'], ...sums },
  { argv: ['md5sum', '-c', 'junk.md5'], ...sums },
  { argv: ['md5sum', '-c', '--ignore-missing', 'missing.md5'], ...sums },
  { argv: ['md5sum', '-c', '--ignore-missing', 'good.md5', 'only-missing.md5'], ...sums },
  { argv: ['md5sum', '-c', '-w', 'comments.md5'], ...sums },
  { argv: ['md5sum', '-c', '-w', 'reversed.md5'], ...sums },
  { argv: ['md5sum', '-c', '--ignore-missing', 'only-missing.md5'], ...sums },
  { argv: ['md5sum', '-c', 'escaped.md5'], ...sums },
  { argv: ['md5sum', '-c', 'crlf.md5'], ...sums },
  { argv: ['md5sum', '-c'], stdin: 'b1946ac92492d2347c6235b4d2611834  a\n', ...sums },
  { argv: ['md5sum', '-c', 'nonexist.md5'], ...sums },
]);

for (const name of ['sha1sum', 'sha224sum', 'sha256sum', 'sha384sum', 'sha512sum'])
  oracleTable(byName(name), [
    { argv: [name, 'a', 'e', 'bin'], ...files },
    { argv: [name, '--tag', 'a'], ...files },
    { argv: [name, 'nonexist'], ...files },
    { argv: [name, '-x'] },
  ]);

oracleTable(byName('sha256sum'), [
  {
    argv: ['sha256sum', '-c', 'list'],
    files: {
      a: 'hello\n',
      list: '5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03  a\nSHA256 (a) = 0000000000000000000000000000000000000000000000000000000000000000\n',
    },
  },
]);

const big = 'The quick brown fox jumps over the lazy dog. '.repeat(5000);

oracleTable(base64Command, [
  { argv: ['base64'], stdin: 'hello\n' },
  { argv: ['base64'], stdin: '' },
  { argv: ['base64'], stdin: big },
  { argv: ['base64', '-w', '0'], stdin: big.slice(0, 300) },
  { argv: ['base64', '-w', '7'], stdin: 'abcdefghijklmnop' },
  { argv: ['base64', 'bin'], ...files },
  { argv: ['base64', 'nonexist'] },
  { argv: ['base64', 'a', 'b'] },
  { argv: ['base64', '-w', 'x'] },
  { argv: ['base64', '--bogus'] },
  { argv: ['base64', '-d'], stdin: 'aGVsbG8K\n' },
  {
    argv: ['base64', '-d'],
    stdin: Buffer.from(big)
      .toString('base64')
      .replace(/(.{76})/g, '$1\n'),
  },
  { argv: ['base64', '-d'], stdin: 'YQ' },
  { argv: ['base64', '-d'], stdin: 'YQ==YQ==' },
  { argv: ['base64', '-d'], stdin: 'Y Q==' },
  { argv: ['base64', '-d'], stdin: 'YQ=\n=' },
  { argv: ['base64', '-d'], stdin: 'YWJj!ZGVm' },
  { argv: ['base64', '-d'], stdin: 'YWJjZGVm!' },
  { argv: ['base64', '-d'], stdin: '=YWJj' },
  { argv: ['base64', '-d'], stdin: 'YW=j' },
  { argv: ['base64', '-di'], stdin: 'Y*Q=!=' },
  { argv: ['base64', '-d', '-i'], stdin: 'YW Jj\tZG\x01Vm' },
  { argv: ['base64', '-d'], stdin: '' },
  { argv: ['base64', '-d'], stdin: '\udcff' },
]);
