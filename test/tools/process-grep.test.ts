/**
 * grep end to end on the process context, three ways over one tree: ripgrep inside the context,
 * the built-in search forced by option, and a context whose PATH has no `rg`. All three must show
 * the model the same thing. The same again on the virtual context (built-in search only).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, openWorkspace, text, type Workspace } from './process-fixture.js';

function populate(dir: string): void {
  mkdirSync(`${dir}/src/util`, { recursive: true });
  mkdirSync(`${dir}/.cache`, { recursive: true });
  mkdirSync(`${dir}/docs`, { recursive: true });
  writeFileSync(
    `${dir}/src/main.ts`,
    'import { helper } from "./util/helper";\n\nfunction main() {\n  helper();\n  // TODO: more\n}\n',
  );
  writeFileSync(`${dir}/src/util/helper.ts`, 'export function helper() {\n  return 42;\n}\n// todo lower\n');
  writeFileSync(`${dir}/src/util/data.json`, '{ "helper": true }\n');
  writeFileSync(`${dir}/docs/guide.md`, '# Guide\nCall helper() first.\nünïcode helper\n');
  writeFileSync(`${dir}/.cache/hidden.ts`, 'function helper() {}\n');
  writeFileSync(`${dir}/src/blob.bin`, Buffer.from([0x68, 0x65, 0x6c, 0x70, 0x65, 0x72, 0, 1, 2]));
}

describe.each(BACKENDS)('%s context', (backend) => {
  describe('grep with ripgrep, built-in, and no rg on PATH', () => {
    let rg: Workspace;
    let builtin: Workspace;
    let noRg: Workspace;

    beforeAll(async () => {
      rg = await openWorkspace({ backend });
      builtin = await openWorkspace({ backend, tools: { ripgrep: 'never' } });
      noRg = await openWorkspace({ backend, spawn: { env: { PATH: '/nonexistent' } } });
      for (const w of [rg, builtin, noRg]) populate(w.hostDir);
    });
    afterAll(async () => {
      await Promise.all([rg, builtin, noRg].map((w) => w.dispose()));
    });

    /** Run the same call in all three workspaces; paths are made relative so outputs compare. */
    async function all(args: Record<string, unknown>): Promise<[string, string, string]> {
      const out = await Promise.all(
        [rg, builtin, noRg].map(async (w) => text(await w.call('grep', args)).replaceAll(w.dir, '<ws>')),
      );
      return out as [string, string, string];
    }

    it('probes rg once per tool set: present in the default context, absent without it on PATH', async () => {
      await all({ pattern: 'helper' });
      // The virtual shell has no rg: its built-in search serves every call.
      expect(await rg.session.ripgrep).toBe(backend === 'process');
      expect(await noRg.session.ripgrep).toBe(false);
      expect(builtin.session.ripgrep).toBeUndefined();
    });

    const cases: [string, Record<string, unknown>, string][] = [
      [
        'files_with_matches (default), hidden and binary files skipped silently',
        { pattern: 'helper' },
        '4 files with matches:\n<ws>/docs/guide.md\n<ws>/src/main.ts\n<ws>/src/util/data.json\n<ws>/src/util/helper.ts',
      ],
      [
        'content with context lines and separators',
        { pattern: 'return|TODO', output_mode: 'content', context_lines: 1, path: 'src' },
        '2 matching lines in 2 files:\n<ws>/src/main.ts-4-  helper();\n<ws>/src/main.ts:5:  // TODO: more\n<ws>/src/main.ts-6-}\n--\n<ws>/src/util/helper.ts-1-export function helper() {\n<ws>/src/util/helper.ts:2:  return 42;\n<ws>/src/util/helper.ts-3-}',
      ],
      [
        'separate before and after context, paged with offset',
        { pattern: 'return|TODO', output_mode: 'content', before: 0, after: 1, path: 'src', offset: 1 },
        '2 matching lines in 2 files:\n<ws>/src/util/helper.ts:2:  return 42;\n<ws>/src/util/helper.ts-3-}\n[Showing 2–2 of 2 matching lines. Narrow the search (path, glob, pattern).]',
      ],
      [
        'count with a glob filter',
        { pattern: 'helper', output_mode: 'count', glob: '*.ts' },
        '3 matching lines in 2 files:\n<ws>/src/main.ts:2\n<ws>/src/util/helper.ts:1',
      ],
      [
        'case-insensitive content in one file',
        { pattern: 'todo', case_insensitive: true, output_mode: 'content', path: 'src/util/helper.ts' },
        '1 matching line in 1 file:\n<ws>/src/util/helper.ts:4:// todo lower',
      ],
      [
        'a negated glob',
        { pattern: 'helper', glob: '!*.ts' },
        '2 files with matches:\n<ws>/docs/guide.md\n<ws>/src/util/data.json',
      ],
      [
        'unicode text',
        { pattern: 'ünï\\w+', output_mode: 'content' },
        '1 matching line in 1 file:\n<ws>/docs/guide.md:3:ünïcode helper',
      ],
      ['no match', { pattern: 'zzzz-nothing' }, 'No matches in <ws>.'],
      [
        'a ripgrep file type',
        { pattern: 'helper', type: 'ts' },
        '2 files with matches:\n<ws>/src/main.ts\n<ws>/src/util/helper.ts',
      ],
      [
        'a file type with a glob (both must hold)',
        { pattern: 'helper', type: 'ts', glob: 'main*', output_mode: 'count' },
        '2 matching lines in 1 file:\n<ws>/src/main.ts:2',
      ],
      [
        'multiline: a match across lines, every line it touches shown as a match',
        { pattern: 'main\\(\\) \\{\\n\\s+helper', multiline: true, output_mode: 'content' },
        '2 matching lines in 1 file:\n<ws>/src/main.ts:3:function main() {\n<ws>/src/main.ts:4:  helper();',
      ],
      [
        'multiline: . matches a newline, with context after',
        { pattern: 'function helper.*?42', multiline: true, output_mode: 'content', after: 1, type: 'ts' },
        '2 matching lines in 1 file:\n<ws>/src/util/helper.ts:1:export function helper() {\n<ws>/src/util/helper.ts:2:  return 42;\n<ws>/src/util/helper.ts-3-}',
      ],
      [
        'multiline count counts matches that span lines',
        { pattern: '\\{\\n', multiline: true, output_mode: 'count' },
        '2 matching lines in 2 files:\n<ws>/src/main.ts:1\n<ws>/src/util/helper.ts:1',
      ],
      [
        'multiline with ^ and $ at line ends',
        { pattern: '^\\}$', multiline: true, output_mode: 'content', path: 'src' },
        '2 matching lines in 2 files:\n<ws>/src/main.ts:6:}\n<ws>/src/util/helper.ts:3:}',
      ],
      [
        'head_limit cuts with a note',
        { pattern: 'helper', output_mode: 'content', head_limit: 2 },
        '6 matching lines in 4 files:\n<ws>/docs/guide.md:2:Call helper() first.\n<ws>/docs/guide.md:3:ünïcode helper\n[Showing the first 2 of 6 matching lines; continue with offset 2. Narrow the search (path, glob, pattern) or raise head_limit.]',
      ],
    ];
    for (const [name, args, expected] of cases) {
      it(`${name}: same output from every engine`, async () => {
        const [a, b, c] = await all(args);
        expect(a).toBe(expected);
        expect(b).toBe(expected);
        expect(c).toBe(expected);
      });
    }

    it('an unknown file type is the same error from every engine, with a did-you-mean', async () => {
      const [a, b, c] = await all({ pattern: 'helper', type: 'typescript' });
      expect(a).toMatch(/^type "typescript" is not a known file type \(did you mean "ts"\?\)/);
      expect(b).toBe(a);
      expect(c).toBe(a);
    });

    it('a line break in the pattern is refused without multiline and searched with it', async () => {
      const [refused] = await all({ pattern: 'main\\(\\) \\{\\nx' });
      expect(refused).toMatch(/Pass multiline: true/);
      const [a, b, c] = await all({ pattern: '42;\n\\}', multiline: true, output_mode: 'count' });
      expect(a).toBe('1 matching line in 1 file:\n<ws>/src/util/helper.ts:1');
      expect(b).toBe(a);
      expect(c).toBe(a);
    });

    it('an invalid regular expression is an error from every engine', async () => {
      for (const w of [rg, builtin, noRg]) {
        const result = await w.call('grep', { pattern: 'foo(' });
        expect(result.isError).toBe(true);
        expect(text(result)).toMatch(/regex parse error|not a valid regular expression/);
      }
    });

    it('a missing path is an error from every engine', async () => {
      for (const w of [rg, builtin, noRg]) {
        const result = await w.call('grep', { pattern: 'x', path: 'missing-dir' });
        expect(result.isError).toBe(true);
        expect(text(result)).toContain('missing-dir');
      }
    });

    it('the built-in search skips files over the size limit and says so', async () => {
      const small = await openWorkspace({
        backend,
        tools: { ripgrep: 'never', files: { maxFileBytes: 64 } },
      });
      try {
        populate(small.hostDir);
        writeFileSync(`${small.hostDir}/src/large.ts`, `${'helper\n'.repeat(100)}`);
        const shown = text(await small.call('grep', { pattern: 'helper', path: 'src' }));
        expect(shown).toContain('[Skipped 2 files over 64 B.]');
        expect(shown).not.toContain('main.ts');
        expect(shown).not.toContain('large.ts');
      } finally {
        await small.dispose();
      }
    });
  });
});
