/**
 * The arguments of a context call that every backend checks the same way: paths and working
 * directories resolved against the handle's cwd, file contents, stdin, terminal sizes and container
 * ports (a read range's are `vfs/range-arguments.ts`). Each refusal is an `InvalidArgumentError` naming the argument.
 * @module
 */
import { posix } from 'node:path';
import { pathOption } from '../../contract/validate-options.js';
import { InvalidArgumentError } from '../../errors/index.js';

/** A call's `cwd` option resolved against the handle's working directory (the handle's when absent). */
export function resolveCwdOption(handleCwd: string, cwd: unknown, field: string): string {
  const value = pathOption(cwd, field, false);
  return value === undefined ? handleCwd : posix.resolve(handleCwd, value);
}

/** A file method's path, absolute (resolved against the handle's working directory). */
export function resolvePathArgument(handleCwd: string, path: unknown): string {
  if (typeof path !== 'string' || path === '') {
    throw new InvalidArgumentError('path', `must be a non-empty path string, got ${typeof path}`);
  }
  if (path.includes('\0')) throw new InvalidArgumentError('path', 'must not contain a NUL byte');
  return posix.resolve(handleCwd, path);
}

/** `writeFile`'s content as bytes (`encoding` applies to a string, default UTF-8). */
export function fileContentBytes(content: unknown, encoding: unknown): Uint8Array {
  if (typeof content === 'string') {
    if (encoding !== undefined && !Buffer.isEncoding(encoding as string)) {
      throw new InvalidArgumentError(
        'encoding',
        `must be a Node.js buffer encoding, got ${JSON.stringify(encoding)}`,
      );
    }
    return Buffer.from(content, (encoding as BufferEncoding | undefined) ?? 'utf8');
  }
  if (content instanceof Uint8Array) return content;
  throw new InvalidArgumentError('content', 'must be a string or a Uint8Array');
}

/** `exec`'s `stdin` option as bytes, or undefined. */
export function stdinBytes(stdin: unknown, field: string): Uint8Array | undefined {
  if (stdin === undefined) return undefined;
  if (typeof stdin === 'string') return Buffer.from(stdin, 'utf8');
  if (stdin instanceof Uint8Array) return stdin;
  throw new InvalidArgumentError(field, 'must be a string or a Uint8Array');
}

/** A terminal's columns or rows. */
export function terminalSize(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 10_000) {
    throw new InvalidArgumentError(field, `must be an integer from 1 to 10000, got ${String(value)}`);
  }
  return value;
}

/** A container port number. */
export function containerPortArgument(port: unknown): number {
  if (!Number.isInteger(port) || (port as number) < 1 || (port as number) > 65_535) {
    throw new InvalidArgumentError(
      'containerPort',
      `must be an integer from 1 to 65535, got ${String(port)}`,
    );
  }
  return port as number;
}
