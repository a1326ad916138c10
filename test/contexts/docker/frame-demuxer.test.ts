import { describe, expect, it } from 'vitest';
import { FrameDemuxer, type FrameStream } from '../../../src/contexts/docker/frame-demuxer.js';
import { ProtocolError } from '../../../src/errors/index.js';

function frame(stream: number, payload: string | Uint8Array): Buffer {
  const body = typeof payload === 'string' ? Buffer.from(payload) : Buffer.from(payload);
  const header = Buffer.alloc(8);
  header[0] = stream;
  header.writeUInt32BE(body.length, 4);
  return Buffer.concat([header, body]);
}

function collect(chunks: Uint8Array[]): { out: string; err: string; order: FrameStream[] } {
  let out = '';
  let err = '';
  const order: FrameStream[] = [];
  const demuxer = new FrameDemuxer((stream, payload) => {
    order.push(stream);
    if (stream === 1) out += Buffer.from(payload).toString();
    else err += Buffer.from(payload).toString();
  });
  for (const chunk of chunks) demuxer.push(chunk);
  demuxer.end();
  return { out, err, order };
}

describe('FrameDemuxer', () => {
  const wire = Buffer.concat([frame(1, 'hello '), frame(2, 'oops'), frame(1, 'world'), frame(1, '')]);

  it('splits stdout and stderr in order', () => {
    expect(collect([wire])).toEqual({ out: 'hello world', err: 'oops', order: [1, 2, 1] });
  });

  it('handles headers and payloads split at every byte', () => {
    const chunks = [...wire].map((byte) => Uint8Array.of(byte));
    const { out, err } = collect(chunks);
    expect(out).toBe('hello world');
    expect(err).toBe('oops');
  });

  it('passes a large payload through without copying it', () => {
    const big = Buffer.alloc(200_000, 0x61);
    const wireBig = frame(1, big);
    const slices: Uint8Array[] = [];
    const demuxer = new FrameDemuxer((_stream, payload) => slices.push(payload));
    demuxer.push(wireBig);
    expect(slices).toHaveLength(1);
    expect(slices[0]!.buffer).toBe(wireBig.buffer);
    expect(slices[0]!.length).toBe(200_000);
  });

  it('reads sizes above 2 GiB without sign errors', () => {
    const header = Buffer.from([1, 0, 0, 0, 0x80, 0, 0, 1]);
    const demuxer = new FrameDemuxer(() => undefined);
    demuxer.push(header);
    demuxer.push(Buffer.alloc(10));
    expect(demuxer.atBoundary).toBe(false);
    expect(() => demuxer.end()).toThrow(/2147483639 payload bytes missing/);
  });

  it('rejects an unknown stream id with ProtocolError (a TTY stream read as framed)', () => {
    const demuxer = new FrameDemuxer(() => undefined);
    expect(() => demuxer.push(Buffer.from('hello world!'))).toThrow(ProtocolError);
  });

  it('rejects a stream that ends inside a frame', () => {
    const demuxer = new FrameDemuxer(() => undefined);
    demuxer.push(wire.subarray(0, 10));
    expect(() => demuxer.end()).toThrow(/ended inside a frame/);
  });
});
