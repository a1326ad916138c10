/**
 * sed against GNU sed 4.9: the language (addresses, ranges, every command, `s` flags and
 * replacements), the options, bad scripts and flags (GNU's message and status), missing files,
 * binary and invalid UTF-8 input, empty input; stdout, stderr and status compared byte for byte.
 */
import { describe, expect, it } from 'vitest';
import { sedCommands } from '../../../src/commands/sed/index.js';
import { createMemoryFilesystem } from '../../../src/vfs/index.js';
import { type OracleCase, runGnu, runVirtual } from '../support/gnu-oracle.js';

const sed = (sedCommands[0] as (typeof sedCommands)[number]).run;

const LINES = 'one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\n';

const FILES = {
  'n.txt': LINES,
  'a.txt': 'alpha\nbeta\n',
  'b.txt': 'gamma\ndelta\n',
  'noeol.txt': 'x\ny',
  'empty.txt': '',
  'bin.dat': new Uint8Array([0x61, 0x00, 0x62, 0x0a, 0xff, 0xfe, 0x0a]),
  'latin1.txt': new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a]),
  'script.sed': 's/one/ONE/\n/three/d\n',
  'r.txt': 'inserted\n',
};

type Case = OracleCase & { readonly after?: readonly string[] };
const c = (argv: string[], extra: Partial<Case> = {}): Case => ({
  argv: ['sed', ...argv],
  files: FILES,
  ...extra,
});

const CASES: Case[] = [
  // Addresses and ranges
  c(['-n', '3p', 'n.txt']),
  c(['-n', '$p', 'n.txt']),
  c(['-n', '3,5p', 'n.txt']),
  c(['-n', '/four/,/six/p', 'n.txt']),
  c(['-n', '/t/,+1p', 'n.txt']),
  c(['-n', '2,~4p', 'n.txt']),
  c(['-n', '1~3p', 'n.txt']),
  c(['-n', '0~4p', 'n.txt']),
  c(['0,/o/d', 'n.txt']),
  c(['1,/o/d', 'n.txt']),
  c(['-n', '5,2p', 'n.txt']),
  c(['-n', '/e/!p', 'n.txt']),
  c(['-n', '/^T/Ip', 'n.txt']),
  c(['-n', '\\,f,p', 'n.txt']),
  c(['2,4!d', 'n.txt']),
  c(['-n', '$!{$!p}', 'a.txt']),
  // Commands
  c(['=', 'a.txt']),
  c(['2a\\\nadded', 'a.txt']),
  c(['2a added text', 'a.txt']),
  c(['1i\\  lead', 'a.txt']),
  c(['$a\\\nx\\\ny', 'a.txt']),
  c(['c\\\nchanged', 'a.txt']),
  c(['3,5c\\\nchanged', 'n.txt']),
  c(['2d', 'n.txt']),
  c(['$!N;P;D', 'n.txt']),
  c(['N;N;s/\\n/,/g', 'n.txt']),
  c(['-n', 'h;n;G;p', 'n.txt']),
  c(['1h;1!H;$!d;x;s/\\n/ /g', 'n.txt']),
  c(['-n', 'x;p', 'a.txt']),
  c(['G', 'a.txt']),
  c(['n;d', 'n.txt']),
  c(['-n', 'l', '-'], { stdin: 'tab\there\\ \x01 é\n' }),
  c(['-n', 'l 5', 'a.txt']),
  c(['-l', '4', '-n', 'l', 'a.txt']),
  c(['3q', 'n.txt']),
  c(['3q7', 'n.txt']),
  c(['3Q', 'n.txt']),
  c(['2r r.txt', 'a.txt']),
  c(['r nonexistent', 'a.txt']),
  c(['R b.txt', 'a.txt']),
  c(['-n', '/a/w out.txt', 'a.txt']),
  c(['y/abc/xyz/', 'a.txt']),
  c(['y/a\\/b/1|2/', '-'], { stdin: 'a/b\n' }),
  c([':a;s/^.\\{1,5\\}$/ &/;ta', 'a.txt']),
  c(['-n', '/alpha/{s/a/A/p;s/l/L/p}', 'a.txt']),
  c(['s/x/X/;T;s/$/!/', '-'], { stdin: 'x\ny\n' }),
  c(['F', 'a.txt', '-'], { stdin: 'in\n' }),
  c(['z;s/^$/empty/', 'a.txt']),
  c(['-s', '-n', '$p', 'a.txt', 'b.txt']),
  c(['-n', '$p', 'a.txt', 'b.txt']),
  c(['-n', '1p;F', 'a.txt', 'b.txt']),
  // s flags and replacements
  c(['s/o/0/g', 'n.txt']),
  c(['s/e/E/2', 'n.txt']),
  c(['s/e/E/2g', 'n.txt']),
  c(['-n', 's/o/O/p', 'n.txt']),
  c(['s/T/t/I', '-'], { stdin: 'Two two TWO\n' }),
  c(['s/\\(t\\)\\(w\\)/\\2\\1/', 'n.txt']),
  c(['-E', 's/(o)(n)(e)/\\3\\2\\1/', 'n.txt']),
  c(['s/.*/[&]/', 'a.txt']),
  c(['s/a/\\&/g', 'a.txt']),
  c(['s/\\w\\+/\\u&/', 'a.txt']),
  c(['s/.*/\\U&/', 'a.txt']),
  c(['s/\\(.\\)\\(.*\\)/\\2\\l\\1x\\U\\1\\E!/', 'a.txt']),
  c(['s/l/\\n/', 'a.txt']),
  c(['s/a/\\\n/', 'a.txt']),
  c(['s/x*/-/g', 'a.txt']),
  c(['s/b*/x/g', '-'], { stdin: 'abc\nbaaac\n' }),
  c(['s/a*/x/g', '-'], { stdin: 'baaac\n' }),
  c(['s|/|:|g', '-'], { stdin: '/usr/local/bin\n' }),
  c(['s/^/> /', 'a.txt']),
  c(['s/$/ </', 'a.txt']),
  c(['N;s/^b/B/Mg', 'a.txt']),
  c(['N;s/a$/A/M', 'a.txt']),
  c(['s/a/A/w out2.txt', 'a.txt']),
  c(['s/\\t/TAB/;s/\\x41/a/', '-'], { stdin: 'x\ty A\n' }),
  c(['-E', 's/(a|b)+/<&>/g', 'a.txt']),
  c(['-r', 's/[[:alpha:]]{3}/X/', 'a.txt']),
  c(['s/é/e/', 'latin1.txt']),
  c(['s/caf./X/', 'latin1.txt']),
  c(['s/b/B/', 'bin.dat']),
  c(['-n', 'l', 'bin.dat']),
  // Input and output edges
  c(['p', 'noeol.txt']),
  c(['$a end', 'noeol.txt']),
  c(['-n', 'p', 'empty.txt']),
  c(['p', '-'], { stdin: '' }),
  c(['s/a/b/', 'missing.txt', 'a.txt']),
  c(['-z', 's/\\n/,/g', 'a.txt']),
  c(['-f', 'script.sed', 'n.txt']),
  c(['-e', 's/one/1/', '-e', 's/two/2/', 'n.txt']),
  c(['-e', '1a\\', '-e', 'appended', 'a.txt']),
  c(['#n\n/beta/p', 'a.txt']),
  // GNU sed 4.9 takes any first script starting with `#n` as -n, not only `#n` alone on its line
  c(['#nr\n/beta/p', 'a.txt']),
  c(['#no comment\n/beta/p', 'a.txt']),
  c(['#N\n/beta/p', 'a.txt']),
  c(['-e', '/beta/p', '-e', '#n', 'a.txt']),
  c(['--expression=2d', '--quiet', '--expression=p', 'a.txt']),
  c(['-i', 's/a/A/', 'a.txt'], { after: ['a.txt'] }),
  c(['-i.bak', '1d', 'a.txt', 'b.txt'], { after: ['a.txt', 'b.txt', 'a.txt.bak', 'b.txt.bak'] }),
  c(['-n', '-i', '$p', 'a.txt', 'b.txt'], { after: ['a.txt', 'b.txt'] }),
  c(['--help']),
  // Errors
  c([]),
  c(['-k', 'p']),
  c(['--frobnicate', 'p']),
  c(['s/a/b']),
  c(['s/a/b/q']),
  c(['s/a/b/gg']),
  c(['s/a/b/0']),
  c(['s/a/\\1/']),
  c(['s/\\(a/x/']),
  c(['y/ab/c/']),
  c(['5x5']),
  c(['1,p']),
  c([':']),
  c(['bnowhere']),
  c(['}']),
  c(['{p']),
  c(['a']),
  c(['r']),
  c(['0p']),
  c(['k']),
  c(['2,3=']),
  c(['-E', 's/a{1/x/']),
  c(['s/[:alpha:]/x/']),
  c(['-e', 'p', '-e', 'k']),
  c(['-i', 'p']),
  c(['-f', 'missing.sed']),
  c(['//p', 'a.txt']),
];

describe('sed vs GNU sed', () => {
  for (const [i, tc] of CASES.entries()) {
    it(`${i}: ${tc.argv.slice(1).join(' ').replace(/\n/g, '\\n')}`, async () => {
      const files = tc.after ?? [];
      const readBack = files.map((f) => `cat ${f}`).join('; ');
      const gnu = await runGnu(
        files.length === 0 ? tc : { ...tc, argv: ['bash', '-c', `"$@" && ${readBack}`, 'sh', ...tc.argv] },
      );
      const fs = createMemoryFilesystem();
      const mine = await runVirtual(sed, tc, fs);
      let after = '';
      for (const f of files) after += Buffer.from(await fs.readFile(`/work/${f}`)).toString('latin1');
      expect({ ...mine, stdout: mine.stdout + after }).toEqual(gnu);
    });
  }
});
