import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError, ProtocolError } from '../../src/errors/index.js';
import { JsonLineFramer } from '../../src/mcp/json-line-framer.js';

function collect(options?: { maxLineBytes?: number }) {
  const messages: JSONRPCMessage[] = [];
  const errors: ProtocolError[] = [];
  const framer = new JsonLineFramer(
    { onMessage: (m) => messages.push(m), onError: (e) => errors.push(e) },
    options,
  );
  return { framer, messages, errors };
}

const bytes = (text: string) => new TextEncoder().encode(text);
const ping = (id: number) => ({ jsonrpc: '2.0' as const, id, method: 'ping' });
const line = (value: unknown) => `${JSON.stringify(value)}\n`;

describe('JsonLineFramer', () => {
  it('parses several frames in one chunk, in order', () => {
    const { framer, messages, errors } = collect();
    framer.push(bytes(line(ping(1)) + line(ping(2)) + line(ping(3))));
    expect(messages).toEqual([ping(1), ping(2), ping(3)]);
    expect(errors).toEqual([]);
  });

  it('joins a frame split across chunks, byte by byte', () => {
    const { framer, messages } = collect();
    const all = bytes(line({ jsonrpc: '2.0', id: 7, result: { text: 'héllo 😀 wörld' } }));
    for (let i = 0; i < all.length; i++) framer.push(all.subarray(i, i + 1));
    expect(messages).toEqual([{ jsonrpc: '2.0', id: 7, result: { text: 'héllo 😀 wörld' } }]);
  });

  it('decodes a code point cut between two chunks whole', () => {
    const { framer, messages, errors } = collect();
    const all = bytes(line({ jsonrpc: '2.0', id: 1, result: { t: '😀' } }));
    const cut = all.indexOf(0xf0) + 2; // inside the 4-byte emoji
    framer.push(all.subarray(0, cut));
    framer.push(all.subarray(cut));
    expect(errors).toEqual([]);
    expect(messages).toEqual([{ jsonrpc: '2.0', id: 1, result: { t: '😀' } }]);
  });

  it('accepts CRLF line ends and skips blank lines', () => {
    const { framer, messages, errors } = collect();
    framer.push(bytes(`\n\r\n${JSON.stringify(ping(1))}\r\n   \n`));
    expect(messages).toEqual([ping(1)]);
    expect(errors).toEqual([]);
  });

  it('reports a line that is not JSON and keeps going', () => {
    const { framer, messages, errors } = collect();
    framer.push(bytes(`not json\n${line(ping(2))}`));
    expect(messages).toEqual([ping(2)]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(ProtocolError);
    expect(errors[0]!.code).toBe('E_PROTOCOL');
    expect(errors[0]!.message).toMatch(/line 1 is not JSON \("not json"\)/);
  });

  it('reports JSON that is not JSON-RPC', () => {
    const { framer, messages, errors } = collect();
    framer.push(bytes(`{"hello":1}\n[1,2]\n${line(ping(3))}`));
    expect(messages).toEqual([ping(3)]);
    expect(errors.map((e) => e.message)).toEqual([
      expect.stringMatching(/line 1 is JSON but not a JSON-RPC 2.0 message/),
      expect.stringMatching(/line 2 is JSON but not a JSON-RPC 2.0 message/),
    ]);
  });

  it('reports invalid UTF-8 and recovers on the next line', () => {
    const { framer, messages, errors } = collect();
    framer.push(new Uint8Array([0x7b, 0xff, 0xfe, 0x7d, 0x0a]));
    framer.push(bytes(line(ping(4))));
    expect(messages).toEqual([ping(4)]);
    expect(errors).toHaveLength(1);
    expect(errors[0]!.message).toMatch(/not valid UTF-8/);
  });

  it('reports a line that ends inside a UTF-8 sequence', () => {
    const { framer, messages, errors } = collect();
    framer.push(new Uint8Array([0x22, 0xe2, 0x82, 0x0a]));
    framer.push(bytes(line(ping(5))));
    expect(messages).toEqual([ping(5)]);
    expect(errors[0]!.message).toMatch(/ends inside a UTF-8 sequence/);
  });

  it('skips a line over maxLineBytes up to its newline, without holding it', () => {
    const { framer, messages, errors } = collect({ maxLineBytes: 64 });
    framer.push(bytes('{"jsonrpc":"2.0","id":1,"result":{"pad":"'));
    for (let i = 0; i < 100; i++) framer.push(bytes('x'.repeat(1000)));
    framer.push(bytes(`"}}\n${line(ping(6))}`));
    expect(messages).toEqual([ping(6)]);
    expect(errors).toHaveLength(1);
    expect(errors[0]!.message).toMatch(/line 1 \(100044 bytes\) is longer than maxLineBytes \(64 bytes\)/);
  });

  it('takes a frame of exactly maxLineBytes', () => {
    const frame = JSON.stringify(ping(1));
    const { framer, messages, errors } = collect({ maxLineBytes: Buffer.byteLength(frame) });
    framer.push(bytes(`${frame}\n`));
    expect(errors).toEqual([]);
    expect(messages).toEqual([ping(1)]);
  });

  it('reports a partial frame left at the end of the stream', () => {
    const { framer, errors } = collect();
    framer.push(bytes('{"jsonrpc":"2.0"'));
    framer.end();
    expect(errors[0]!.message).toMatch(/ended inside a frame \(16 bytes/);
    framer.end();
    expect(errors).toHaveLength(1);
  });

  it('refuses a bad maxLineBytes', () => {
    expect(() => collect({ maxLineBytes: 0 })).toThrow(InvalidArgumentError);
    expect(() => collect({ maxLineBytes: 1.5 })).toThrow(/maxLineBytes: must be a positive integer/);
  });
});
