/**
 * Reading all of stdin, bounded.
 * @module
 */
import { InvalidArgumentError } from '../errors/index.js';

/** Read a stream to its end; more than `maxBytes` is refused rather than held. */
export async function readAllBounded(
  stream: NodeJS.ReadableStream,
  maxBytes: number,
  field: string,
): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    total += buffer.length;
    if (total > maxBytes) {
      throw new InvalidArgumentError(
        field,
        `stdin is larger than ${maxBytes} bytes; pass less, or use a file`,
      );
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}
