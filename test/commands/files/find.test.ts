import { describe, expect, test } from 'vitest';
import type { CommandSpec } from '../../../src/commands/command.js';
import { findCommand } from '../../../src/commands/files/find/find.js';
import { builtinCommands } from '../../../src/commands/registry.js';
import { createMemoryFilesystem } from '../../../src/vfs/index.js';
import { type OracleCase, runGnu, runVirtual } from '../support/gnu-oracle.js';

const now = Math.floor(Date.now() / 1000);
const tree = {
  files: {
    'a.ts': 'export {}\n',
    'b.js': 'x'.repeat(3000),
    'src/c.ts': 'c',
    'src/d.TS': '',
    'src/deep/e.ts': 'eeeee',
    'src/deep/f.md': 'f'.repeat(2 * 1024 * 1024 + 1),
    '.hidden/g.ts': 'g',
    'empty.txt': '',
    'caf\xe9.ts': 'x',
    'sp ace.txt': 'y',
  },
  dirs: ['emptydir', 'node_modules/pkg'],
  symlinks: { 'link.ts': 'a.ts', dangling: 'nowhere', 'src/up': '..' },
  modes: { 'b.js': 0o755, 'src/c.ts': 0o600, 'src/deep/e.ts': 0o4755 },
  mtimes: {
    'a.ts': now - 3 * 86400 - 100,
    'b.js': now - 10 * 60 - 5,
    'src/c.ts': now - 400 * 86400,
    'src/d.TS': now - 30,
    'src/deep/e.ts': now - 86400 - 10,
    'empty.txt': now - 5 * 86400,
    'src/deep/f.md': now - 7200,
    '.hidden/g.ts': now - 7200,
    'caf\xe9.ts': now - 7200,
    'sp ace.txt': now - 7200,
  },
};

interface FindCase extends OracleCase {
  /** Output in directory order on the host: compared as sorted lines. */
  readonly sort?: boolean;
  readonly known?: string;
}

const sortLines = (s: string): string => {
  const sep = s.includes('\0') ? '\0' : '\n';
  return s
    .split(sep)
    .filter((l) => l !== '')
    .sort()
    .join(sep);
};

function findTable(spec: CommandSpec, cases: readonly FindCase[]): void {
  describe(`${spec.name} against GNU findutils`, () => {
    const commands = new Map([...builtinCommands()].map(([k, v]) => [k, v.run]));
    for (const c of cases) {
      test(`${c.argv.map((a) => (/^[\w@%+=:,./{}-]+$/.test(a) ? a : JSON.stringify(a))).join(' ')}${c.known ? ` (known: ${c.known})` : ''}`, async () => {
        const [gnu, virtual] = await Promise.all([
          runGnu(c),
          runVirtual(spec.run, c, createMemoryFilesystem(), { commands }),
        ]);
        const norm = (o: typeof gnu) =>
          c.sort === false ? o : { ...o, stdout: sortLines(o.stdout), stderr: sortLines(o.stderr) };
        if (c.known === undefined) expect(norm(virtual)).toEqual(norm(gnu));
        else expect(norm(virtual)).not.toEqual(norm(gnu));
      });
    }
  });
}

const F = (argv: string[], extra: Partial<FindCase> = {}): FindCase => ({
  argv: ['find', ...argv],
  ...tree,
  ...extra,
});

findTable(findCommand, [
  F([]),
  F(['.']),
  F(['src', 'a.ts']),
  F(['.', '-name', '*.ts']),
  F(['.', '-iname', '*.ts']),
  F(['.', '-name', '*.ts', '-o', '-name', '*.md']),
  F(['.', '-not', '-name', '*.ts', '-type', 'f']),
  F(['.', '!', '-type', 'd']),
  F(['.', '(', '-name', '*.js', '-o', '-name', '*.md', ')', '-print']),
  F(['.', '-path', './src/*']),
  F(['.', '-ipath', '*DEEP*']),
  F(['.', '-wholename', '*deep*', '-type', 'f']),
  F(['.', '-regex', '.*\\.ts']),
  F(['.', '-regex', '.*/[a-c]\\.\\(ts\\|js\\)']),
  F(['.', '-regex', '.*e+\\.ts']),
  F(['.', '-iregex', '.*\\.TS']),
  F(['.', '-regextype', 'posix-extended', '-regex', '.*/(c|e)\\.ts']),
  F(['.', '-regextype', 'posix-basic', '-regex', '.*/d\\{1,\\}.*']),
  F(['.', '-type', 'f']),
  F(['.', '-type', 'd']),
  F(['.', '-type', 'l']),
  F(['.', '-type', 'f,l']),
  F(['.', '-xtype', 'f']),
  F(['.', '-xtype', 'l']),
  F(['-L', '.', '-type', 'l']),
  F(['-L', '.', '-name', '*.ts']),
  F(['-L', 'src', '-maxdepth', '1']),
  F(['.', '-type', 'f', '-size', '+2k']),
  F(['.', '-type', 'f', '-size', '-1M']),
  F(['.', '-size', '+2M']),
  F(['.', '-size', '3000c']),
  F(['.', '-type', 'f', '-size', '-2']),
  F(['.', '-type', 'd', '-size', '-2'], { known: 'a directory has its virtual size, not ext4 4096' }),
  F(['.', '-empty']),
  F(['.', '-empty', '-type', 'd']),
  F(['.', '-mtime', '-1']),
  F(['.', '-mtime', '+2']),
  F(['.', '-mtime', '3']),
  F(['.', '-mtime', '0']),
  F(['.', '-mmin', '-15']),
  F(['.', '-mmin', '+60']),
  F(['.', '-newer', 'a.ts']),
  F(['.', '-newermt', '2 days ago']),
  F(['.', '-mindepth', '1', '-perm', '755']),
  F(['.', '-perm', '-u+x', '-type', 'f']),
  F(['.', '-perm', '/4000']),
  F(['.', '-perm', '-644', '-type', 'f']),
  F(['.', '-user', 'root', '-name', 'a.ts']),
  F(['.', '-uid', '0', '-name', 'a.ts']),
  F(['.', '-links', '1', '-name', '*.md']),
  F(['.', '-lname', '*.ts']),
  F(['.', '-maxdepth', '1']),
  F(['.', '-maxdepth', '0']),
  F(['.', '-mindepth', '2']),
  F(['.', '-mindepth', '1', '-maxdepth', '1', '-type', 'd']),
  F(['.', '-name', 'node_modules', '-prune', '-o', '-type', 'f', '-print']),
  F(['.', '-path', './src', '-prune', '-o', '-name', '*.ts', '-print']),
  F(['.', '-depth']),
  F(['.', '-name', '*.ts', '-print0']),
  F(['src/deep', '-name', 'f.md', '-print', '-quit'], { sort: false }),
  F(['b.js', 'a.ts', 'src', '-print', '-name', 'a.ts', '-quit'], { sort: false }),
  F(['src/deep', '-type', 'f', '-printf', '%p|%f|%h|%P|%H|%d|%s|%k|%b|%m|%M|%u|%g|%U|%G|%n|%y|%Y|%l\\n']),
  F(['src/deep', '-printf', '%p|%f|%h|%P|%H|%d|%k|%b|%m|%M|%n|%y\\n']),
  F(['a.ts', 'link.ts', 'dangling', '-printf', '%p %y %Y %l %TY-%Tm-%Td %TH:%TM\\n'], { sort: false }),
  F(['.', '-name', 'a.ts', '-printf', '[%-8f][%8s][%5d]\\t%%\\n']),
  F(['.', '-name', 'a.ts', '-printf', '%Q\\n']),
  F(['.', '-name', 'a.ts', '-printf', 'a\\cb\\n']),
  F(['src/deep', '-type', 'f', '-printf', '%T@ %t\\n']),
  F(['.', '-name', 'b.js', '-ls'], {
    known: "inode numbers and directory sizes are the virtual filesystem's",
  }),
  F(['.', '-name', '*.ts', '-exec', 'basename', '{}', ';']),
  F(['.', '-name', '*.ts', '-exec', 'basename', '-a', '{}', '+']),
  F(['src/deep', '-name', '*.ts', '-exec', 'cat', '{}', '+'], { sort: false }),
  F(['.', '-name', '*.ts', '-exec', 'basename', '{}', ';', '-print']),
  F(['.', '-name', '*.ts', '-execdir', 'basename', '{}', ';']),
  F(['.', '-name', 'a.ts', '-exec', 'nonexistcmd', '{}', ';']),
  F(['.', '-name', 'a.ts', '-exec', 'nonexistcmd', '{}', '+']),
  F(['.', '-type', 'f', '-name', '*.md', '-delete'], { captureTree: true }),
  F(['emptydir', 'node_modules', '-delete'], { captureTree: true }),
  F(['src', '-delete'], { captureTree: true }),
  F(['nonexist']),
  F(['.', 'nonexist', '-maxdepth', '0']),
  F(['.', '-foo']),
  F(['.', '-name']),
  F(['.', 'x'], { files: {}, dirs: [], symlinks: {}, modes: {}, mtimes: {} }),
  F(['.', '-name', 'a', 'b']),
  F(['.', '-type', 'z']),
  F(['-maxdepth', 'x']),
  F(['.', '-mtime', 'abc']),
  F(['.', '-size', '3q']),
  F(['.', '-exec', 'echo', '{}']),
  F(['.', '-perm', '8888']),
  F(['.', '-user', 'nobodyx']),
  F(['.', '(', '-name', 'a']),
  F(['.', '-name', 'a', ')']),
  F(['.', '!']),
  F(['.', '-a']),
  F(['.', '-name', 'a', '-o']),
  F(['.', '-regextype', 'bogus']),
  F(['.', '-name', 'a/b']),
  F(['.', '-name', 'x', '-maxdepth', '1']),
  F(['.', '-warn', '-name', 'x', '-maxdepth', '1']),
  F(['.', '-warn', '-name', 'a/b']),
  F(['--help']),
]);
