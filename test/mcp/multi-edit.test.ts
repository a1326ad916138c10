import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BerthMcp, startBerthMcp, textOf } from './support/berth-mcp-client.js';

describe('multi_edit (berth mcp, SDK client)', () => {
  let mcp: BerthMcp;
  beforeAll(async () => {
    mcp = await startBerthMcp();
  });
  afterAll(() => mcp?.close());

  it('lists an array schema for edits', async () => {
    const { tools } = await mcp.client.listTools();
    const schema = tools.find((t) => t.name === 'multi_edit')?.inputSchema as {
      properties: Record<string, unknown>;
    };
    expect(schema.properties.edits).toMatchObject({
      type: 'array',
      minItems: 1,
      items: { type: 'object', required: ['old_string', 'new_string'], additionalProperties: false },
    });
  });

  it('applies every edit in order, each to the result of the ones before', async () => {
    const file = join(mcp.root, 'config.ts');
    writeFileSync(file, 'const retries = 3;\nconst timeout = 10;\n');
    const result = await mcp.call('multi_edit', {
      path: 'config.ts',
      edits: [
        { old_string: 'retries = 3', new_string: 'retries = 5' },
        { old_string: 'retries = 5;\n', new_string: 'retries = 5; // raised\n' },
        { old_string: 'timeout = 10', new_string: 'timeout = 30' },
      ],
    });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(textOf(result)).toMatch(/^Edited .*config\.ts: 3 edits applied/);
    expect(readFileSync(file, 'utf8')).toBe('const retries = 5; // raised\nconst timeout = 30;\n');
  });

  it('writes nothing when one edit does not apply, and names it', async () => {
    const file = join(mcp.root, 'keep.txt');
    writeFileSync(file, 'alpha\nbeta\n');
    const result = await mcp.call('multi_edit', {
      path: 'keep.txt',
      edits: [
        { old_string: 'alpha', new_string: 'ALPHA' },
        { old_string: 'gamma', new_string: 'GAMMA' },
      ],
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^edits\[1\] did not apply, so nothing was written .*old_string/s);
    expect(readFileSync(file, 'utf8')).toBe('alpha\nbeta\n');
    const bad = await mcp.call('multi_edit', { path: 'keep.txt', edits: [{ old_string: 'a', new: 'b' }] });
    expect(textOf(bad)).toContain('`edits[0]`: unknown argument `new`; did you mean `new_string`?');
  });
});
