/** Running one text command in tests, and inputs every command's tests share. */
import type { ByteReader, CommandSpec } from '../../../../src/commands/command.js';
import { runStandalone } from '../../../../src/commands/standalone.js';
import type { Filesystem } from '../../../../src/vfs/filesystem.js';
import { createMemoryFilesystem } from '../../../../src/vfs/index.js';

export interface TextRun {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly stdoutBytes: Uint8Array;
  readonly fs: Filesystem;
}

/** Run `spec` with `argv` in `/work` over a memory filesystem holding `files`. */
export async function runText(
  spec: CommandSpec,
  argv: readonly string[],
  options: {
    readonly stdin?: string | Uint8Array | ByteReader;
    readonly files?: Readonly<Record<string, string | Uint8Array>>;
    readonly fs?: Filesystem;
    readonly maxOutputBytes?: number;
    readonly env?: Readonly<Record<string, string>>;
    readonly signal?: AbortSignal;
  } = {},
): Promise<TextRun> {
  const fs = options.fs ?? createMemoryFilesystem();
  await fs.mkdir('/work', { recursive: true });
  for (const [name, content] of Object.entries(options.files ?? {})) {
    const path = `/work/${name}`;
    await fs.mkdir(path.slice(0, path.lastIndexOf('/')), { recursive: true });
    await fs.writeFile(path, typeof content === 'string' ? new TextEncoder().encode(content) : content);
  }
  const stdin = typeof options.stdin === 'string' ? new TextEncoder().encode(options.stdin) : options.stdin;
  const r = await runStandalone(spec.run, {
    argv,
    fs,
    cwd: '/work',
    stdin,
    env: { LC_ALL: 'C.UTF-8', TZ: 'UTC', ...options.env },
    maxOutputBytes: options.maxOutputBytes,
    signal: options.signal,
  });
  const latin1 = (b: Uint8Array): string => Buffer.from(b).toString('latin1');
  return { status: r.status, stdout: latin1(r.stdout), stderr: latin1(r.stderr), stdoutBytes: r.stdout, fs };
}

/** Every byte value twice, newlines among them. */
export function binary(): Uint8Array {
  const b = new Uint8Array(512);
  for (let i = 0; i < b.length; i += 1) b[i] = i & 0xff;
  return b;
}

/** Lines with invalid UTF-8: a lone continuation byte, a truncated sequence, an overlong form, Latin-1. */
export function invalidUtf8(): Uint8Array {
  return Uint8Array.from([
    0x61, 0x80, 0x62, 0x0a, 0xe2, 0x82, 0x0a, 0xc0, 0xaf, 0x0a, 0x63, 0x61, 0x66, 0xe9, 0x0a, 0xff, 0xfe,
    0x00, 0x0a, 0xe2, 0x82, 0xac, 0x0a,
  ]);
}
