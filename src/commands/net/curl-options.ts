/**
 * curl's command line as curl 7.88 parses it (not GNU getopt): short options cluster and take
 * the rest of the cluster or the next word as their argument (`-XPOST`, `-o out`), long options
 * take the next word (`--data x`, never `--data=x`), may be abbreviated to a unique prefix, and
 * boolean ones negate with `--no-`. Everything else is a URL. Errors are curl's words.
 * @module
 */

/** One option of the table. */
interface CurlOptionDef {
  readonly long: string;
  readonly short?: string;
  readonly takesArg: boolean;
  /** Known to curl but not done here: refused with this reason. */
  readonly unsupported?: string;
}

const OPTIONS: readonly CurlOptionDef[] = [
  { long: 'silent', short: 's', takesArg: false },
  { long: 'show-error', short: 'S', takesArg: false },
  { long: 'fail', short: 'f', takesArg: false },
  { long: 'fail-with-body', takesArg: false },
  { long: 'location', short: 'L', takesArg: false },
  { long: 'remote-name', short: 'O', takesArg: false },
  { long: 'include', short: 'i', takesArg: false },
  { long: 'head', short: 'I', takesArg: false },
  { long: 'verbose', short: 'v', takesArg: false },
  { long: 'get', short: 'G', takesArg: false },
  { long: 'compressed', takesArg: false },
  { long: 'globoff', short: 'g', takesArg: false },
  { long: 'no-buffer', short: 'N', takesArg: false },
  { long: 'progress-bar', short: '#', takesArg: false },
  { long: 'no-progress-meter', takesArg: false },
  { long: 'http1.1', takesArg: false },
  { long: 'create-dirs', takesArg: false },
  { long: 'disable', short: 'q', takesArg: false },
  { long: 'output', short: 'o', takesArg: true },
  { long: 'request', short: 'X', takesArg: true },
  { long: 'header', short: 'H', takesArg: true },
  { long: 'data', short: 'd', takesArg: true },
  { long: 'data-ascii', takesArg: true },
  { long: 'data-binary', takesArg: true },
  { long: 'data-raw', takesArg: true },
  { long: 'data-urlencode', takesArg: true },
  { long: 'json', takesArg: true },
  { long: 'upload-file', short: 'T', takesArg: true },
  { long: 'write-out', short: 'w', takesArg: true },
  { long: 'max-time', short: 'm', takesArg: true },
  { long: 'connect-timeout', takesArg: true },
  { long: 'max-filesize', takesArg: true },
  { long: 'max-redirs', takesArg: true },
  { long: 'user', short: 'u', takesArg: true },
  { long: 'user-agent', short: 'A', takesArg: true },
  { long: 'referer', short: 'e', takesArg: true },
  { long: 'cookie', short: 'b', takesArg: true },
  { long: 'dump-header', short: 'D', takesArg: true },
  { long: 'url', takesArg: true },
  { long: 'help', short: 'h', takesArg: false },
  { long: 'version', short: 'V', takesArg: false },
  {
    long: 'insecure',
    short: 'k',
    takesArg: false,
    unsupported:
      "berth's curl always verifies TLS certificates (fetch has no per-request switch); use an http:// URL for a local server without a trusted certificate",
  },
  {
    long: 'proxy',
    short: 'x',
    takesArg: true,
    unsupported: 'requests go straight to the allowlisted hosts; there is no proxy',
  },
  {
    long: 'resolve',
    takesArg: true,
    unsupported: 'host names are resolved by the host; the allowlist names hosts, not addresses',
  },
  { long: 'connect-to', takesArg: true, unsupported: 'the allowlist names the hosts a request goes to' },
  {
    long: 'form',
    short: 'F',
    takesArg: true,
    unsupported: 'multipart forms are not built; send a body with --data-binary and -H "Content-Type: ..."',
  },
  { long: 'cacert', takesArg: true, unsupported: "certificates are checked against the host's trust store" },
  { long: 'cert', short: 'E', takesArg: true, unsupported: 'client certificates are not supported' },
  { long: 'unix-socket', takesArg: true, unsupported: 'only http and https URLs reach the network' },
  {
    long: 'cookie-jar',
    short: 'c',
    takesArg: true,
    unsupported: 'cookies are not stored; send one with -b "name=value"',
  },
  { long: 'continue-at', short: 'C', takesArg: true, unsupported: 'resumed transfers are not supported' },
  { long: 'range', short: 'r', takesArg: true, unsupported: 'send -H "Range: bytes=..." instead' },
  { long: 'retry', takesArg: true, unsupported: 'retries are not supported; loop in the script' },
  { long: 'parallel', short: 'Z', takesArg: false, unsupported: 'transfers run one after another' },
  { long: 'config', short: 'K', takesArg: true, unsupported: 'config files are not read' },
  { long: 'http2', takesArg: false, unsupported: 'fetch speaks HTTP/1.1 here' },
];

/** Boolean options that `--no-NAME` turns off. */
const NEGATABLE = new Set(
  OPTIONS.filter((o) => !o.takesArg && o.unsupported === undefined).map((o) => o.long),
);

export interface CurlOption {
  readonly key: string;
  readonly value: string | undefined;
  /** `false` for `--no-NAME`. */
  readonly on: boolean;
  /** As written (`-m`, `--max-time`), for messages. */
  readonly spelled: string;
}

export type CurlCommandLine =
  | { readonly ok: true; readonly options: readonly CurlOption[]; readonly urls: readonly string[] }
  | { readonly ok: false; readonly message: string };

/** Parse `args` (argv without argv[0]). */
export function parseCurlArgs(args: readonly string[]): CurlCommandLine {
  const options: CurlOption[] = [];
  const urls: string[] = [];
  let i = 0;
  const take = (): string | undefined => {
    if (i >= args.length) return undefined;
    const value = args[i] as string;
    i += 1;
    return value;
  };
  while (i < args.length) {
    const arg = take() as string;
    if (arg === '--') {
      urls.push(...args.slice(i));
      break;
    }
    if (arg.startsWith('--')) {
      const found = findLong(arg.slice(2));
      if (found === 'ambiguous') return { ok: false, message: `option ${arg}: is ambiguous` };
      if (found === undefined) return { ok: false, message: `option ${arg}: is unknown` };
      const { def, on } = found;
      if (def.unsupported !== undefined) return unsupported(`--${def.long}`, def.unsupported);
      if (def.takesArg) {
        const value = take();
        if (value === undefined) return { ok: false, message: `option ${arg}: requires parameter` };
        options.push({ key: def.long, value, on, spelled: arg });
      } else options.push({ key: def.long, value: undefined, on, spelled: arg });
      continue;
    }
    if (arg.length > 1 && arg[0] === '-') {
      for (let j = 1; j < arg.length; j += 1) {
        const ch = arg[j] as string;
        const def = OPTIONS.find((o) => o.short === ch);
        if (def === undefined) return { ok: false, message: `option -${ch}: is unknown` };
        if (def.unsupported !== undefined) return unsupported(`-${ch}`, def.unsupported);
        if (!def.takesArg) {
          options.push({ key: def.long, value: undefined, on: true, spelled: `-${ch}` });
          continue;
        }
        const rest = arg.slice(j + 1);
        const value = rest !== '' ? rest : take();
        // `curl -h` alone is help; its argument (a category) is optional in practice.
        if (value === undefined && def.long !== 'help')
          return { ok: false, message: `option -${ch}: requires parameter` };
        options.push({ key: def.long, value, on: true, spelled: `-${ch}` });
        break;
      }
      continue;
    }
    urls.push(arg);
  }
  return { ok: true, options, urls };
}

function unsupported(spelled: string, why: string): CurlCommandLine {
  return { ok: false, message: `option ${spelled}: is not supported in berth's virtual shell: ${why}` };
}

function findLong(name: string): { def: CurlOptionDef; on: boolean } | 'ambiguous' | undefined {
  const exact = OPTIONS.find((o) => o.long === name);
  if (exact !== undefined) return { def: exact, on: true };
  if (name.startsWith('no-')) {
    const base = OPTIONS.find((o) => o.long === name.slice(3));
    if (base !== undefined && NEGATABLE.has(base.long)) return { def: base, on: false };
  }
  if (name === '') return undefined;
  const prefixed = OPTIONS.filter((o) => o.long.startsWith(name));
  if (prefixed.length === 1) return { def: prefixed[0] as CurlOptionDef, on: true };
  return prefixed.length > 1 ? 'ambiguous' : undefined;
}
