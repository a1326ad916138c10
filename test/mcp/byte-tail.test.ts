import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../src/errors/index.js';
import { ByteTail } from '../../src/mcp/byte-tail.js';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('ByteTail', () => {
  it('holds everything while under the cap', () => {
    const tail = new ByteTail(16);
    tail.push(bytes('abc'));
    tail.push(bytes('def'));
    expect(tail.text()).toBe('abcdef');
    expect(tail.bytesTotal).toBe(6);
    expect(tail.omittedBytes).toBe(0);
  });

  it('keeps exactly the last maxBytes across wrap-arounds', () => {
    const tail = new ByteTail(5);
    for (const part of ['ab', 'cde', 'fg', 'h', 'ijklm', 'no']) tail.push(bytes(part));
    expect(tail.text()).toBe('klmno');
    expect(tail.bytesTotal).toBe(15);
    expect(tail.omittedBytes).toBe(10);
  });

  it('keeps the end of one chunk bigger than the cap', () => {
    const tail = new ByteTail(4);
    tail.push(bytes('x'));
    tail.push(bytes('0123456789'));
    expect(tail.text()).toBe('6789');
  });

  it('never shows half a code point at the cut', () => {
    const tail = new ByteTail(5);
    tail.push(bytes('a€€')); // 1 + 3 + 3 bytes; the tail starts inside the first euro sign
    expect(tail.text()).toBe('€');
    expect(tail.text()).not.toContain('\uFFFD');
  });

  it('holds bounded memory for a large stream', () => {
    const tail = new ByteTail(1024);
    const chunk = new Uint8Array(64 * 1024).fill(0x61);
    for (let i = 0; i < 160; i++) tail.push(chunk); // 10 MiB
    expect(tail.bytes().length).toBe(1024);
    expect(tail.bytesTotal).toBe(10 * 1024 * 1024);
  });

  it('refuses a bad cap', () => {
    expect(() => new ByteTail(0)).toThrow(InvalidArgumentError);
    expect(() => new ByteTail(Number.NaN)).toThrow(/maxBytes: must be a positive integer/);
  });
});
