/**
 * The POSIX sh scripts berth runs inside a remote sandbox. They keep a command's output in files
 * inside the sandbox and send berth only what the output policy keeps (head and tail, base64, so
 * bytes survive the SDKs' string callbacks), which bounds what the SDK buffers in host memory.
 * Every line berth parses starts with a per-call random nonce, so nothing a command prints can be
 * mistaken for it, and noise from the provider's login shell is ignored.
 *
 * Tools used: sh, setsid (optional: without it the tag alone finds the tree), base64, head, tail,
 * wc, mkfifo, stat, find, awk, stty, and stdbuf where present (coreutils); all in coreutils, util-linux and busybox.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { shQuote } from '../../subprocess/shell-quote.js';

export { shQuote };

/** The command line that runs `script` with positional arguments under `/bin/sh`. */
export function shLine(script: string, name: string, args: readonly string[]): string {
  return `exec /bin/sh -c ${shQuote(script)} ${shQuote(name)} ${args.map(shQuote).join(' ')}`.trimEnd();
}

/** An argv as one command line (each word quoted). */
export function argvLine(argv: readonly string[]): string {
  return argv.map(shQuote).join(' ');
}

/** A fresh random marker for one call's control lines. */
export function newNonce(): string {
  return `berth-${randomBytes(9).toString('hex')}`;
}

/**
 * Spawn setup. $1 state dir, $2 cwd ('' = the user's home), $3 nonce. Prints the cwd (base64) and
 * the names of the sandbox's environment (for the credential scrub).
 */
export const SETUP_SCRIPT = `d=$1; cwd=$2; n=$3
mkdir -p "$d" && chmod 700 "$d" || { printf '%s fail state\\n' "$n"; exit 0; }
if [ -n "$cwd" ]; then
  mkdir -p -- "$cwd" 2>/dev/null; cd -- "$cwd" 2>/dev/null || { printf '%s fail cwd\\n' "$n"; exit 0; }
else
  cd -- "\${HOME:-/}" 2>/dev/null || cd /
fi
printf '%s cwd ' "$n"; pwd | base64 | tr -d '\\n'; echo
printf '%s env' "$n"; awk 'BEGIN { for (k in ENVIRON) printf " %s", k }'; echo
printf '%s end\\n' "$n"`;

/**
 * One buffered command. $1 state dir, $2 call id, $3 cwd, $4 stdin file ('' = none), $5 maxOutputBytes,
 * $6 head bytes, $7 maxSpillBytes, $8 live bytes per stream (0 = no live feed), $9 nonce,
 * $10 tag, $11 the command. The command's stdout and stderr go to files in the state dir; a
 * follower (only when live) sends new bytes as base64 lines while it runs; at its exit the report
 * holds the status, each stream's size and its bytes (whole, or head and tail), and the file stays
 * as the spill when it is truncated and within maxSpillBytes.
 */
export const EXEC_SCRIPT = `d=$1; id=$2; cwd=$3; in=$4; max=$5; hb=$6; spill=$7; live=$8; n=$9; tag=\${10}; cmd=\${11}
o="$d/$id.out"; e="$d/$id.err"
cd -- "$cwd" 2>/dev/null || { printf '\\n%s fail cwd\\n' "$n"; exit 0; }
{ : > "$o" && : > "$e"; } 2>/dev/null || { printf '\\n%s fail state\\n' "$n"; exit 0; }
S=; command -v setsid >/dev/null 2>&1 && S=setsid
BERTH_EXEC=$tag $S /bin/sh -c "$cmd" <"\${in:-/dev/null}" >"$o" 2>"$e" &
c=$!
f=
if [ "$live" -gt 0 ]; then
  (
    oo=0; eo=0
    while :; do
      kill -0 "$c" 2>/dev/null; a=$?
      for s in o e; do
        if [ "$s" = o ]; then p=$o; off=$oo; else p=$e; off=$eo; fi
        z=$(($(wc -c < "$p" 2>/dev/null || echo 0)))
        [ "$z" -gt "$live" ] && z=$live
        if [ "$z" -gt "$off" ]; then
          printf '%s live-%s ' "$n" "$s"
          tail -c +$((off + 1)) "$p" | head -c $((z - off)) | base64 | tr -d '\\n'
          echo
          if [ "$s" = o ]; then oo=$z; else eo=$z; fi
        fi
      done
      [ "$a" -ne 0 ] && break
      sleep 0.05
    done
  ) &
  f=$!
fi
wait "$c"; st=$?
[ -n "$f" ] && wait "$f"
printf '\\n%s status %s\\n' "$n" "$st"
for s in o e; do
  if [ "$s" = o ]; then p=$o; else p=$e; fi
  z=$(($(wc -c < "$p" 2>/dev/null || echo 0)))
  printf '%s size-%s %s\\n' "$n" "$s" "$z"
  if [ "$z" -le "$max" ]; then
    printf '%s all-%s\\n' "$n" "$s"; base64 < "$p"
  else
    printf '%s head-%s\\n' "$n" "$s"; head -c "$hb" "$p" | base64
    printf '%s tail-%s\\n' "$n" "$s"; tail -c $((max - hb)) "$p" | base64
  fi
  if [ "$z" -le "$max" ] || [ "$z" -gt "$spill" ]; then rm -f -- "$p"; fi
done
[ -n "$in" ] && rm -f -- "$in"
printf '%s end\\n' "$n"`;

/** Makes a background task's stdin FIFO: $1 its path, $2 nonce. Prints "<nonce> ok". */
export const STDIN_FIFO_SCRIPT = `rm -f -- "$1" && mkfifo -m 600 "$1" && printf '%s ok\\n' "$2"`;

/**
 * One background task, supervised from inside the sandbox. $1 state dir, $2 task id, $3 cwd,
 * $4 maxLogBytes, $5 nonce, $6 tag, $7 the command, $8 the cap marker, $9 the closing note's printf
 * format, $10 the task's stdin (`/dev/null`, or a FIFO that berth's stdin writer feeds; the task
 * blocks opening it until the writer has). stdout and stderr go, merged in order, through
 * a cap that keeps the first maxLogBytes in the log (written as it comes) and counts the rest; the supervisor prints the
 * task's pid, the log's size whenever it grows, and at the end the exit status and the overflow.
 */
export const BACKGROUND_SCRIPT = `d=$1; id=$2; cwd=$3; max=$4; n=$5; tag=$6; cmd=$7; mark=$8; note=$9; in=\${10}
log="$d/$id.log"; st="$d/$id.status"; ov="$d/$id.over"; pf="$d/$id.pid"
cd -- "$cwd" 2>/dev/null || { printf '%s fail cwd\\n' "$n"; exit 0; }
{ : > "$log"; } 2>/dev/null || { printf '%s fail state\\n' "$n"; exit 0; }
S=; command -v setsid >/dev/null 2>&1 && S=setsid
# GNU head holds small output in its stdio buffer until it exits; stdbuf makes it write each read.
if command -v stdbuf >/dev/null 2>&1; then
  cap() { stdbuf -o0 head -c "$max" >> "$log"; }
else
  cap() { head -c "$max" >> "$log"; }
fi
(
  BERTH_EXEC=$tag $S /bin/sh -c 'echo $$ > "$1"; exec /bin/sh -c "$2"' berth-task "$pf" "$cmd" <"$in" 2>&1
  echo $? > "$st"
) | {
  cap
  # One byte past the cap (dd reads exactly one): the marker goes in when the cap is reached.
  c=$(dd bs=1 count=1 2>/dev/null | wc -c)
  [ "$c" -gt 0 ] && printf '%s' "$mark" >> "$log"
  t=$((c + $(wc -c)))
  [ "$t" -gt 0 ] && printf "$note" "$t" >> "$log"
  echo "$t" > "$ov"
} &
i=0; while [ ! -s "$pf" ] && [ ! -e "$st" ] && [ "$i" -lt 200 ]; do sleep 0.02; i=$((i + 1)); done
printf '%s pid %s\\n' "$n" "$(cat "$pf" 2>/dev/null || echo 0)"
last=-1
while :; do
  z=$(($(wc -c < "$log" 2>/dev/null || echo 0)))
  [ "$z" != "$last" ] && { printf '%s size %s\\n' "$n" "$z"; last=$z; }
  [ -e "$st" ] && break
  sleep 0.1
done
i=0; while [ ! -s "$ov" ] && [ "$i" -lt 40 ]; do sleep 0.05; i=$((i + 1)); done
printf '%s size %s\\n' "$n" "$(($(wc -c < "$log" 2>/dev/null || echo 0)))"
printf '%s exit %s %s\\n' "$n" "$(cat "$st" 2>/dev/null || echo x)" "$(($(cat "$ov" 2>/dev/null || echo 0)))"`;

/**
 * Stream setup. $1 state dir, $2 stream id, $3 the stream's script (written to a file so the line
 * typed into the PTY stays short), $4 cwd, $5 nonce. Makes the stdin and stderr FIFOs.
 */
export const STREAM_SETUP_SCRIPT = `d=$1; id=$2; n=$5
cd -- "$4" 2>/dev/null || { printf '%s fail cwd\\n' "$n"; exit 0; }
rm -f -- "$d/$id.in" "$d/$id.err" && mkfifo -m 600 "$d/$id.in" "$d/$id.err" && printf '%s' "$3" > "$d/$id.sh" || { printf '%s fail state\\n' "$n"; exit 0; }
printf '%s ok\\n' "$n"`;

/**
 * What the PTY runs for a stream: raw mode without echo before the first byte, a marker line (so
 * berth drops the shell's prompt and echo before it), then the command with stdin from one FIFO
 * and stderr to the other. Arguments are baked in: $1-style words would be the PTY shell's.
 */
export function streamRunScript(spec: {
  readonly cwd: string;
  readonly nonce: string;
  readonly stdinFifo: string;
  readonly stderrFifo: string;
  readonly exports: string;
  readonly command: string;
}): string {
  return `stty raw -echo 2>/dev/null
cd -- ${shQuote(spec.cwd)} || exit 126
printf '%s\\n' ${shQuote(spec.nonce)}
${spec.exports}
exec ${spec.command} <${shQuote(spec.stdinFifo)} 2>${shQuote(spec.stderrFifo)}
`;
}

/**
 * File probe before a whole read: $1 path, $2 byte limit. Prints `<nonce> ok <size>` or a reason.
 * $3 nonce.
 */
export const READ_PROBE_SCRIPT = `p=$1; n=$3
if [ -d "$p" ]; then printf '%s isdir\\n' "$n"; exit 0; fi
if [ ! -e "$p" ]; then
  q=$(dirname -- "$p"); while [ "$q" != / ] && [ ! -e "$q" ]; do q=$(dirname -- "$q"); done
  if [ -e "$q" ] && [ ! -d "$q" ]; then printf '%s notdir\\n' "$n"; else printf '%s missing\\n' "$n"; fi
  exit 0
fi
if [ ! -r "$p" ]; then printf '%s denied\\n' "$n"; exit 0; fi
s=$(stat -L -c %s -- "$p" 2>/dev/null || wc -c < "$p")
printf '%s ok %s\\n' "$n" "$(($s))"`;

/**
 * A ranged read: $1 path, $2 offset, $3 byte count, $4 nonce, $5 the shared range script
 * (`contexts/shared/range-read.ts`). Prints `<nonce> all-range`, the bytes in base64 (the SDKs
 * hand berth text), then `<nonce> status <the range script's exit status>`.
 */
export const RANGE_REPORT_SCRIPT = `n=$4
exec 4>&1
printf '%s all-range\\n' "$n"
st=$( { { /bin/sh -c "$5" berth-range "$1" "$2" "$3" 2>/dev/null; echo $? >&3; } | base64 >&4; } 3>&1 )
printf '\\n%s status %s\\n' "$n" "$st"`;

/** Why a write failed: $1 path, $2 nonce. */
export const WRITE_PROBE_SCRIPT = `p=$1; n=$2
if [ -d "$p" ]; then printf '%s isdir\\n' "$n"; exit 0; fi
q=$(dirname -- "$p"); while [ "$q" != / ] && [ ! -e "$q" ]; do q=$(dirname -- "$q"); done
if [ -e "$q" ] && [ ! -d "$q" ]; then printf '%s notdir\\n' "$n"; exit 0; fi
if [ -e "$p" ] && [ ! -w "$p" ]; then printf '%s denied\\n' "$n"; exit 0; fi
printf '%s other\\n' "$n"`;

/** Size of a regular file (following links) by stat, else wc -c: $1 path, $2 nonce. */
export const SIZE_SCRIPT = `if [ -f "$1" ] && [ -r "$1" ]; then printf '%s size %s\\n' "$2" "$(($(stat -L -c %s -- "$1" 2>/dev/null || wc -c < "$1")))"; fi`;

/**
 * Listing: $1 directory, $2 max depth ('' = unlimited), $3 byte cap, $4 nonce. Prints a status line
 * and then "<mode hex> <size> <mtime s> <path>" records, base64 (so any name survives the SDK).
 */
export const LIST_SCRIPT = `d=$1; n=$4
if [ ! -e "$d" ] && [ ! -L "$d" ]; then printf '%s missing\\n' "$n"; exit 0; fi
if [ ! -d "$d" ]; then printf '%s notdir\\n' "$n"; exit 0; fi
printf '%s list\\n' "$n"
if [ -n "$2" ]; then
  find "$d" -mindepth 1 -maxdepth "$2" -exec stat -c '%f %s %Y %n' {} + 2>/dev/null
else
  find "$d" -mindepth 1 -exec stat -c '%f %s %Y %n' {} + 2>/dev/null
fi | head -c "$3" | base64
printf '%s end\\n' "$n"`;
