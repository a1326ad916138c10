import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BerthMcp, startBerthMcp, textOf } from './support/berth-mcp-client.js';

describe('bash arguments models send (berth mcp, SDK client)', () => {
  let mcp: BerthMcp;
  beforeAll(async () => {
    mcp = await startBerthMcp();
  });
  afterAll(() => mcp?.close());

  it('accepts a description and ignores it', async () => {
    const result = await mcp.call('bash', { command: 'echo ran', description: 'Print a word' });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(textOf(result)).toMatch(/^ran\n\[Exit code 0/);
    expect(textOf(result)).not.toContain('Print a word');
  });

  it('max_output_chars sets the budget of one call, both ways', async () => {
    const small = textOf(await mcp.call('bash', { command: 'seq 1 2000', max_output_chars: 1000 }));
    const body = small.slice(0, small.lastIndexOf('\n[Exit'));
    const shown = body.split('\n').filter((line) => /^\d+$/.test(line));
    expect(shown.join('\n').length).toBeLessThanOrEqual(1000);
    expect(small).toMatch(/\(([\d,]+) bytes\) of output omitted here/);
    const large = textOf(await mcp.call('bash', { command: 'seq 1 9000', max_output_chars: 60_000 }));
    expect(large).not.toContain('omitted here');
    expect(large).toContain('\n9000\n');
    const bad = await mcp.call('bash', { command: 'true', max_output_chars: 10 });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/max_output_chars.*must be an integer from 200 to 100000/);
    const typo = await mcp.call('bash', { command: 'true', max_output: 500 });
    expect(textOf(typo)).toContain('did you mean `max_output_chars`?');
  });
});
