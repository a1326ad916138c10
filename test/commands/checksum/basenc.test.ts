import { base32Command, basencCommand } from '../../../src/commands/checksum/basenc.js';
import { ENCODINGS } from '../../../src/commands/checksum/encodings.js';
import { oracleTable } from '../text/support/oracle-table.js';

const big = 'The quick brown fox jumps over the lazy dog. '.repeat(5000);
const bin = Uint8Array.from({ length: 256 }, (_, i) => i);
// Past coreutils' 30720-byte z85 read: the whole blocks are written before the short one fails.
const z85Long = 'abcd'.repeat(7681).slice(0, 30722);

oracleTable(base32Command, [
  { argv: ['base32'], stdin: 'hello\n' },
  { argv: ['base32'], stdin: '' },
  { argv: ['base32'], stdin: big },
  { argv: ['base32', '-w', '0'], stdin: big.slice(0, 300) },
  { argv: ['base32', '-w', '5'], stdin: 'abcdefghijklmnop' },
  { argv: ['base32', 'bin'], files: { bin } },
  { argv: ['base32'], stdin: 'a' },
  { argv: ['base32'], stdin: 'ab' },
  { argv: ['base32'], stdin: 'abc' },
  { argv: ['base32'], stdin: 'abcd' },
  { argv: ['base32', 'nonexist'] },
  { argv: ['base32', 'a', 'b'] },
  { argv: ['base32', '-w', '-1'] },
  { argv: ['base32', '--base64'] },
  { argv: ['base32', '-d'], stdin: 'NBSWY3DPBI======\n' },
  // Any encoder's output serves as the input both sides decode; GNU is the judge.
  {
    argv: ['base32', '-d'],
    stdin: (ENCODINGS.get('base32')?.encode(Buffer.from(big)) ?? '').replace(/(.{76})/g, '$1\n'),
  },
  { argv: ['base32', '-d'], stdin: 'MFRGG===' },
  { argv: ['base32', '-d'], stdin: 'MFRGG' },
  { argv: ['base32', '-d'], stdin: 'MFRGGZDFMZTQ' },
  { argv: ['base32', '-d'], stdin: 'MFRG\nGZDF\n' },
  { argv: ['base32', '-d'], stdin: 'MFRGGZDF!FRGGZDF' },
  { argv: ['base32', '-d'], stdin: 'MFRG!ZDF' },
  { argv: ['base32', '-d'], stdin: 'MF======MF======' },
  { argv: ['base32', '-d'], stdin: 'MF=====A' },
  { argv: ['base32', '-d'], stdin: 'mfrggzdf' },
  { argv: ['base32', '-di'], stdin: 'MF*RG GZ\tDF' },
  { argv: ['base32', '-d'], stdin: '' },
]);

oracleTable(basencCommand, [
  { argv: ['basenc'] },
  { argv: ['basenc', '--bogus'] },
  { argv: ['basenc', '--base64', '--base32'], stdin: 'hello\n' },
  ...['--base64', '--base64url', '--base32', '--base32hex', '--base16', '--base2msbf', '--base2lsbf'].flatMap(
    (e) => [
      { argv: ['basenc', e], stdin: 'hello\n' },
      { argv: ['basenc', e, 'bin'], files: { bin } },
      { argv: ['basenc', e, '-w', '9'], stdin: big.slice(0, 100) },
      { argv: ['basenc', e, '-w0'], stdin: 'x' },
    ],
  ),
  { argv: ['basenc', '--base64url'], stdin: Uint8Array.from([0xfb, 0xff, 0xfe]) },
  { argv: ['basenc', '--base64url', '-d'], stdin: '-__-' },
  { argv: ['basenc', '--base64url', '-d'], stdin: 'YWJj+ZGVm' },
  { argv: ['basenc', '--base64url', '-d'], stdin: 'YWJj/' },
  { argv: ['basenc', '--base64url', '-di'], stdin: 'YW+Jj' },
  { argv: ['basenc', '--base64', '-d'], stdin: 'YW!j' },
  { argv: ['basenc', '--base32hex', '-d'], stdin: 'C5H66===\n' },
  { argv: ['basenc', '--base32hex', '-d'], stdin: 'C5H6W===' },
  { argv: ['basenc', '--base32hex', '-di'], stdin: 'C5H6W===' },
  { argv: ['basenc', '--base32hex', '-d'], stdin: 'c5h66===' },
  { argv: ['basenc', '--base16', '-d'], stdin: '68656C6C6F0A' },
  { argv: ['basenc', '--base16', '-d'], stdin: '68656c6c6f0a' },
  { argv: ['basenc', '--base16', '-d'], stdin: '414' },
  { argv: ['basenc', '--base16', '-d'], stdin: '41G2' },
  { argv: ['basenc', '--base16', '-d'], stdin: '41\n42\n' },
  { argv: ['basenc', '--base16', '-di'], stdin: '41 4a 42' },
  { argv: ['basenc', '--base16', '-di'], stdin: '41 xy 42' },
  { argv: ['basenc', '--base2msbf', '-d'], stdin: '0110100001101001' },
  { argv: ['basenc', '--base2lsbf', '-d'], stdin: '0001011010010110' },
  { argv: ['basenc', '--base2msbf', '-d'], stdin: '011010000110' },
  { argv: ['basenc', '--base2msbf', '-d'], stdin: '01101000201' },
  { argv: ['basenc', '--base2lsbf', '-di'], stdin: '0001 0110 x 1001 0110\n' },
  { argv: ['basenc', '--z85'], stdin: 'abcd' },
  { argv: ['basenc', '--z85'], stdin: Uint8Array.from([0x86, 0x4f, 0xd2, 0x6f, 0xb5, 0x59, 0xf7, 0x5b]) },
  { argv: ['basenc', '--z85'], stdin: 'abc' },
  { argv: ['basenc', '--z85'], stdin: '' },
  { argv: ['basenc', '--z85', 'bin'], files: { bin } },
  { argv: ['basenc', '--z85', '-w', '7'], stdin: 'abcdefgh' },
  { argv: ['basenc', '--z85'], stdin: z85Long },
  { argv: ['basenc', '--z85', '-d'], stdin: 'HelloWorld' },
  { argv: ['basenc', '--z85', '-d'], stdin: 'Hello\nWorld\n' },
  { argv: ['basenc', '--z85', '-d'], stdin: 'HelloWorl' },
  { argv: ['basenc', '--z85', '-d'], stdin: 'Hello"orld' },
  { argv: ['basenc', '--z85', '-d'], stdin: 'Hello%%%%%' },
  { argv: ['basenc', '--z85', '-di'], stdin: 'Hel lo~World' },
  { argv: ['basenc', '--base64', 'nonexist'] },
  { argv: ['basenc', '--base16', '-w', 'x'] },
]);
