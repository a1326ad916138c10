import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BerthMcp, startBerthMcp, textOf } from './support/berth-mcp-client.js';

const patch = (...lines: string[]) => ['*** Begin Patch', ...lines, '*** End Patch'].join('\n');

describe('apply_patch through berth mcp (SDK client, sandboxed process context)', () => {
  let mcp: BerthMcp;
  beforeAll(async () => {
    mcp = await startBerthMcp();
  });
  afterAll(() => mcp?.close());
  const file = (name: string) => join(mcp.root, name);

  it('applies a Codex-style patch over several files', async () => {
    writeFileSync(file('app.py'), 'def main():\n    print("hi")\n\n\ndef other():\n    print("hi")\n');
    writeFileSync(file('gone.txt'), 'x\n');
    const result = await mcp.call('apply_patch', {
      patch: patch(
        '*** Update File: app.py',
        '@@ def other():',
        '-    print("hi")',
        '+    print("other")',
        '*** Add File: notes/todo.md',
        '+# TODO',
        '*** Delete File: gone.txt',
      ),
    });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toBe(
      `Applied the patch (3 files):\nM ${mcp.root}/app.py (+1 −1)\nA ${mcp.root}/notes/todo.md (1 lines)\nD ${mcp.root}/gone.txt`,
    );
    expect(readFileSync(file('app.py'), 'utf8')).toBe(
      'def main():\n    print("hi")\n\n\ndef other():\n    print("other")\n',
    );
    expect(readFileSync(file('notes/todo.md'), 'utf8')).toBe('# TODO\n');
  });

  it('all or nothing: a failing hunk in the second file leaves the first untouched', async () => {
    writeFileSync(file('one.txt'), 'alpha\n');
    writeFileSync(file('two.txt'), 'beta\n');
    const result = await mcp.call('apply_patch', {
      patch: patch(
        '*** Update File: one.txt',
        '@@',
        '-alpha',
        '+ALPHA',
        '*** Update File: two.txt',
        '@@',
        '-gamma',
        '+GAMMA',
      ),
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^\*\*\* Update File: .*two\.txt: hunk 1 \(patch line 7\) did not apply/);
    expect(readFileSync(file('one.txt'), 'utf8')).toBe('alpha\n');
  });

  it('runs under the per-file edit lock: concurrent patches and edits of one file all land', async () => {
    const lines = Array.from({ length: 20 }, (_, i) => `line ${i}`);
    writeFileSync(file('shared.txt'), `${lines.join('\n')}\n`);
    const calls = lines.map((line, i) =>
      i % 2 === 0
        ? mcp.call('apply_patch', {
            patch: patch('*** Update File: shared.txt', '@@', `-${line}`, `+${line} patched`),
          })
        : mcp.call('edit_file', {
            path: 'shared.txt',
            old_string: `${line}\n`,
            new_string: `${line} edited\n`,
          }),
    );
    const results = await Promise.all(calls);
    for (const result of results) expect(result.isError, textOf(result)).toBeFalsy();
    expect(readFileSync(file('shared.txt'), 'utf8')).toBe(
      `${lines.map((line, i) => `${line} ${i % 2 === 0 ? 'patched' : 'edited'}`).join('\n')}\n`,
    );
  });

  it('refuses a path outside the workspace, as the other file tools do', async () => {
    const result = await mcp.call('apply_patch', { patch: patch('*** Add File: ../escape.txt', '+x') });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/outside the workspace root/);
  });
});
