/**
 * The grep containment attack: ripgrep runs as a command in the context, which containment does
 * not cover, so `grep` read `/etc/passwd`, `..` and anything behind a symlink while `read_file`
 * refused them. Every engine (ripgrep, ripgrep inside the OS sandbox, the built-in search) must
 * now refuse exactly what read_file refuses, with the same message, and find what is inside.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeSandbox } from '../../src/sandbox/index.js';
import { openWorkspace, text, type Workspace } from './process-fixture.js';

const SECRET = 'berth-outside-secret';

describe('grep obeys the workspace root like read_file', async () => {
  const sandbox = (await probeSandbox()).available;
  const engines: [string, Parameters<typeof openWorkspace>[0]][] = [
    ['ripgrep', { contained: true }],
    ['built-in', { contained: true, tools: { ripgrep: 'never' } }],
    ...(sandbox ? [['ripgrep, sandboxed', { contained: true, sandboxed: true }] as [string, object]] : []),
  ];
  let outside: string;
  const workspaces = new Map<string, Workspace>();

  beforeAll(async () => {
    outside = mkdtempSync('/tmp/berth-grep-outside-');
    writeFileSync(`${outside}/secret.txt`, `${SECRET}\n`);
    for (const [name, options] of engines) {
      const w = await openWorkspace(options);
      mkdirSync(`${w.dir}/sub`);
      writeFileSync(`${w.dir}/sub/inside.txt`, `${SECRET} is also here\n`);
      symlinkSync(`${outside}/secret.txt`, `${w.dir}/file-link`);
      symlinkSync(outside, `${w.dir}/dir-link`);
      symlinkSync(outside, `${w.dir}/sub/nested-link`);
      symlinkSync(`${w.dir}/sub`, `${w.dir}/inside-link`);
      workspaces.set(name, w);
    }
  });
  afterAll(async () => {
    await Promise.all([...workspaces.values()].map((w) => w.dispose()));
    rmSync(outside, { recursive: true, force: true });
  });

  for (const [name] of engines) {
    const refused: [string, string, (w: Workspace) => string][] = [
      ['/etc/passwd', 'root', () => '"/etc/passwd" is outside the workspace root'],
      ['..', SECRET, () => 'is outside the workspace root'],
      ['sub/../..', SECRET, () => 'is outside the workspace root'],
      ['file-link', SECRET, () => 'the symlink "file-link" on the way leads out'],
      ['dir-link', SECRET, () => 'the symlink "dir-link" on the way leads out'],
      ['dir-link/secret.txt', SECRET, () => 'the symlink "dir-link" on the way leads out'],
    ];
    for (const [path, pattern, message] of refused) {
      it(`${name}: ${path} is refused with read_file's message`, async () => {
        const w = workspaces.get(name)!;
        const grep = await w.call('grep', { pattern, path, output_mode: 'content' });
        expect(grep.isError).toBe(true);
        expect(text(grep)).toContain(message(w));
        expect(text(grep)).not.toContain(SECRET);
        expect(text(grep)).not.toContain('root:x:0:0');
        if (!path.endsWith('..') && path !== 'dir-link') {
          // read_file refuses files; for the same path it must give the very same text.
          expect(text(grep)).toBe(text(await w.call('read_file', { path })));
        }
      });
    }

    it(`${name}: the tree is searched without following the symlink inside it`, async () => {
      const w = workspaces.get(name)!;
      const shown = text(await w.call('grep', { pattern: SECRET, output_mode: 'content' }));
      expect(shown).toBe(`1 matching line in 1 file:\n${w.dir}/sub/inside.txt:1:${SECRET} is also here`);
    });

    it(`${name}: a symlink that stays inside is searched, under the name given`, async () => {
      const w = workspaces.get(name)!;
      const dir = text(await w.call('grep', { pattern: SECRET, path: 'inside-link' }));
      expect(dir).toBe(`1 file with matches:\n${w.dir}/inside-link/inside.txt`);
    });
  }

  it('with containment off (no workspace root) grep reaches what read_file reaches', async () => {
    const w = await openWorkspace();
    try {
      const grep = await w.call('grep', {
        pattern: SECRET,
        path: `${outside}/secret.txt`,
        output_mode: 'content',
      });
      expect(text(grep)).toBe(`1 matching line in 1 file:\n${outside}/secret.txt:1:${SECRET}`);
    } finally {
      await w.dispose();
    }
  });

  it('a path with glob characters is checked as a path, not as a pattern', async () => {
    const w = workspaces.get('ripgrep')!;
    mkdirSync(`${w.dir}/app`, { recursive: true });
    symlinkSync(outside, `${w.dir}/app/[slug]`);
    const grep = await w.call('grep', { pattern: SECRET, path: 'app/[slug]' });
    expect(grep.isError).toBe(true);
    expect(text(grep)).toContain('the symlink "app/[slug]" on the way leads out');
  });
});
