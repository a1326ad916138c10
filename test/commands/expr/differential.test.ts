/** expr against GNU expr (coreutils 9.1, C.UTF-8): stdout, stderr and status byte for byte. */
import { describe, expect, it } from 'vitest';
import { exprCommand } from '../../../src/commands/expr/expr.js';
import { createMemoryFilesystem } from '../../../src/vfs/index.js';
import { runGnu, runVirtual } from '../support/gnu-oracle.js';

const CASES: string[][] = [
  ['1', '+', '2'],
  ['10', '-', '3'],
  ['6', '*', '7'],
  ['7', '/', '2'],
  ['-7', '/', '2'],
  ['7', '%', '3'],
  ['-5', '%', '3'],
  ['5', '/', '-2'],
  ['10', '/', '0'],
  ['10', '%', '0'],
  ['a', '+', '1'],
  ['1.5', '+', '1'],
  ['+1', '+', '1'],
  ['99999999999999999999', '+', '1'],
  ['9223372036854775807', '*', '9223372036854775807'],
  ['1', '*', '2', '+', '3', '*', '4'],
  ['2', '+', '3', '*', '4'],
  ['(', '2', '+', '3', ')', '*', '4'],
  ['(', '1', '+', '2'],
  ['(', '1', '2', ')'],
  ['(', ')'],
  [')'],
  ['1', ')'],
  ['1', '2'],
  ['1', '+'],
  [],
  ['--'],
  ['--', '1', '+', '1'],
  ['-', '1'],
  ['-1', '+', '2'],
  ['--foo'],
  ['abc', ':', 'a\\(.\\)'],
  ['abc', ':', 'x\\(.\\)'],
  ['abc', ':', 'ab'],
  ['abc', ':', 'b'],
  ['abc', ':', '.*'],
  ['abc', ':', '^a'],
  ['a^b', ':', 'a^b'],
  ['abc', ':', 'a*\\(b\\)\\(c\\)'],
  ['', ':', ''],
  ['abc', ':', ''],
  ['héllo', ':', 'h.l'],
  ['aaa', ':', 'a\\{2\\}'],
  ['abc', ':', '\\('],
  ['abc', ':', 'a\\{1'],
  ['x', ':', 'x*\\(y*\\)'],
  ['match', 'abc', 'a\\(b\\)'],
  ['match', 'abc'],
  ['length', 'héllo'],
  ['length'],
  ['length', 'a', 'b'],
  ['length', 'length'],
  ['+', 'length'],
  ['+', '+', '1'],
  ['1', '+', '+'],
  ['substr', 'hello', '2', '3'],
  ['substr', 'hello', '0', '2'],
  ['substr', 'hello', '2', '-1'],
  ['substr', 'hello', '2', 'x'],
  ['substr', 'héllo', '2', '2'],
  ['substr', 'abc', '1', '999999999999999999999'],
  ['substr', 'abc', '9999999999999999999999', '1'],
  ['index', 'hello', 'lo'],
  ['index', 'héllo', 'l'],
  ['index', 'hello', 'z'],
  ['abc', '<', 'abd'],
  ['10', '<', '9'],
  ['10', '<', '9a'],
  ['é', '<', 'z'],
  ['😀', '>', 'ｚ'],
  ['3', '=', '03'],
  ['a', '=', 'a'],
  ['a', '==', 'b'],
  ['a', '!=', 'b'],
  ['2', '>=', '10'],
  ['2', '<=', '2'],
  ['', '|', '0'],
  ['0', '|', ''],
  ['a', '|', 'b'],
  ['0', '|', 'b'],
  ['a', '&', '0'],
  ['a', '&', 'b'],
  ['', '&', 'b'],
  ['1', '|', '1', '/', '0'],
  ['0', '&', '1', '/', '0'],
  ['00'],
  ['-0'],
  ['x'],
  [''],
  ['quote'],
  ['--help'],
  ['--version', 'x'],
];

describe('expr vs GNU expr', () => {
  for (const args of CASES) {
    it(JSON.stringify(args), async () => {
      const c = { argv: ['expr', ...args] };
      const [real, mine] = await Promise.all([
        runGnu(c),
        runVirtual(exprCommand.run, c, createMemoryFilesystem()),
      ]);
      expect(mine).toEqual(real);
    });
  }
});

describe('expr', () => {
  it('prints its version, not GNU coreutils', async () => {
    const fs = createMemoryFilesystem();
    const r = await runVirtual(exprCommand.run, { argv: ['expr', '--version'] }, fs);
    expect(r.status).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe(
      "expr (GNU coreutils) 9.1 (the berth virtual shell's implementation)",
    );
  });

  it('refuses an expression nested beyond the host stack clearly', async () => {
    const fs = createMemoryFilesystem();
    const argv = ['expr', ...Array(100_000).fill('('), '1', ...Array(100_000).fill(')')];
    const r = await runVirtual(exprCommand.run, { argv }, fs);
    expect(r.status).toBe(3);
    expect(r.stderr).toBe('expr: expression nested too deeply for this shell\n');
  });

  it('refuses an integer too large to hold rather than exhaust memory', async () => {
    const fs = createMemoryFilesystem();
    const big = '9'.repeat(600_000);
    const r = await runVirtual(exprCommand.run, { argv: ['expr', big, '*', big] }, fs);
    expect(r.status).toBe(3);
    expect(r.stderr).toBe('expr: integer too large for this shell\n');
  });
});
