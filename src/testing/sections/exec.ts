/**
 * Buffered `exec`: exit facts, stream separation, binary and multibyte text, live output,
 * argument checks and concurrency. Every command is POSIX sh with busybox-compatible tools.
 * @module
 */
import { expect } from 'vitest';
import type { OutputChunk } from '../../contract/types.js';
import { shQuote } from '../../subprocess/shell-quote.js';
import { allByteValues, printfBytesCommand } from '../byte-patterns.js';
import type { ConformanceSection } from '../case.js';
import { expectBerthError } from '../expect-error.js';
import { gateCommand, grandchildCommand, waitForFileCommand } from '../process-probe.js';
import { mustSettleWithin, SOON_MS } from '../wait-until.js';

const utf8 = new TextEncoder();

export const execSection: ConformanceSection = {
  name: 'exec',
  cases: [
    {
      id: 'exec/exit-codes',
      title: 'exit codes 0, 1, 42 and 255 are results, never exceptions',
      needs: ['shell'],
      run: async ({ fx }) => {
        for (const code of [0, 1, 42, 255]) {
          const result = await fx.exec(`exit ${code}`);
          expect(result.exitCode, `exit ${code}`).toBe(code);
          expect(result.signal, `exit ${code}: signal`).toBeNull();
          expect(result.timedOut, `exit ${code}: timedOut`).toBe(false);
          expect(result.aborted, `exit ${code}: aborted`).toBe(false);
          expect(
            Number.isFinite(result.durationMs) && result.durationMs >= 0,
            'durationMs is a finite ms count',
          ).toBe(true);
        }
      },
    },
    {
      id: 'exec/signal-exit',
      title: 'a command killed by a signal has exitCode null and names the signal',
      needs: ['shell'],
      run: async ({ fx }) => {
        const result = await fx.exec('kill -9 $$');
        expect(result.exitCode).toBeNull();
        expect(result.signal).toBe('SIGKILL');
        expect(result.timedOut).toBe(false);
        expect(result.aborted).toBe(false);
      },
    },
    {
      id: 'exec/command-not-found',
      title: 'a command that does not exist is exit 127 with a message on stderr, not an exception',
      needs: ['shell'],
      run: async ({ fx }) => {
        const result = await fx.exec('berth-conformance-no-such-command --flag');
        expect(result.exitCode).toBe(127);
        expect(result.stderr).toContain('berth-conformance-no-such-command');
      },
    },
    {
      id: 'exec/leftover-descendant',
      title:
        'a descendant left running after the shell exits (holding the output pipe) does not make exec hang',
      needs: ['shell'],
      run: async ({ fx, dir }) => {
        const pidFile = `${dir}/leftover.pid`;
        const result = await mustSettleWithin(
          'exec whose background child keeps stdout open',
          fx.exec(`${grandchildCommand(pidFile)}\n${waitForFileCommand(pidFile)}; echo started`, {
            timeoutMs: SOON_MS * 3,
          }),
          SOON_MS * 2,
        );
        const pid = await fx.readPlanted(pidFile);
        if (await fx.isAlive(pid)) await fx.sh(`kill -9 ${pid.pid}`);
        expect(result.timedOut, 'exec waited for the leftover until its timeout').toBe(false);
        expect(result.exitCode).toBe(0);
        expect(result.stdout).toBe('started\n');
      },
    },
    {
      id: 'exec/stdout-stderr-separated',
      title: 'stdout and stderr are captured separately, each in its own order',
      needs: ['shell'],
      run: async ({ fx }) => {
        const simple = await fx.exec('echo out; echo err >&2');
        expect(simple.stdout).toBe('out\n');
        expect(simple.stderr).toBe('err\n');
        const interleaved = await fx.exec(
          'i=0; while [ $i -lt 200 ]; do echo "o$i"; echo "e$i" >&2; i=$((i+1)); done',
        );
        const expectLines = (prefix: string) =>
          Array.from({ length: 200 }, (_, i) => `${prefix}${i}\n`).join('');
        expect(interleaved.stdout).toBe(expectLines('o'));
        expect(interleaved.stderr).toBe(expectLines('e'));
        expect(interleaved.stdoutFacts.bytesTotal).toBe(utf8.encode(expectLines('o')).length);
        expect(interleaved.stderrFacts.bytesTotal).toBe(utf8.encode(expectLines('e')).length);
      },
    },
    {
      id: 'exec/empty-output',
      title: 'no output gives empty strings and zeroed facts',
      needs: ['shell'],
      run: async ({ fx }) => {
        const result = await fx.exec('true');
        expect(result.exitCode).toBe(0);
        expect(result.stdout).toBe('');
        expect(result.stderr).toBe('');
        for (const facts of [result.stdoutFacts, result.stderrFacts]) {
          expect(facts).toEqual({ bytesTotal: 0, truncated: false, omittedBytes: 0, spillPath: null });
        }
      },
    },
    {
      id: 'exec/binary-output',
      title: 'all 256 byte values on stdout: bytesTotal is exact and the text is their UTF-8 decoding',
      needs: ['shell'],
      run: async ({ fx }) => {
        const bytes = allByteValues();
        const result = await fx.exec(printfBytesCommand(bytes));
        expect(result.exitCode).toBe(0);
        expect(result.stdoutFacts.bytesTotal).toBe(256);
        expect(result.stdoutFacts.truncated).toBe(false);
        expect(result.stdout).toBe(new TextDecoder().decode(bytes));
        // The NUL and every other ASCII byte survive in place.
        expect(result.stdout.slice(0, 128)).toBe(String.fromCharCode(...bytes.slice(0, 128)));
      },
    },
    {
      id: 'exec/utf8-output',
      title: 'multibyte UTF-8 (2, 3 and 4 byte code points) comes back exact',
      needs: ['shell'],
      run: async ({ fx }) => {
        const text = 'caf\u00e9 \u20ac \u65e5\u672c\u8a9e \ud834\udd1e \ud83d\ude00\n';
        const result = await fx.exec(`printf '%s' ${shQuote(text)}; printf '%s' ${shQuote(text)} >&2`);
        expect(result.stdout).toBe(text);
        expect(result.stderr).toBe(text);
        expect(result.stdoutFacts.bytesTotal).toBe(utf8.encode(text).length);
      },
    },
    {
      id: 'exec/utf8-split-writes',
      title: 'a code point written in two separate writes is decoded whole, in the result and in onOutput',
      needs: ['shell'],
      run: async ({ fx }) => {
        const chunks: OutputChunk[] = [];
        // U+1F600 is F0 9F 98 80; the pause makes the two halves separate reads on any transport.
        const result = await fx.exec("printf '\\360\\237'; sleep 0.3; printf '\\230\\200'", {
          onOutput: (chunk) => chunks.push(chunk),
        });
        expect(result.stdout).toBe('\ud83d\ude00');
        expect(result.stdoutFacts.bytesTotal).toBe(4);
        for (const chunk of chunks)
          expect(chunk.text, 'an onOutput chunk holds a broken code point').not.toContain('\ufffd');
        const heard = chunks
          .filter((c) => c.stream === 'stdout')
          .map((c) => c.text)
          .join('');
        expect(['', '\ud83d\ude00']).toContain(heard);
      },
    },
    {
      id: 'exec/on-output-live',
      title: 'onOutput hears output while the command still runs (before the result settles)',
      needs: ['shell'],
      run: async ({ fx, dir }) => {
        const gate = `${dir}/gate`;
        let heardBeforeGate = false;
        let gateOpened: Promise<string> | undefined;
        // The command cannot finish until the gate opens, and only onOutput opens it.
        const result = await fx.exec(`echo ping; ${gateCommand(gate)}; echo pong`, {
          timeoutMs: SOON_MS,
          onOutput: (chunk) => {
            if (chunk.stream === 'stdout' && chunk.text.includes('ping') && !gateOpened) {
              heardBeforeGate = true;
              gateOpened = fx.sh(`: > ${shQuote(gate)}`);
            }
          },
        });
        await gateOpened;
        expect(heardBeforeGate, 'onOutput never heard "ping" while the command waited').toBe(true);
        expect(result.timedOut).toBe(false);
        expect(result.stdout).toBe('ping\npong\n');
      },
    },
    {
      id: 'exec/on-output-complete',
      title: 'onOutput chunks, joined per stream, equal the captured stdout and stderr',
      needs: ['shell'],
      run: async ({ fx }) => {
        const chunks: OutputChunk[] = [];
        const result = await fx.exec(
          'i=0; while [ $i -lt 300 ]; do echo "out \u20ac $i"; echo "err $i" >&2; i=$((i+1)); done',
          { onOutput: (chunk) => chunks.push(chunk) },
        );
        for (const chunk of chunks) expect(['stdout', 'stderr']).toContain(chunk.stream);
        const joined = (stream: string) =>
          chunks
            .filter((c) => c.stream === stream)
            .map((c) => c.text)
            .join('');
        expect(joined('stdout')).toBe(result.stdout);
        expect(joined('stderr')).toBe(result.stderr);
        expect(result.stdout.length).toBeGreaterThan(0);
      },
    },
    {
      id: 'exec/invalid-timeout',
      title: 'a negative or NaN timeoutMs is an InvalidArgumentError naming timeoutMs',
      needs: ['shell'],
      run: async ({ fx }) => {
        for (const timeoutMs of [-1, Number.NaN]) {
          const error = await expectBerthError(
            fx.exec('true', { timeoutMs }),
            'E_INVALID_ARGUMENT',
            `exec with timeoutMs ${timeoutMs}`,
          );
          expect(error.message).toContain('timeoutMs');
        }
      },
    },
    {
      id: 'exec/invalid-command',
      title: 'a command that is not a string is an InvalidArgumentError, never an untyped error',
      needs: ['shell'],
      run: async ({ context, handle }) => {
        for (const command of [undefined, 42, ['echo', 'x']]) {
          await expectBerthError(
            context.exec(handle, command as unknown as string),
            'E_INVALID_ARGUMENT',
            `exec(${JSON.stringify(command)})`,
          );
        }
      },
    },
    {
      id: 'exec/concurrency-64',
      title: '64 parallel execs each get their own exit code and output',
      needs: ['shell'],
      run: async ({ fx }) => {
        const results = await Promise.all(
          Array.from({ length: 64 }, (_, i) =>
            fx.exec(`printf 'out-%s' ${i}; printf 'err-%s' ${i} >&2; exit ${i % 7}`, {
              timeoutMs: SOON_MS * 3,
            }),
          ),
        );
        results.forEach((result, i) => {
          expect(result.stdout, `exec #${i}`).toBe(`out-${i}`);
          expect(result.stderr, `exec #${i}`).toBe(`err-${i}`);
          expect(result.exitCode, `exec #${i}`).toBe(i % 7);
          expect(result.timedOut, `exec #${i}`).toBe(false);
        });
      },
    },
  ],
};
