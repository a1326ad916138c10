/**
 * apply_patch on the real process context: parsing, hunk location, all or nothing across files,
 * the edit lock and the read-before-edit guard.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyHunks } from '../../src/tools/patch-apply.js';
import { parsePatch } from '../../src/tools/patch-parse.js';
import { openWorkspace, text, type Workspace } from './process-fixture.js';

const patch = (...lines: string[]) => ['*** Begin Patch', ...lines, '*** End Patch'].join('\n');

describe('parsePatch', () => {
  it('reads add, delete, update with a move, anchors and End of File', () => {
    const ops = parsePatch(
      patch(
        '*** Add File: new.txt',
        '+one',
        '+two',
        '*** Delete File: old.txt',
        '*** Update File: a.py',
        '*** Move to: b.py',
        '@@ def main():',
        ' x = 1',
        '-y = 2',
        '+y = 3',
        '@@',
        '-last',
        '+final',
        '*** End of File',
      ),
    );
    expect(ops).toEqual([
      { kind: 'add', path: 'new.txt', lines: ['one', 'two'] },
      { kind: 'delete', path: 'old.txt' },
      {
        kind: 'update',
        path: 'a.py',
        moveTo: 'b.py',
        hunks: [
          {
            anchor: 'def main():',
            lines: [
              { op: ' ', text: 'x = 1' },
              { op: '-', text: 'y = 2' },
              { op: '+', text: 'y = 3' },
            ],
            endOfFile: false,
            patchLine: 8,
          },
          {
            anchor: null,
            lines: [
              { op: '-', text: 'last' },
              { op: '+', text: 'final' },
            ],
            endOfFile: true,
            patchLine: 12,
          },
        ],
      },
    ]);
  });

  it('names the patch line of every format error', () => {
    expect(() => parsePatch('*** Update File: a\n')).toThrow(
      /^patch line 1: the patch must start with "\*\*\* Begin Patch"/,
    );
    expect(() => parsePatch('*** Begin Patch\n*** Update File: a\n@@\n-x\n')).toThrow(
      /must end with "\*\*\* End Patch"/,
    );
    expect(() => parsePatch(patch('*** Add File: a', 'no plus'))).toThrow(
      /^patch line 3: every line of "\*\*\* Add File: a" must start with "\+"/,
    );
    expect(() => parsePatch(patch('*** Update File: a', '@@', '*x'))).toThrow(
      /^patch line 4: a hunk line must start with/,
    );
    expect(() => parsePatch(patch('*** Update File: a', '@@', ' same'))).toThrow(
      /^patch line 3: the hunk changes nothing/,
    );
    expect(() => parsePatch(patch('--- a/x', '+++ b/x'))).toThrow(/^patch line 2: expected a file section/);
    expect(() => parsePatch(patch())).toThrow(/the patch changes no file/);
  });
});

describe('applyHunks', () => {
  const hunk = (lines: string[], anchor: string | null = null, endOfFile = false) => ({
    anchor,
    endOfFile,
    patchLine: 1,
    lines: lines.map((l) => ({ op: l[0] as ' ' | '-' | '+', text: l.slice(1) })),
  });

  it('finds hunks in order after their anchors, keeping CRLF and the missing final newline', () => {
    const text = 'def a():\r\n    return 1\r\ndef b():\r\n    return 1';
    const out = applyHunks(text, [hunk(['-    return 1', '+    return 2'], 'def b():')]);
    expect(out).toEqual({
      ok: true,
      text: 'def a():\r\n    return 1\r\ndef b():\r\n    return 2',
      added: 1,
      removed: 1,
    });
  });

  it('tolerates trailing and then surrounding whitespace differences, exact matches first', () => {
    const out = applyHunks('  a  \nb\n', [hunk([' a', '-b', '+c'])]);
    expect(out).toMatchObject({ ok: true, text: '  a  \nc\n' });
  });

  it('anchors an End of File hunk at the end, and adds at the end without context', () => {
    expect(applyHunks('x\ny\nx\n', [hunk(['-x', '+z'], null, true)])).toMatchObject({ text: 'x\ny\nz\n' });
    expect(applyHunks('x\n', [hunk(['+y'])])).toMatchObject({ text: 'x\ny\n' });
  });

  it('names the hunk that does not apply, with its first lines', () => {
    const out = applyHunks('a\nb\nc\n', [hunk(['-b', '+B']), hunk(['-a', '+A'])]);
    expect(out.ok).toBe(false);
    if (!out.ok)
      expect(out.message).toBe(
        'hunk 2 (patch line 1) did not apply: its 1 context and removed line were not found after line 2, starting:\n  "a" (the file has 3 lines). Read the file again and copy the context lines exactly.',
      );
  });
});

describe('apply_patch (process context)', () => {
  let w: Workspace;
  beforeEach(async () => {
    w = await openWorkspace();
  });
  afterEach(() => w.dispose());
  const file = (name: string) => join(w.hostDir, name);

  it('adds, updates, moves and deletes in one patch', async () => {
    writeFileSync(file('a.txt'), 'one\ntwo\nthree\n');
    writeFileSync(file('gone.txt'), 'bye\n');
    writeFileSync(file('old.txt'), 'keep\nchange\n');
    const result = await w.call('apply_patch', {
      patch: patch(
        '*** Add File: dir/new.txt',
        '+hello',
        '*** Update File: a.txt',
        '@@',
        ' one',
        '-two',
        '+TWO',
        ' three',
        '*** Delete File: gone.txt',
        '*** Update File: old.txt',
        '*** Move to: moved.txt',
        '@@',
        ' keep',
        '-change',
        '+changed',
      ),
    });
    expect(result.isError).toBeFalsy();
    expect(text(result)).toBe(
      `Applied the patch (5 files):\nA ${w.dir}/dir/new.txt (1 lines)\nM ${w.dir}/a.txt (+1 −1)\nD ${w.dir}/gone.txt\nR ${w.dir}/old.txt → ${w.dir}/moved.txt (+1 −1)`,
    );
    expect(readFileSync(file('dir/new.txt'), 'utf8')).toBe('hello\n');
    expect(readFileSync(file('a.txt'), 'utf8')).toBe('one\nTWO\nthree\n');
    expect(existsSync(file('gone.txt'))).toBe(false);
    expect(existsSync(file('old.txt'))).toBe(false);
    expect(readFileSync(file('moved.txt'), 'utf8')).toBe('keep\nchanged\n');
  });

  it('writes nothing when one hunk of one file fails, and names the file and hunk', async () => {
    writeFileSync(file('a.txt'), 'one\n');
    writeFileSync(file('b.txt'), 'two\n');
    const result = await w.call('apply_patch', {
      patch: patch(
        '*** Update File: a.txt',
        '@@',
        '-one',
        '+ONE',
        '*** Update File: b.txt',
        '@@',
        '-zwei',
        '+TWO',
        '*** Add File: c.txt',
        '+c',
      ),
    });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(
      new RegExp(
        `^\\*\\*\\* Update File: ${w.dir}/b\\.txt: hunk 1 \\(patch line 7\\) did not apply: .*"zwei".*Nothing was changed\\.$`,
        's',
      ),
    );
    expect(readFileSync(file('a.txt'), 'utf8')).toBe('one\n');
    expect(existsSync(file('c.txt'))).toBe(false);
  });

  it('refuses to add a file that exists, update or delete one that does not, or name a file twice', async () => {
    writeFileSync(file('a.txt'), 'one\n');
    const add = await w.call('apply_patch', { patch: patch('*** Add File: a.txt', '+x') });
    expect(text(add)).toMatch(/Add File: .*a\.txt: the file already exists; use "\*\*\* Update File:"/);
    const missing = await w.call('apply_patch', { patch: patch('*** Delete File: nope.txt') });
    expect(missing.isError).toBe(true);
    expect(text(missing)).toMatch(/Delete File: .*nope\.txt: .*Nothing was changed\./);
    const twice = await w.call('apply_patch', {
      patch: patch('*** Delete File: a.txt', '*** Add File: a.txt', '+y'),
    });
    expect(text(twice)).toMatch(/names .*a\.txt more than once/);
    expect(readFileSync(file('a.txt'), 'utf8')).toBe('one\n');
  });

  it('refuses a file changed since it was last read, as edit_file does', async () => {
    writeFileSync(file('a.txt'), 'one\n');
    await w.call('read_file', { path: 'a.txt' });
    writeFileSync(file('a.txt'), 'one\nextra\n');
    const result = await w.call('apply_patch', {
      patch: patch('*** Update File: a.txt', '@@', '-one', '+ONE'),
    });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/has changed since you last read it.*Read it again with read_file/);
    expect(readFileSync(file('a.txt'), 'utf8')).toBe('one\nextra\n');
  });
});
