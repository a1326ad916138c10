import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BerthMcp, startBerthMcp, textOf } from './support/berth-mcp-client.js';

describe('edit_file and write_file under concurrency and stale views (berth mcp, SDK client)', () => {
  let mcp: BerthMcp;
  beforeAll(async () => {
    mcp = await startBerthMcp();
  });
  afterAll(() => mcp?.close());

  it('20 concurrent edits of one file: each is in the file or reported as refused', async () => {
    const file = join(mcp.root, 'many.txt');
    const lines = Array.from({ length: 20 }, (_, i) => `line ${i + 1} original`);
    writeFileSync(file, `${lines.join('\n')}\n`);
    const results = await Promise.all(
      lines.map((line, i) =>
        mcp.call('edit_file', { path: 'many.txt', old_string: line, new_string: `line ${i + 1} EDITED` }),
      ),
    );
    const after = readFileSync(file, 'utf8');
    let applied = 0;
    for (const [i, result] of results.entries()) {
      const inFile = after.includes(`line ${i + 1} EDITED\n`);
      if (result.isError) expect(inFile, textOf(result)).toBe(false);
      else {
        expect(inFile, `edit ${i + 1} reported success but is not in the file`).toBe(true);
        applied++;
      }
    }
    // Nothing else changed them: serialized, every one applies.
    expect(applied).toBe(20);
  });

  it('an edit of a file changed since it was read is refused until it is read again', async () => {
    const file = join(mcp.root, 'stale.txt');
    writeFileSync(file, 'alpha\nbeta\ngamma\n');
    expect((await mcp.call('read_file', { path: 'stale.txt' })).isError).toBeFalsy();
    // Something other than the model's own edits changes the file.
    const changed = await mcp.call('bash', { command: "sed -i 's/gamma/GAMMA/' stale.txt" });
    expect(textOf(changed)).toMatch(/Exit code 0/);
    const refused = await mcp.call('edit_file', {
      path: 'stale.txt',
      old_string: 'beta',
      new_string: 'BETA',
    });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/has changed since you last read it.*Read it again with read_file/s);
    expect(readFileSync(file, 'utf8')).toBe('alpha\nbeta\nGAMMA\n');
    const overwrite = await mcp.call('write_file', { path: 'stale.txt', content: 'lost\n' });
    expect(overwrite.isError).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe('alpha\nbeta\nGAMMA\n');

    await mcp.call('read_file', { path: 'stale.txt' });
    const ok = await mcp.call('edit_file', { path: 'stale.txt', old_string: 'beta', new_string: 'BETA' });
    expect(ok.isError, textOf(ok)).toBeFalsy();
    // The model's own edit is what it now knows: the next edit goes through.
    const next = await mcp.call('edit_file', { path: 'stale.txt', old_string: 'alpha', new_string: 'ALPHA' });
    expect(next.isError, textOf(next)).toBeFalsy();
    expect(readFileSync(file, 'utf8')).toBe('ALPHA\nBETA\nGAMMA\n');
  });

  it('10 concurrent edits of the same anchor apply one after another', async () => {
    const file = join(mcp.root, 'anchor.txt');
    writeFileSync(file, 'start\nEND\n');
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        mcp.call('edit_file', { path: 'anchor.txt', old_string: 'END', new_string: `item ${i}\nEND` }),
      ),
    );
    for (const result of results) expect(result.isError, textOf(result)).toBeFalsy();
    const after = readFileSync(file, 'utf8').split('\n');
    for (let i = 0; i < 10; i++) expect(after.filter((line) => line === `item ${i}`)).toHaveLength(1);
    expect(after).toHaveLength(13);
  });
});
