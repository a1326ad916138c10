import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BerthMcp, startBerthMcp, textOf } from './support/berth-mcp-client.js';

describe('glob honours ignore files (SDK client, sandboxed process context)', () => {
  let mcp: BerthMcp;
  const write = (relative: string, text = 'x\n') => {
    mkdirSync(dirname(join(mcp.root, relative)), { recursive: true });
    writeFileSync(join(mcp.root, relative), text);
  };
  beforeAll(async () => {
    mcp = await startBerthMcp();
    mkdirSync(join(mcp.root, '.git'));
    write('.gitignore', 'dist/\n*.log\n!important.log\n');
    write('src/.gitignore', 'generated/*\n!generated/keep.ts\n');
    write('src/main.ts');
    write('src/generated/a.ts');
    write('src/generated/keep.ts');
    write('dist/main.js');
    write('dist/main.ts');
    write('debug.log');
    write('important.log');
    write('tools/.ignore', 'scratch.ts\n');
    write('tools/scratch.ts');
    write('tools/run.ts');
  });
  afterAll(() => mcp?.close());

  const paths = (text: string) =>
    text
      .split('\n')
      .filter((line) => line.startsWith('/'))
      .map((line) => line.slice(mcp.root.length + 1))
      .sort();

  it('leaves out ignored files, nested rules and negations included, and says how many', async () => {
    const result = await mcp.call('glob', { pattern: '**/*.ts' });
    expect(result.isError).toBeFalsy();
    expect(paths(textOf(result))).toEqual(['src/generated/keep.ts', 'src/main.ts', 'tools/run.ts']);
    expect(textOf(result)).toContain(
      '[3 more files match but are ignored by .gitignore/.ignore rules; include_ignored: true lists them.]',
    );
    expect(paths(textOf(await mcp.call('glob', { pattern: '*.log' })))).toEqual(['important.log']);
  });

  it('lists ignored files with include_ignored', async () => {
    const result = await mcp.call('glob', { pattern: '**/*.ts', include_ignored: true });
    expect(paths(textOf(result))).toEqual([
      'dist/main.ts',
      'src/generated/a.ts',
      'src/generated/keep.ts',
      'src/main.ts',
      'tools/run.ts',
      'tools/scratch.ts',
    ]);
    expect(textOf(result)).not.toContain('ignored');
  });

  it('searches inside an ignored directory given as path, and agrees with grep there', async () => {
    const result = await mcp.call('glob', { pattern: '*.js', path: 'dist' });
    expect(paths(textOf(result))).toEqual(['dist/main.js']);
    const none = await mcp.call('glob', { pattern: 'dist/*.js' });
    expect(textOf(none)).toMatch(/^No files match .*\n\[1 more file match/);
    // (ripgrep's --glob overrides ignore rules for the files it names, so compare unfiltered.)
    const grep = paths(textOf(await mcp.call('grep', { pattern: 'x' }))).filter((path) =>
      path.endsWith('.ts'),
    );
    expect(grep).toEqual(paths(textOf(await mcp.call('glob', { pattern: '**/*.ts' }))));
  });

  it('refuses a non-boolean include_ignored with a did-you-mean for a misspelling', async () => {
    const bad = await mcp.call('glob', { pattern: '*.ts', include_ignored: 'yes' });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/include_ignored/);
    const typo = await mcp.call('glob', { pattern: '*.ts', include_ignore: true });
    expect(typo.isError).toBe(true);
    expect(textOf(typo)).toMatch(/did you mean `include_ignored`/);
  });
});
