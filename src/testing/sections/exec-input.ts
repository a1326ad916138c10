/**
 * What `exec` feeds a command: stdin (text, bytes, none, more than a pipe holds), the working
 * directory, and environment layers. Every command is POSIX sh with busybox-compatible tools.
 * @module
 */
import { expect } from 'vitest';
import { shQuote } from '../../subprocess/shell-quote.js';
import { allByteValues, firstDifference, printfBytesCommand } from '../byte-patterns.js';
import type { ConformanceSection } from '../case.js';
import { expectBerthError } from '../expect-error.js';
import { SOON_MS } from '../wait-until.js';

const _utf8 = new TextEncoder();

/** Awkward env value: spaces, quotes, `$`, backslash, newline, multibyte. */
const AWKWARD_VALUE = `a b "c" 'd' $HOME \\n \u00e9\u20ac\ud834\udd1e\nsecond line`;

export const execInputSection: ConformanceSection = {
  name: 'exec input',
  cases: [
    {
      id: 'exec/stdin-text',
      title: 'the stdin option feeds the command and is then closed',
      needs: ['shell'],
      run: async ({ fx }) => {
        const text = 'hello\nw\u00f6rld \u20ac\nno newline at end';
        const result = await fx.exec('cat; echo "<eof>"', { stdin: text });
        expect(result.stdout).toBe(`${text}<eof>\n`);
      },
    },
    {
      id: 'exec/stdin-bytes',
      title: 'binary stdin (all 256 byte values) arrives byte-exact',
      needs: ['shell'],
      run: async ({ fx, context, handle, dir }) => {
        const bytes = allByteValues();
        const file = `${dir}/stdin.bin`;
        const result = await fx.exec(`cat > ${shQuote(file)}; wc -c < ${shQuote(file)}`, { stdin: bytes });
        expect(result.exitCode).toBe(0);
        expect(result.stdout.trim()).toBe('256');
        // Compare with the same bytes made inside the context by printf (cmp is POSIX and busybox).
        const reference = `${dir}/reference.bin`;
        const check = await fx.exec(
          `${printfBytesCommand(bytes)} > ${shQuote(reference)}; cmp ${shQuote(reference)} ${shQuote(file)} && echo same`,
        );
        expect(check.stdout + check.stderr).toBe('same\n');
        if (context.readFileBytes && context.capabilities.filesystem) {
          const back = await context.readFileBytes(handle, file);
          expect(firstDifference(back, bytes), 'first differing byte').toBe(-1);
        }
      },
    },
    {
      id: 'exec/stdin-default-empty',
      title: 'without the stdin option the command reads end-of-file at once (never hangs on input)',
      needs: ['shell'],
      run: async ({ fx }) => {
        const result = await fx.exec('cat; if read line; then echo "read: $line"; else echo eof; fi', {
          timeoutMs: SOON_MS,
        });
        expect(result.timedOut, 'a command reading stdin waited for input that never comes').toBe(false);
        expect(result.stdout).toBe('eof\n');
      },
    },
    {
      id: 'exec/stdin-large-unread',
      title: '1 MiB of stdin is delivered in full, and a command that never reads it still completes',
      needs: ['shell'],
      run: async ({ fx }) => {
        const big = new Uint8Array(1024 * 1024).fill(0x61);
        const counted = await fx.exec('wc -c', { stdin: big, timeoutMs: SOON_MS });
        expect(counted.stdout.trim()).toBe(String(big.length));
        const ignored = await fx.exec('echo ignored', { stdin: big, timeoutMs: SOON_MS });
        expect(ignored.timedOut).toBe(false);
        expect(ignored.exitCode).toBe(0);
        expect(ignored.stdout).toBe('ignored\n');
      },
    },
    {
      id: 'exec/cwd-default',
      title: "commands run in the handle's cwd by default",
      needs: ['shell'],
      run: async ({ fx, handle }) => {
        const physical = (await fx.sh(`cd ${shQuote(handle.cwd)} && pwd -P`)).trim();
        const result = await fx.exec('pwd -P');
        expect(result.stdout.trim()).toBe(physical);
      },
    },
    {
      id: 'exec/cwd-option',
      title: 'the cwd option sets the working directory for one command',
      needs: ['shell'],
      run: async ({ fx, dir }) => {
        const sub = `${dir}/sub dir`;
        await fx.sh(`mkdir -p ${shQuote(sub)}`);
        const physical = (await fx.sh(`cd ${shQuote(sub)} && pwd -P`)).trim();
        const result = await fx.exec('pwd -P', { cwd: sub });
        expect(result.stdout.trim()).toBe(physical);
        const after = await fx.exec('pwd -P');
        expect(after.stdout.trim(), 'the cwd option leaked into later commands').not.toBe(physical);
      },
    },
    {
      id: 'exec/cwd-missing',
      title: 'a cwd that does not exist is a typed error naming the path, not a result',
      needs: ['shell'],
      run: async ({ fx, dir }) => {
        const missing = `${dir}/does-not-exist`;
        const error = await expectBerthError(
          fx.exec('echo ran', { cwd: missing }),
          ['E_SPAWN', 'E_NOT_FOUND'],
          'exec with a missing cwd',
        );
        expect(error.message).toContain(missing);
      },
    },
    {
      id: 'exec/env-option',
      title: 'the env option passes values byte-exact (spaces, quotes, $, newlines, multibyte)',
      needs: ['shell'],
      run: async ({ fx }) => {
        const result = await fx.exec('printf "%s" "$CONFORMANCE_AWKWARD"', {
          env: { CONFORMANCE_AWKWARD: AWKWARD_VALUE },
        });
        expect(result.stdout).toBe(AWKWARD_VALUE);
      },
    },
    {
      id: 'exec/env-layers',
      title: 'handle env applies to every command; exec env overrides it; undefined removes it',
      needs: ['shell'],
      run: async ({ fx }) => {
        const handle = await fx.spawn({ env: { CONFORMANCE_LAYER: 'handle' } });
        // biome-ignore lint/suspicious/noTemplateCurlyInString: shell parameter expansion
        const show = 'printf "%s" "${CONFORMANCE_LAYER-unset}"';
        expect((await fx.exec(show, undefined, handle)).stdout).toBe('handle');
        expect((await fx.exec(show, { env: { CONFORMANCE_LAYER: 'call' } }, handle)).stdout).toBe('call');
        expect((await fx.exec(show, { env: { CONFORMANCE_LAYER: undefined } }, handle)).stdout).toBe('unset');
        expect((await fx.exec(show, undefined, handle)).stdout, 'a per-call env leaked into the handle').toBe(
          'handle',
        );
        expect((await fx.exec(show)).stdout, "one handle's env leaked into another").toBe('unset');
      },
    },
    {
      id: 'exec/credentials-scrubbed',
      title:
        "credential-shaped names in the host's environment never reach a command unless passed explicitly",
      needs: ['shell'],
      run: async ({ fx }) => {
        const marker = fx.unique('credential');
        const names = [
          'CONFORMANCE_PROBE_TOKEN',
          'CONFORMANCE_PROBE_SECRET',
          'CONFORMANCE_PROBE_PASSWORD',
          'CONFORMANCE_PROBE_API_KEY',
        ];
        const saved = names.map((name) => [name, process.env[name]] as const);
        for (const name of names) process.env[name] = marker;
        try {
          const inherited = await fx.exec('env');
          expect(inherited.exitCode).toBe(0);
          expect(inherited.stdout, 'a credential-shaped host variable leaked into the command').not.toContain(
            marker,
          );
          const explicit = await fx.exec('printf "%s" "$CONFORMANCE_PROBE_TOKEN"', {
            env: { CONFORMANCE_PROBE_TOKEN: marker },
          });
          expect(explicit.stdout, 'an explicitly passed credential is delivered').toBe(marker);
        } finally {
          for (const [name, value] of saved) {
            if (value === undefined) delete process.env[name];
            else process.env[name] = value;
          }
        }
      },
    },
  ],
};
