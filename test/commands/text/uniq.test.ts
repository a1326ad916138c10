import { uniqCommand } from '../../../src/commands/text/uniq.js';
import { oracleTable } from './support/oracle-table.js';
import { binary, invalidUtf8 } from './support/run-text.js';

const text = 'a\na\nb\nc\nc\nc\nA\na\n\n\nd';
const fields = 'x 1 apple\ny 1 apple\nz 2 apple\nz 2 Apple\nq  3 banana\nr 3 banana\n';
const files = { text, fields };
const u = (args: string[], stdin?: string | Uint8Array) => ({ argv: ['uniq', ...args], stdin, files });

oracleTable(
  uniqCommand,
  [
    u(['text']),
    u([], text),
    u(['-c', 'text']),
    u(['-d', 'text']),
    u(['-u', 'text']),
    u(['-du', 'text']),
    u(['-D', 'text']),
    u(['--all-repeated=prepend', 'text']),
    u(['--all-repeated=separate', 'text']),
    u(['--all-repeated=sep', 'text']),
    u(['-i', 'text']),
    u(['-ic', 'text']),
    u(['-cd', 'text']),
    u(['-cu', 'text']),
    u(['--group', 'text']),
    u(['--group=prepend', 'text']),
    u(['--group=append', 'text']),
    u(['--group=both', 'text']),
    u(['-f', '1', 'fields']),
    u(['-f1', '-c', 'fields']),
    u(['-f', '2', 'fields']),
    u(['-f', '2', '-i', 'fields']),
    u(['-s', '2', 'fields']),
    u(['-s', '1', '-w', '2', 'fields']),
    u(['-w', '1', '-c', 'fields']),
    u(['-1', 'fields']),
    u(['+2', 'fields']),
    u(['-f', '99999999999999999999999', 'fields']),
    u(['-z'], 'a\0a\0b\0b'),
    u(['-zc'], 'a\0a\0b'),
    u(['text', 'out']),
    u(['-c'], binary()),
    u([], invalidUtf8()),
    u([], ''),
    u(['-c'], `${'x'.repeat(300_000)}\n${'x'.repeat(300_000)}\n`),
    u(['missing']),
    u(['sub']),
    u(['-f', 'x']),
    u(['-s', 'x']),
    u(['-w', 'x']),
    u(['-cD']),
    u(['--group', '-c']),
    u(['a', 'b', 'c']),
    u(['--all-repeated=x']),
    u(['--group=x']),
    u(['-x']),
    u(['--help']),
  ].map((c) => (c.argv.includes('sub') ? { ...c, files: { ...files, 'sub/x': 'x' } } : c)),
);
