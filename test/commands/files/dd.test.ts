import { describe, expect, it } from 'vitest';
import { ddCommand } from '../../../src/commands/files/dd.js';
import { formatG, formatTransfer } from '../../../src/commands/files/dd-statistics.js';
import { duCommand } from '../../../src/commands/files/du.js';
import { statCommand } from '../../../src/commands/files/stat.js';
import { runStandalone } from '../../../src/commands/standalone.js';
import { ByteBudget, createMemoryFilesystem } from '../../../src/vfs/index.js';
import type { Outcome } from '../support/gnu-oracle.js';
import { oracleTable } from '../text/support/oracle-table.js';

// The time and rate after "copied, " differ on every run; the records lines and the byte counts
// (with their SI and IEC forms) are compared exactly.
const untimed = (o: Outcome): Outcome => ({
  ...o,
  stderr: o.stderr.replace(/ copied, .* s, .*\/s$/gm, ' copied, T'),
});

const files = { f: 'hello world\n', g: 'abcdefghij', n: 'XXXXXXXXXXXXXXXX', big: 'x'.repeat(5000) };
const tree = { files, captureTree: true as const };

oracleTable(
  ddCommand,
  [
    { argv: ['dd', 'if=f', 'of=o'], ...tree },
    { argv: ['dd', 'if=f', 'bs=5'], files },
    { argv: ['dd', 'if=f', 'bs=1', 'count=1'], files },
    { argv: ['dd', 'if=big', 'of=o', 'bs=1000'], ...tree },
    { argv: ['dd', 'if=big', 'of=o', 'bs=1024'], ...tree },
    { argv: ['dd', 'if=big', 'of=o', 'ibs=3', 'obs=1k'], ...tree },
    { argv: ['dd', 'if=g', 'ibs=3', 'obs=4'], files },
    { argv: ['dd', 'if=g', 'of=f', 'bs=3', 'seek=2'], ...tree },
    { argv: ['dd', 'if=g', 'of=n', 'bs=3', 'seek=1', 'count=1', 'conv=notrunc'], ...tree },
    { argv: ['dd', 'if=g', 'of=n', 'bs=3', 'seek=1', 'count=1'], ...tree },
    { argv: ['dd', 'if=g', 'of=o', 'bs=2', 'seek=3', 'oflag=seek_bytes'], ...tree },
    { argv: ['dd', 'if=g', 'of=o', 'bs=1M', 'count=0', 'seek=3'], ...tree },
    { argv: ['dd', 'if=g', 'of=n', 'oflag=append', 'conv=notrunc'], ...tree },
    { argv: ['dd', 'if=g', 'bs=4', 'conv=sync'], files },
    { argv: ['dd', 'if=g', 'bs=4', 'iflag=count_bytes,skip_bytes', 'skip=3', 'count=5'], files },
    { argv: ['dd', 'if=g', 'bs=2', 'skip=2', 'count=2'], files },
    { argv: ['dd', 'if=g', 'bs=1', 'count=2', 'skip=1x2'], files },
    { argv: ['dd', 'if=g', 'bs=5', 'skip=10'], files },
    { argv: ['dd', 'if=g', 'conv=ucase'], files },
    { argv: ['dd', 'if=f', 'conv=swab,lcase', 'bs=4'], files },
    { argv: ['dd', 'if=g', 'of=o', 'conv=fsync,fdatasync', 'status=noxfer'], ...tree },
    { argv: ['dd', 'if=g', 'status=none'], files },
    { argv: ['dd', 'bs=4'], stdin: 'from standard input\n' },
    { argv: ['dd', 'bs=4', 'skip=2', 'count=3'], stdin: 'from standard input\n' },
    { argv: ['dd', 'of=o', 'bs=2b', 'iflag=fullblock'], stdin: 'y'.repeat(3000), captureTree: true },
    { argv: ['dd', 'if=big', 'of=o', 'bs=1kB', 'count=2'], ...tree },
    { argv: ['dd', 'if=big', 'of=o', 'bs=1w', 'count=3'], ...tree },
    { argv: ['dd', 'if=big', 'of=o', 'bs=1c', 'count=3'], ...tree },
    { argv: ['dd', 'if=big', 'bs=1', 'count=1000', 'status=none', 'of=o'], ...tree },
    // A sparse file: du and stat %b count the blocks it stores, not its size.
    {
      argv: ['dd', 'if=g', 'of=s', 'bs=1M', 'seek=5', 'status=none'],
      files,
      followUp: [
        ['du', '-k', 's'],
        ['du', '-k', '--apparent-size', 's'],
        ['stat', '-c', '%s %b', 's'],
      ],
    },
    // Bad input: GNU's messages and statuses.
    { argv: ['dd', 'if=nope'] },
    { argv: ['dd', 'if=g', 'of=d/x'], files },
    { argv: ['dd', 'if=g', 'of=f', 'conv=excl'], ...tree },
    { argv: ['dd', 'if=g', 'of=zz', 'conv=nocreat'], ...tree },
    { argv: ['dd', 'foo=1'] },
    { argv: ['dd', 'junk'] },
    { argv: ['dd', 'bs=0'] },
    { argv: ['dd', 'bs=abc'] },
    { argv: ['dd', 'count=-1'] },
    { argv: ['dd', 'conv=foo'] },
    { argv: ['dd', 'conv=ucase,lcase'] },
    { argv: ['dd', 'conv=excl,nocreat'] },
    { argv: ['dd', 'iflag=foo'] },
    { argv: ['dd', 'oflag=bogus'] },
    { argv: ['dd', 'status=bogus'] },
    { argv: ['dd', '--bogus'] },
  ],
  new Map([
    ['du', duCommand],
    ['stat', statCommand],
  ]),
  untimed,
);

describe('dd on sparse files and bounded memory', () => {
  it('seek= past the end makes a 5 GiB hole that costs the budget nothing', async () => {
    const budget = new ByteBudget({ maxBytes: 4096 });
    const fs = createMemoryFilesystem({ budget, files: { '/in': 'tail' } });
    const result = await runStandalone(ddCommand.run, {
      argv: ['dd', 'if=/in', 'of=/huge', 'bs=1048576', 'seek=5120', 'status=none'],
      fs,
    });
    expect(result.status).toBe(0);
    expect((await fs.stat('/huge')).size).toBe(5 * 1024 ** 3 + 4);
    expect(Buffer.from(await fs.readRange('/huge', 5 * 1024 ** 3 - 2, 10)).toString('latin1')).toBe(
      '\0\0tail',
    );
    expect(budget.usage().bytes).toBeLessThan(64);
  });

  it('conv=sparse leaves holes for zero blocks and still reaches the full size', async () => {
    const budget = new ByteBudget({ maxBytes: 1024 * 1024 });
    const zeros = new Uint8Array(200_000);
    zeros[0] = 1;
    const fs = createMemoryFilesystem({ budget, files: { '/in': zeros } });
    const result = await runStandalone(ddCommand.run, {
      argv: ['dd', 'if=/in', 'of=/out', 'bs=4096', 'conv=sparse'],
      fs,
    });
    expect(result.status).toBe(0);
    expect((await fs.stat('/out')).size).toBe(200_000);
    expect(Buffer.from(await fs.readFile('/out'))).toEqual(Buffer.from(zeros));
    expect(budget.usage().bytes).toBeLessThan(200_000 + 4096 + 64);
  });

  it('refuses a block size it will not hold, with a message that says so', async () => {
    const result = await runStandalone(ddCommand.run, {
      argv: ['dd', 'bs=1G', 'count=1'],
      fs: createMemoryFilesystem(),
    });
    expect(result.status).toBe(1);
    expect(new TextDecoder().decode(result.stderr)).toMatch(
      /^dd: memory exhausted by input buffer of size 1073741824 bytes/,
    );
  });

  it('prints the transfer line as GNU does', () => {
    expect(formatTransfer(512, 0.5)).toBe('512 bytes copied, 0.5 s, 1.0 kB/s\n');
    expect(formatTransfer(1, 2)).toBe('1 byte copied, 2 s, 0 B/s\n');
    expect(formatTransfer(1000, 1)).toBe('1000 bytes (1.0 kB) copied, 1 s, 1.0 kB/s\n');
    expect(formatTransfer(1048576, 0.001)).toMatch(
      /^1048576 bytes \(1\.0 MB, 1\.0 MiB\) copied, 0\.001 s, 1\.0 GB\/s\n$/,
    );
    expect(formatG(6.5447e-5)).toBe('6.5447e-05');
    expect(formatG(0.00160897)).toBe('0.00160897');
  });
});
