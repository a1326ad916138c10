/**
 * `tar` (GNU tar 1.34) over the virtual filesystem: create (`-c`), extract (`-x`) and list (`-t`)
 * archives in GNU tar's default format, through `src/archive/tar-codec.ts`, gzip'd with `-z` (and
 * recognized when read from a file). Streaming: a member's data goes from its file to the archive
 * and back in chunks; nothing is held whole.
 *
 * Extraction is contained as GNU tar's defaults make it: leading `/` is removed from member names
 * and link targets, a member whose name holds `..` is refused, and a symlink whose target is
 * absolute or holds `..` is first made as an empty placeholder file and only becomes a link once
 * every member is written (so no later member can be written through it). Writes go through the
 * filesystem, so a tar bomb ends at the byte budget (`Cannot write: No space left on device`).
 * @module
 */

import {
  encodeGnuHeader,
  TarDecoder,
  type TarEntry,
  tarDataPadding,
  tarEnd,
} from '../../archive/tar-codec.js';
import { ProtocolError } from '../../errors/index.js';
import { describeVfsCode, isVfsError, VfsError, type VfsStat } from '../../vfs/filesystem.js';
import { normalizeVfsPath } from '../../vfs/vfs-path.js';
import { InputTooLargeError, readAll } from '../byte-io.js';
import { encodeText } from '../byte-text.js';
import { BrokenPipeError, type ByteReader, type CommandContext, type CommandSpec } from '../command.js';
import { modeString } from '../files/file-mode.js';
import { groupNameOf, identityOf, userNameOf } from '../files/identity.js';
import { DEFAULT_UMASK } from '../files/mode-change.js';
import { fnmatch } from '../fnmatch.js';
import { quoteValue } from '../gnu-quote.js';
import { printError, versionText } from '../text/cli.js';
import { handleReader, operandPath } from '../text/input.js';
import { localTime, timeZoneFromEnv } from '../time/zone.js';
import { ARCHIVE_HELP } from './gnu-help.js';
import { GzipFormatError, gunzipStream, gzipStream } from './gzip-stream.js';
import { parseTarArgs, type TarSettings } from './tar-options.js';

const CHUNK = 256 * 1024;

/** A fatal problem: GNU prints it and `Error is not recoverable: exiting now`. */
class FatalTarError extends Error {}

/** A `-C` directory: as given (for messages; undefined for the working directory) and resolved. */
interface Place {
  readonly shown: string | undefined;
  readonly path: string;
}

class Tar {
  failed = false;
  private ugsWidth = 19;
  private warnedSlash = new Set<string>();
  private readonly entered = new Set<string>();
  constructor(
    readonly ctx: CommandContext,
    readonly s: TarSettings,
  ) {}

  /** Where verbose output goes: stderr when the archive itself is written to stdout. */
  get listing(): CommandContext['stdout'] {
    return this.s.mode === 'create' && this.s.file === '-' ? this.ctx.stderr : this.ctx.stdout;
  }

  async error(text: string): Promise<void> {
    this.failed = true;
    await printError(this.ctx, `tar: ${text}\n`);
  }

  /**
   * Check a `-C` directory when the first name under it is reached, as GNU changes into it then:
   * one that cannot be opened ends the run.
   */
  async enter(place: Place): Promise<void> {
    if (place.shown === undefined || this.entered.has(place.path)) return;
    try {
      const st = await this.ctx.fs.stat(place.path);
      if (st.type !== 'directory') throw new FatalTarError(`${place.shown}: Cannot open: Not a directory`);
    } catch (error) {
      if (!isVfsError(error)) throw error;
      throw new FatalTarError(`${place.shown}: Cannot open: ${describeVfsCode(error.code)}`);
    }
    this.entered.add(place.path);
  }

  async warnOnce(what: string): Promise<void> {
    if (this.warnedSlash.has(what)) return;
    this.warnedSlash.add(what);
    await printError(this.ctx, `tar: Removing leading \`${what}' from member names\n`);
  }

  /** The stored name made safe to print (tar's `escape` quoting style). */
  quote(name: string): string {
    return name.replace(/[\\\x00-\x1f\x7f]/g, (c) => {
      const named: Record<string, string> = {
        '\\': '\\\\',
        '\n': '\\n',
        '\t': '\\t',
        '\r': '\\r',
        '\f': '\\f',
        '\v': '\\v',
        '\b': '\\b',
        '\x07': '\\a',
      };
      return named[c] ?? `\\${c.charCodeAt(0).toString(8).padStart(3, '0')}`;
    });
  }

  /** `tar -tv`'s line for a member. */
  longLine(e: {
    name: string;
    type: TarEntry['type'];
    mode: number;
    uid: number;
    gid: number;
    uname: string;
    gname: string;
    size: number;
    mtimeMs: number;
    linkName: string;
  }): string {
    const vfsType =
      e.type === 'hardlink' || e.type === 'other'
        ? 'file'
        : e.type === 'directory' || e.type === 'symlink' || e.type === 'fifo'
          ? e.type
          : e.type === 'file'
            ? 'file'
            : e.type;
    let modes = modeString(vfsType, e.mode);
    if (e.type === 'hardlink') modes = `h${modes.slice(1)}`;
    const user = this.s.numericOwner || e.uname === '' ? String(e.uid) : e.uname;
    const group = this.s.numericOwner || e.gname === '' ? String(e.gid) : e.gname;
    const size = String(e.type === 'file' || e.type === 'other' ? e.size : 0);
    // The owner and size share a field of at least 19 columns that only grows (GNU's ugswidth).
    const owner = `${user}/${group}`;
    const pad = owner.length + 1 + size.length;
    if (pad > this.ugsWidth) this.ugsWidth = pad;
    const t = localTime(e.mtimeMs, timeZoneFromEnv(this.ctx.env));
    const p2 = (n: number): string => String(n).padStart(2, '0');
    const stamp = `${t.year}-${p2(t.month)}-${p2(t.day)} ${p2(t.hour)}:${p2(t.minute)}`;
    let line = `${modes} ${owner}${size.padStart(this.ugsWidth - owner.length)} ${stamp} ${this.quote(e.name)}`;
    if (e.type === 'symlink') line += ` -> ${this.quote(e.linkName)}`;
    if (e.type === 'hardlink') line += ` link to ${this.quote(e.linkName)}`;
    return `${line}\n`;
  }

  /** Whether `name` is excluded (unanchored, `*` matching `/`, a match on a leading directory excluding what is under it). */
  excluded(name: string, excludes: readonly string[]): boolean {
    if (excludes.length === 0) return false;
    const parts = name.replace(/\/+$/, '').split('/');
    for (let from = 0; from < parts.length; from += 1) {
      for (let to = parts.length; to > from; to -= 1) {
        const candidate = parts.slice(from, to).join('/');
        if (excludes.some((p) => fnmatch(p, candidate))) return true;
      }
    }
    return false;
  }
}

async function readLines(ctx: CommandContext, operand: string): Promise<string[]> {
  const data =
    operand === '-' ? await readStdinAll(ctx.stdin) : await ctx.fs.readFile(operandPath(ctx, operand));
  return Buffer.from(data)
    .toString('latin1')
    .split('\n')
    .filter((l) => l !== '');
}

/**
 * The names in order, each with the `-C` directory in effect for it (each `-C` relative to the one
 * before it, as GNU's successive chdirs are), the directory after the last `-C`, and the `-C`s
 * given after the last name.
 */
async function placedNames(
  tar: Tar,
): Promise<{ names: { name: string; place: Place }[]; last: Place; trailing: string[] }> {
  const { ctx, s } = tar;
  let place: Place = { shown: undefined, path: ctx.cwd };
  const names: { name: string; place: Place }[] = [];
  let trailing: string[] = [];
  for (const item of s.sequence) {
    if (item.kind === 'directory') {
      const path = normalizeVfsPath(item.path.startsWith('/') ? item.path : `${place.path}/${item.path}`);
      place = { shown: item.path, path };
      trailing.push(item.path);
      continue;
    }
    const list = item.kind === 'name' ? [item.name] : await readLines(ctx, item.path);
    if (list.length > 0) trailing = [];
    for (const name of list) names.push({ name, place });
  }
  return { names, last: place, trailing };
}

/** A file list on standard input (`-T -`), held whole up to 16 MiB. */
async function readStdinAll(reader: ByteReader): Promise<Uint8Array> {
  try {
    return await readAll(reader, 16 * 1024 * 1024);
  } catch (error) {
    if (error instanceof InputTooLargeError)
      throw new FatalTarError('a file list on standard input past 16 MiB');
    throw error;
  }
}

async function tarMain(ctx: CommandContext): Promise<number> {
  const parsed = parseTarArgs(ctx.argv.slice(1));
  if (parsed.kind === 'help') {
    await ctx.stdout.write(encodeText(ARCHIVE_HELP.tar as string));
    return 0;
  }
  if (parsed.kind === 'version') {
    await ctx.stdout.write(encodeText(versionText('tar', 'tar')));
    return 0;
  }
  if (parsed.kind === 'usage') {
    await ctx.stdout.write(
      encodeText("Usage: tar [OPTION...] [FILE]...\nSee 'tar --help' for the options.\n"),
    );
    return 0;
  }
  if (parsed.kind === 'error') {
    const hint = parsed.hint ? "Try 'tar --help' or 'tar --usage' for more information.\n" : '';
    await printError(ctx, `tar: ${parsed.message}\n${hint}`);
    return parsed.status ?? 2;
  }
  if (parsed.kind !== 'run') return 2;
  const tar = new Tar(ctx, parsed.settings);
  try {
    if (parsed.settings.mode === 'create') await create(tar);
    else await read(tar);
  } catch (error) {
    if (error instanceof BrokenPipeError) return 141;
    if (ctx.signal.aborted) return 143;
    if (error instanceof FatalTarError) {
      await printError(ctx, `tar: ${error.message}\ntar: Error is not recoverable: exiting now\n`);
      return 2;
    }
    throw error;
  }
  if (tar.failed) {
    await printError(ctx, 'tar: Exiting with failure status due to previous errors\n');
    return 2;
  }
  return 0;
}

// ---------------------------------------------------------------------------------------------
// Create

interface ArchiveSink {
  write(bytes: Uint8Array): Promise<void>;
  close(): Promise<void>;
  written: number;
}

async function openSink(tar: Tar): Promise<{ sink: ArchiveSink; path: string | undefined }> {
  const { ctx, s } = tar;
  let raw: (bytes: Uint8Array) => Promise<void>;
  let closeRaw: () => Promise<void> = async () => {};
  let path: string | undefined;
  if (s.file === '-') raw = (b) => ctx.stdout.write(b);
  else {
    path = operandPath(ctx, s.file);
    let handle: Awaited<ReturnType<typeof ctx.fs.open>>;
    try {
      handle = await ctx.fs.open(path, {
        write: true,
        create: true,
        truncate: true,
        mode: 0o666 & ~DEFAULT_UMASK,
      });
    } catch (error) {
      if (!isVfsError(error)) throw error;
      throw new FatalTarError(`${s.file}: Cannot open: ${describeVfsCode(error.code)}`);
    }
    raw = async (b) => {
      try {
        await handle.write(b);
      } catch (error) {
        if (!isVfsError(error)) throw error;
        throw new FatalTarError(`${s.file}: Cannot write: ${describeVfsCode(error.code)}`);
      }
    };
    closeRaw = () => handle.close();
  }
  if (!s.gzip) {
    const sink: ArchiveSink = {
      written: 0,
      async write(b) {
        sink.written += b.length;
        await raw(b);
      },
      close: closeRaw,
    };
    return { sink, path };
  }
  // The tar stream feeds a gzip stream through a bounded queue: the compressor pulls.
  const queue: (Uint8Array | null)[] = [];
  let wake: (() => void) | undefined;
  let space: (() => void) | undefined;
  let queued = 0;
  const reader: ByteReader = {
    async read() {
      while (queue.length === 0) await new Promise<void>((r) => (wake = r));
      const next = queue.shift() as Uint8Array | null;
      if (next !== null) queued -= next.length;
      space?.();
      return next;
    },
    unread(b) {
      queue.unshift(b);
      queued += b.length;
    },
    data: async () => undefined,
    close() {},
  };
  const done = gzipStream(reader, raw, { level: 6, mtimeSec: 0, signal: ctx.signal });
  let failure: unknown;
  done.catch((e: unknown) => {
    failure = e;
    space?.();
  });
  const push = (b: Uint8Array | null): void => {
    queue.push(b);
    if (b !== null) queued += b.length;
    wake?.();
  };
  const sink: ArchiveSink = {
    written: 0,
    async write(b) {
      if (failure !== undefined) throw failure;
      sink.written += b.length;
      push(b);
      while (queued > CHUNK && failure === undefined) await new Promise<void>((r) => (space = r));
      if (failure !== undefined) throw failure;
    },
    async close() {
      push(null);
      await done;
      await closeRaw();
    },
  };
  return { sink, path };
}

async function create(tar: Tar): Promise<void> {
  const { ctx, s } = tar;
  const { names, trailing } = await placedNames(tar);
  const excludes = [...s.excludes];
  for (const list of s.excludeFrom) excludes.push(...(await readLines(ctx, list)));
  if (names.length === 0) {
    await printError(
      ctx,
      "tar: Cowardly refusing to create an empty archive\nTry 'tar --help' or 'tar --usage' for more information.\n",
    );
    throw new ExitStatus(2);
  }
  const { sink, path: archivePath } = await openSink(tar);
  const seen = new Map<string, string>();
  const id = identityOf(ctx);
  const add = async (name: string, base: string): Promise<void> => {
    if (ctx.signal.aborted) throw ctx.signal.reason ?? new Error('aborted');
    const full = name.startsWith('/') ? name : base === '/' ? `/${name}` : `${base}/${name}`;
    let stored = name;
    if (!s.absoluteNames) {
      const stripped = stored.replace(/^\/+/, '');
      if (stripped !== stored) await tar.warnOnce('/');
      stored = stripped;
      const parts = stored.split('/');
      let dots = 0;
      while (parts[dots] === '..') dots += 1;
      if (dots > 0) {
        await tar.warnOnce(`${'../'.repeat(dots)}`);
        stored = parts.slice(dots).join('/');
      }
    }
    if (tar.excluded(stored, excludes)) return;
    let st: VfsStat;
    try {
      st = s.dereference ? await ctx.fs.stat(full) : await ctx.fs.lstat(full);
    } catch (error) {
      if (!isVfsError(error)) throw error;
      await tar.error(`${name}: Cannot stat: ${describeVfsCode(error.code)}`);
      return;
    }
    // The archive being written is left out (GNU with -z stores a partial copy of it instead).
    if (archivePath !== undefined && normalizeVfsPath(full) === normalizeVfsPath(archivePath)) {
      await printError(ctx, `tar: ${tar.quote(name)}: file is the archive; not dumped\n`);
      return;
    }
    const owner = {
      uid: st.uid,
      gid: st.gid,
      uname: userNameOf(ctx, st.uid) ?? (st.uid === id.uid ? id.user : ''),
      gname: groupNameOf(ctx, st.gid) ?? '',
    };
    const memberName =
      st.type === 'directory' && stored !== '' && !stored.endsWith('/') ? `${stored}/` : stored;
    const common = { mode: st.mode, mtimeMs: st.mtimeMs, ...owner };
    const verbose = async (entry: Parameters<Tar['longLine']>[0]): Promise<void> => {
      if (s.verbose === 0) return;
      const text = s.verbose > 1 ? tar.longLine(entry) : `${tar.quote(entry.name)}\n`;
      await tar.listing.write(encodeText(text));
    };
    if (st.type === 'directory') {
      if (memberName !== '') {
        await sink.write(encodeGnuHeader({ name: memberName, type: 'directory', size: 0, ...common }));
        await verbose({ name: memberName, type: 'directory', size: 0, linkName: '', ...common });
      }
      if (!s.recursion) return;
      let entries: Awaited<ReturnType<typeof ctx.fs.readdir>>;
      try {
        entries = await ctx.fs.readdir(full);
      } catch (error) {
        if (!isVfsError(error)) throw error;
        await tar.error(`${name}: Cannot open: ${describeVfsCode(error.code)}`);
        return;
      }
      const prefix = name === '' || name.endsWith('/') ? name : `${name}/`;
      for (const entry of entries) await add(`${prefix}${entry.name}`, base);
      return;
    }
    if (st.type === 'symlink') {
      const target = await ctx.fs.readlink(full);
      await sink.write(
        encodeGnuHeader({ name: memberName, type: 'symlink', size: 0, linkName: target, ...common }),
      );
      await verbose({ name: memberName, type: 'symlink', size: 0, linkName: target, ...common });
      return;
    }
    if (st.type !== 'file') {
      await printError(ctx, `tar: ${name}: socket ignored\n`);
      return;
    }
    const key = `${st.dev}:${st.ino}`;
    const first = st.nlink > 1 ? seen.get(key) : undefined;
    if (first !== undefined) {
      await sink.write(
        encodeGnuHeader({ name: memberName, type: 'hardlink', size: 0, linkName: first, ...common }),
      );
      await verbose({ name: memberName, type: 'hardlink', size: 0, linkName: first, ...common });
      return;
    }
    if (st.nlink > 1) seen.set(key, memberName);
    let handle: Awaited<ReturnType<typeof ctx.fs.open>>;
    try {
      handle = await ctx.fs.open(full, { read: true });
    } catch (error) {
      if (!isVfsError(error)) throw error;
      await tar.error(`${name}: Cannot open: ${describeVfsCode(error.code)}`);
      return;
    }
    try {
      await sink.write(encodeGnuHeader({ name: memberName, type: 'file', size: st.size, ...common }));
      await verbose({ name: memberName, type: 'file', size: st.size, linkName: '', ...common });
      let left = st.size;
      while (left > 0) {
        const chunk = await handle.read(Math.min(CHUNK, left));
        if (chunk.length === 0) break;
        left -= chunk.length;
        await sink.write(chunk);
        const c = ctx.cooperate();
        if (c !== undefined) await c;
      }
      if (left > 0) {
        // The file shrank while read: GNU pads with zeros and says so.
        await tar.error(`${name}: File shrank by ${left} bytes; padding with zeros`);
        await sink.write(new Uint8Array(left));
      }
      await sink.write(tarDataPadding(st.size));
    } finally {
      await handle.close();
    }
  };
  for (const { name, place } of names) {
    await tar.enter(place);
    await add(name, place.path);
  }
  await sink.write(tarEnd(sink.written));
  await sink.close();
  if (trailing.length > 0) {
    // GNU's -C applies to the names after it: one after the last name does nothing, and says so.
    await printError(
      ctx,
      'tar: The following options were used after any non-optional arguments in archive create or update mode.  These options are positional and affect only arguments that follow them.  Please, rearrange them properly.\n',
    );
    for (const dir of trailing) await tar.error(`-C ${quoteValue(dir)} has no effect`);
  }
}

/** Ends the command with a status after its message was printed. */
class ExitStatus extends Error {
  constructor(readonly status: number) {
    super(`exit ${status}`);
  }
}

// ---------------------------------------------------------------------------------------------
// List and extract

/** A bad header ended the read (already reported). */
class BadHeader extends Error {}

type Event =
  | { kind: 'entry'; entry: TarEntry; want: boolean; at: number }
  | { kind: 'data'; data: Uint8Array };

async function openSource(
  tar: Tar,
): Promise<{ reader: ByteReader; close: () => Promise<void>; fromFile: boolean }> {
  const { ctx, s } = tar;
  if (s.file === '-') return { reader: ctx.stdin, close: async () => {}, fromFile: false };
  try {
    const handle = await ctx.fs.open(operandPath(ctx, s.file), { read: true });
    const st = await handle.stat();
    if (st.type === 'directory') {
      await handle.close();
      throw new FatalTarError(
        `${s.file}: Cannot read: Is a directory\ntar: At beginning of tape, quitting now`,
      );
    }
    return { reader: handleReader(ctx, handle, CHUNK), close: () => handle.close(), fromFile: true };
  } catch (error) {
    if (!isVfsError(error)) throw error;
    throw new FatalTarError(`${s.file}: Cannot open: ${describeVfsCode(error.code)}`);
  }
}

/** Whether a member's (stored) name is selected by the operands: equal, or under one. */
function selectedBy(name: string, operands: readonly string[], wildcards: boolean): number {
  const bare = name.replace(/\/+$/, '');
  for (let i = 0; i < operands.length; i += 1) {
    const op = (operands[i] as string).replace(/\/+$/, '');
    if (bare === op || bare.startsWith(`${op}/`)) return i;
    if (
      wildcards &&
      (fnmatch(op, bare) ||
        bare.split('/').some((_, k, parts) => fnmatch(op, parts.slice(0, k + 1).join('/'))))
    )
      return i;
  }
  return -1;
}

async function read(tar: Tar): Promise<void> {
  const { ctx, s } = tar;
  const excludes = [...s.excludes];
  for (const list of s.excludeFrom) excludes.push(...(await readLines(ctx, list)));
  const { names: placed, last } = await placedNames(tar);
  const operands = placed.map((p) => p.name);
  const found = new Array<boolean>(operands.length).fill(false);
  const source = await openSource(tar);
  // One extractor per -C directory, made when the first member for it comes.
  const extractors = new Map<string, Extractor>();
  let extractor: Extractor | undefined;
  const placeOf = (at: number): Place => (at === -1 ? last : (placed[at] as { place: Place }).place);
  let events: Event[] = [];
  let sawMember = false;
  const decoder = new TarDecoder({
    onEntry(entry) {
      sawMember = true;
      let want = true;
      let at = -1;
      if (operands.length > 0) {
        at = selectedBy(entry.name.replace(/^\/+/, ''), operands, s.wildcards);
        if (at === -1) want = false;
        else found[at] = true;
      }
      if (want && tar.excluded(entry.name.replace(/^\/+/, ''), excludes)) want = false;
      events.push({ kind: 'entry', entry, want, at });
      return want;
    },
    onData(data) {
      events.push({ kind: 'data', data });
    },
  });
  const drain = async (): Promise<void> => {
    const batch = events;
    events = [];
    for (const event of batch) {
      if (event.kind === 'entry') {
        if (!event.want) continue;
        const place = placeOf(event.at);
        await tar.enter(place);
        if (s.mode === 'extract') {
          const before = extractor;
          extractor = extractors.get(place.path) ?? new Extractor(tar, place.path);
          extractors.set(place.path, extractor);
          // A member for another directory ends the one before it.
          if (before !== undefined && before !== extractor) await before.closeCurrent();
          await extractor.begin(event.entry);
        } else await listEntry(tar, event.entry);
      } else if (extractor !== undefined) await extractor.data(event.data);
      else if (s.toStdout) await ctx.stdout.write(event.data);
    }
  };
  const push = async (chunk: Uint8Array): Promise<void> => {
    if (decoder.done) return;
    try {
      decoder.push(chunk);
    } catch (error) {
      if (!(error instanceof ProtocolError)) throw error;
      await drain();
      // GNU scans on for a header; berth stops at the first bad one (what follows is not read).
      if (!sawMember) await printError(ctx, 'tar: This does not look like a tar archive\n');
      await tar.error('Skipping to next header');
      throw new BadHeader();
    }
    await drain();
  };
  try {
    const first = await source.reader.read();
    const compressed = first !== null && first.length >= 2 && first[0] === 0x1f && first[1] === 0x8b;
    if (first !== null) source.reader.unread(first);
    if (compressed && !s.gzip && !source.fromFile)
      throw new FatalTarError('Archive is compressed. Use -z option');
    if (s.gzip || compressed) {
      // (a bad header inside a gzip'd archive ends the read like one in a plain archive)
      try {
        await gunzipStream(source.reader, push, ctx.signal);
      } catch (error) {
        if (!(error instanceof GzipFormatError)) throw error;
        await drain();
        const gz =
          error.kind === 'not-gzip' ? `gzip: stdin: not in gzip format` : `gzip: stdin: ${error.message}`;
        await printError(ctx, `${gz}\n`);
        throw new FatalTarError('Child returned status 1');
      }
    } else {
      for (;;) {
        const chunk = await source.reader.read();
        if (chunk === null) break;
        await push(chunk);
        if (decoder.done) break;
      }
    }
    if (!decoder.done) {
      try {
        decoder.end();
      } catch (error) {
        if (!(error instanceof ProtocolError)) throw error;
        for (const e of extractors.values()) await e.abandon();
        // GNU says it twice when extracting.
        if (extractor !== undefined) await printError(ctx, 'tar: Unexpected EOF in archive\n');
        throw new FatalTarError('Unexpected EOF in archive');
      }
      if (!sawMember && first === null) {
        // An empty input: GNU lists nothing and fails.
        await tar.error('This does not look like a tar archive');
      }
    }
    for (const e of extractors.values()) await e.finish();
  } catch (error) {
    if (!(error instanceof BadHeader)) throw error;
    for (const e of extractors.values()) await e.finish();
  } finally {
    await source.close();
  }
  for (let i = 0; i < operands.length; i += 1) {
    if (!found[i]) await tar.error(`${operands[i]}: Not found in archive`);
  }
}

async function listEntry(tar: Tar, entry: TarEntry): Promise<void> {
  const { ctx, s } = tar;
  if (s.toStdout) return;
  const name = entry.name;
  const text = s.verbose > 0 ? tar.longLine(entry) : `${tar.quote(name)}\n`;
  await ctx.stdout.write(encodeText(text));
}

/** Writes members into the target directory (see the module comment for containment). */
class Extractor {
  private current:
    | {
        path: string;
        handle: Awaited<ReturnType<CommandContext['fs']['open']>>;
        entry: TarEntry;
        name: string;
        failed: boolean;
      }
    | undefined;
  private readonly dirs: { path: string; mode: number; mtimeMs: number }[] = [];
  private readonly placeholders: { path: string; target: string; mode: number; mtimeMs: number }[] = [];
  private readonly preserve: boolean;

  /** `root` is the member names' directory (the `-C` in effect, already checked). */
  constructor(
    private readonly tar: Tar,
    private readonly root: string,
  ) {
    const s = tar.s;
    this.preserve = s.preservePermissions ?? identityOf(tar.ctx).uid === 0;
  }

  private pathOf(name: string): string {
    return this.root === '/' ? `/${name}` : `${this.root}/${name}`;
  }

  /** The member's name made safe (or undefined to skip it, after saying why). */
  private async safeName(raw: string, what: 'member' | 'link'): Promise<string | undefined> {
    const { tar } = this;
    let name = raw;
    const stripped = name.replace(/^\/+/, '');
    if (stripped !== name) {
      if (what === 'member') await tar.warnOnce('/');
      name = stripped;
    }
    const parts = name.split('/');
    let dots = 0;
    while (parts[dots] === '..') dots += 1;
    if (dots > 0 && what === 'member') await tar.warnOnce('../'.repeat(dots));
    if (parts.includes('..')) {
      await tar.error(`${this.tar.quote(raw)}: Member name contains '..'`);
      return undefined;
    }
    return name;
  }

  private strip(name: string): string | undefined {
    const n = this.tar.s.stripComponents;
    if (n === 0) return name;
    const parts = name.split('/');
    // A trailing slash makes an empty last part; it does not count as a component.
    const real = parts[parts.length - 1] === '' ? parts.length - 1 : parts.length;
    if (real <= n) return undefined;
    return parts.slice(n).join('/');
  }

  async begin(entry: TarEntry): Promise<void> {
    await this.closeCurrent();
    const { ctx, s } = this.tar;
    const safe = await this.safeName(entry.name, 'member');
    if (safe === undefined) {
      this.skipData();
      return;
    }
    const name = this.strip(safe);
    if (name === undefined || name === '' || name === '.' || name === './') {
      this.skipData();
      return;
    }
    if (s.verbose > 0 && !s.toStdout) {
      const text =
        s.verbose > 1 ? this.tar.longLine(entry) : `${this.tar.quote(entry.name.replace(/^\/+/, ''))}\n`;
      await ctx.stdout.write(encodeText(text));
    } else if (s.verbose > 0 && s.toStdout) {
      await ctx.stderr.write(encodeText(`${this.tar.quote(entry.name)}\n`));
    }
    if (s.toStdout) {
      this.current = undefined;
      this.streamToStdout = entry.type === 'file' || entry.type === 'other';
      return;
    }
    const path = this.pathOf(name.replace(/\/+$/, ''));
    const mode = this.preserve ? entry.mode & 0o7777 : entry.mode & 0o777 & ~DEFAULT_UMASK;
    try {
      await this.makeParents(path);
      if (entry.type === 'directory') {
        await this.ensureDirectory(path);
        this.dirs.push({ path, mode, mtimeMs: entry.mtimeMs });
        return;
      }
      if (!(await this.clear(path, name))) {
        this.skipData();
        return;
      }
      if (entry.type === 'symlink') {
        const target = entry.linkName;
        if (target.startsWith('/') || target.split('/').includes('..')) {
          await ctx.fs.writeFile(path, new Uint8Array(0), { mode: 'create-new', fileMode: 0 });
          this.placeholders.push({ path, target, mode, mtimeMs: entry.mtimeMs });
        } else {
          await ctx.fs.symlink(target, path);
        }
        return;
      }
      if (entry.type === 'hardlink') {
        const target = await this.safeName(entry.linkName, 'link');
        const strippedTarget = target === undefined ? undefined : this.strip(target);
        if (strippedTarget === undefined) {
          this.skipData();
          return;
        }
        try {
          await ctx.fs.link(this.pathOf(strippedTarget), path);
        } catch (error) {
          if (!isVfsError(error)) throw error;
          await this.tar.error(
            `${this.tar.quote(name)}: Cannot hard link to ‘${this.tar.quote(strippedTarget)}’: ${describeVfsCode(error.code)}`,
          );
        }
        this.skipData();
        return;
      }
      if (entry.type !== 'file' && entry.type !== 'other') {
        await this.tar.error(`${this.tar.quote(name)}: Cannot mknod: Operation not permitted`);
        this.skipData();
        return;
      }
      const handle = await ctx.fs.open(path, { write: true, create: true, truncate: true, mode: 0o600 });
      this.current = { path, handle, entry: { ...entry, mode }, name, failed: false };
    } catch (error) {
      if (!isVfsError(error)) throw error;
      await this.tar.error(`${this.tar.quote(name)}: Cannot open: ${describeVfsCode(error.code)}`);
      this.skipData();
    }
  }

  private streamToStdout = false;

  private skipData(): void {
    this.current = undefined;
    this.streamToStdout = false;
  }

  async data(data: Uint8Array): Promise<void> {
    if (this.tar.s.toStdout) {
      if (this.streamToStdout) await this.tar.ctx.stdout.write(data);
      return;
    }
    const current = this.current;
    if (current === undefined || current.failed) return;
    try {
      await current.handle.write(data);
    } catch (error) {
      if (!isVfsError(error)) throw error;
      current.failed = true;
      await this.tar.error(`${this.tar.quote(current.name)}: Cannot write: ${describeVfsCode(error.code)}`);
    }
    const c = this.tar.ctx.cooperate();
    if (c !== undefined) await c;
  }

  /** Finish the member being written (its data is complete). */
  async closeCurrent(): Promise<void> {
    this.streamToStdout = false;
    const current = this.current;
    this.current = undefined;
    if (current === undefined) return;
    const { ctx, s } = this.tar;
    await current.handle.close();
    if (current.failed) return;
    await ctx.fs.chmod(current.path, current.entry.mode);
    if (!s.touch) await ctx.fs.utimes(current.path, current.entry.mtimeMs, current.entry.mtimeMs);
  }

  /** Make the missing directories above `path` (as GNU does for members without their own). */
  private async makeParents(path: string): Promise<void> {
    const parent = path.slice(0, path.lastIndexOf('/'));
    if (parent === '' || parent === this.root) return;
    try {
      await this.tar.ctx.fs.mkdir(parent, { recursive: true, mode: 0o777 & ~DEFAULT_UMASK });
    } catch (error) {
      // Something not a directory is in the way (a placeholder for a delayed link, a file).
      if (isVfsError(error, 'EEXIST')) throw new VfsError('ENOTDIR', 'mkdir', parent);
      throw error;
    }
  }

  private async ensureDirectory(path: string): Promise<void> {
    const { fs } = this.tar.ctx;
    try {
      const st = await fs.lstat(path);
      if (st.type === 'directory') return;
      await fs.remove(path);
    } catch (error) {
      if (!isVfsError(error, 'ENOENT')) throw error;
    }
    await fs.mkdir(path, { mode: 0o700 });
  }

  /** Remove what is in the way (GNU unlinks before extracting); false when `-k` keeps it. */
  private async clear(path: string, name: string): Promise<boolean> {
    const { ctx, s } = this.tar;
    let st: VfsStat;
    try {
      st = await ctx.fs.lstat(path);
    } catch (error) {
      if (isVfsError(error, 'ENOENT')) return true;
      throw error;
    }
    if (s.skipOldFiles) return false;
    if (s.keepOldFiles) {
      await this.tar.error(`${this.tar.quote(name)}: Cannot open: File exists`);
      return false;
    }
    if (st.type === 'directory') {
      await ctx.fs.remove(path);
      return true;
    }
    await ctx.fs.remove(path);
    return true;
  }

  /** The archive ended early: close what is open (its partial content stays, as GNU leaves it). */
  async abandon(): Promise<void> {
    const current = this.current;
    this.current = undefined;
    if (current !== undefined) await current.handle.close();
  }

  /** Placeholders become their links; directories get their modes and times, deepest first. */
  async finish(): Promise<void> {
    await this.closeCurrent();
    const { ctx, s } = this.tar;
    for (const p of this.placeholders) {
      try {
        const st = await ctx.fs.lstat(p.path);
        // Only a placeholder still in place (empty, ours) is replaced.
        if (st.type !== 'file' || st.size !== 0) continue;
        await ctx.fs.remove(p.path);
        await ctx.fs.symlink(p.target, p.path);
      } catch (error) {
        if (!isVfsError(error)) throw error;
        await this.tar.error(
          `${this.tar.quote(p.path)}: Cannot create symlink to ‘${this.tar.quote(p.target)}’: ${describeVfsCode(error.code)}`,
        );
      }
    }
    const dirs = [...this.dirs].sort((a, b) => b.path.length - a.path.length);
    for (const d of dirs) {
      try {
        await ctx.fs.chmod(d.path, d.mode);
        if (!s.touch) await ctx.fs.utimes(d.path, d.mtimeMs, d.mtimeMs);
      } catch (error) {
        if (!isVfsError(error)) throw error;
      }
    }
  }
}

async function tarEntry(ctx: CommandContext): Promise<number> {
  try {
    return await tarMain(ctx);
  } catch (error) {
    if (error instanceof ExitStatus) return error.status;
    throw error;
  }
}

export const tarCommand: CommandSpec = {
  name: 'tar',
  summary: 'an archiving utility',
  help: ARCHIVE_HELP.tar as string,
  run: tarEntry,
};
