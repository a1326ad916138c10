import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BerthMcp, startBerthMcp, textOf } from './support/berth-mcp-client.js';

// Issue: output beyond the context's own capture was counted from the kept text only.
describe('bash omission counts above the context capture (berth mcp, SDK client)', () => {
  let mcp: BerthMcp;
  beforeAll(async () => {
    mcp = await startBerthMcp();
  });
  afterAll(() => mcp?.close());

  const marker = (text: string) => text.split('\n').find((line) => line.startsWith('[… ')) ?? '';

  it('stdout of 7.2 MiB: exact bytes and a stated lower bound for lines', async () => {
    // timeout_ms: the foreground path, through the context's own capture.
    const result = await mcp.call('bash', { command: 'seq 1 700000 | sed "s/^/row /"', timeout_ms: 60_000 });
    const text = textOf(result);
    const line = marker(text);
    const total = 7_588_895; // `seq 1 700000 | sed "s/^/row /" | wc -c`
    const match = /\(([\d,]+) bytes, at least ([\d,]+) lines\) of stdout omitted here/.exec(line);
    expect(match, line).not.toBeNull();
    const omitted = Number(match?.[1]?.replaceAll(',', ''));
    const head = text.slice(0, text.indexOf('[… '));
    const tail = text.slice(text.indexOf('\n', text.indexOf('[… ')) + 1, text.lastIndexOf('\n[Exit'));
    expect(omitted).toBe(total - Buffer.byteLength(head) - Buffer.byteLength(`${tail}\n`));
    const atLeast = Number(match?.[2]?.replaceAll(',', ''));
    expect(atLeast).toBeLessThanOrEqual(700_000);
    expect(line).not.toMatch(/characters \(/);
  });

  it('stderr and a single 5 MB line are counted the same way', async () => {
    const err = marker(textOf(await mcp.call('bash', { command: 'seq 1 700000 >&2', timeout_ms: 60_000 })));
    expect(err).toMatch(/\([\d,]+ bytes, at least [\d,]+ lines\) of stderr omitted here/);
    const omittedErr = Number(/\(([\d,]+) bytes/.exec(err)?.[1]?.replaceAll(',', ''));
    // `seq 1 700000 | wc -c` is 4,788,895; about 30,000 characters are shown.
    expect(omittedErr).toBeGreaterThan(4_788_895 - 31_000);
    expect(omittedErr).toBeLessThan(4_788_895 - 29_000);

    const one = marker(
      textOf(
        await mcp.call('bash', { command: "head -c 5000000 /dev/zero | tr '\\0' x", timeout_ms: 60_000 }),
      ),
    );
    const omittedOne = Number(
      /\(([\d,]+) bytes\) of stdout omitted here/.exec(one)?.[1]?.replaceAll(',', ''),
    );
    expect(omittedOne, one).toBeGreaterThan(5_000_000 - 31_000);
    expect(omittedOne).toBeLessThan(5_000_000 - 29_000);
  });

  it('output under the context capture keeps exact character and line counts', async () => {
    const text = textOf(await mcp.call('bash', { command: 'seq 1 9000', timeout_ms: 60_000 }));
    const line = marker(text);
    // Under the context's capture the whole text is there: the middle is counted exactly.
    const head = text.slice(0, text.indexOf('[… '));
    const tail = text.slice(text.indexOf('\n', text.indexOf('[… ')) + 1, text.lastIndexOf('\n[Exit'));
    const shownLines = `${head}${tail}\n`.split('\n').length - 1;
    const chars = Number(/([\d,]+) characters/.exec(line)?.[1]?.replaceAll(',', ''));
    const lines = Number(/\(([\d,]+) lines\)/.exec(line)?.[1]?.replaceAll(',', ''));
    expect(chars).toBe(43_893 - head.length - tail.length - 1);
    expect(lines).toBe(9000 - shownLines);
  });

  it('the default (read from the task log, by its two ends) counts the omitted bytes exactly', async () => {
    const text = textOf(await mcp.call('bash', { command: 'seq 1 700000 | sed "s/^/row /"' }));
    const line = marker(text);
    const head = text.slice(0, text.indexOf('[… '));
    const tail = text.slice(text.indexOf('\n', text.indexOf('[… ')) + 1, text.lastIndexOf('\n[Exit'));
    const bytes = Number(/\(([\d,]+) bytes\) of output omitted here/.exec(line)?.[1]?.replaceAll(',', ''));
    // The head ends where the marker's own line break was added, unless it ended on a line break.
    const shown =
      Buffer.byteLength(head.endsWith('\n') ? head : `${head}\n`) + Buffer.byteLength(`${tail}\n`);
    expect(Math.abs(bytes - (7_588_895 - shown)), line).toBeLessThanOrEqual(1);
    expect(line).not.toMatch(/characters|lines/);
  });
});
