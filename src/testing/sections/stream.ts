/**
 * `execStream`: a live byte pipe. Interactive round trips, 10 MiB through without deadlock, raw
 * bytes, exit codes, separate stderr where the backend has one, and kill / abort of the tree.
 * @module
 */
import type { Readable } from 'node:stream';
import { expect } from 'vitest';
import type { ExecStream, ExecutionContext } from '../../contract/types.js';
import { shQuote } from '../../subprocess/shell-quote.js';
import {
  allByteValues,
  firstDifference,
  numberedBytes,
  numberedBytesCommand,
  primeCycleBytes,
  printfBytesCommand,
} from '../byte-patterns.js';
import type { ConformanceSection } from '../case.js';
import { grandchildCommand, waitForFileCommand } from '../process-probe.js';
import { mustSettleWithin, SOON_MS, waitUntil } from '../wait-until.js';

type ExecStreamFn = NonNullable<ExecutionContext['execStream']>;

function streamOf(context: ExecutionContext): ExecStreamFn {
  if (!context.execStream) throw new Error('capabilities.stream is true but execStream is missing');
  return context.execStream.bind(context);
}

/** Collects every byte a readable emits; `bytes()` is the concatenation so far. */
function drain(readable: Readable | undefined): { bytes: () => Uint8Array; ended: Promise<void> } {
  const chunks: Buffer[] = [];
  if (!readable) return { bytes: () => new Uint8Array(0), ended: Promise.resolve() };
  readable.on('data', (chunk: Buffer | string) =>
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk),
  );
  const ended = new Promise<void>((resolve, reject) => {
    readable.once('end', resolve);
    readable.once('close', resolve);
    readable.once('error', reject);
  });
  return { bytes: () => new Uint8Array(Buffer.concat(chunks)), ended };
}

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

/** Ends the stream's stdin and waits for exit; kills it if the test failed midway. */
async function finish(stream: ExecStream): Promise<number | null> {
  stream.stdin.end();
  return mustSettleWithin('the stream process to exit after stdin closed', stream.exited);
}

export const streamSection: ConformanceSection = {
  name: 'stream',
  cases: [
    {
      id: 'stream/echo-round-trip',
      title: 'cat echoes each write before the next one is sent (a live, interleaved conversation)',
      needs: ['stream'],
      run: async ({ context, handle }) => {
        const stream = await streamOf(context)(handle, 'cat');
        try {
          const out = drain(stream.stdout);
          const errors = drain(stream.stderr);
          let expected = '';
          for (const line of ['hello\n', 'w\u00f6rld \u20ac\n', `${'x'.repeat(5000)}\n`]) {
            stream.stdin.write(line);
            expected += line;
            await waitUntil(
              `echo of ${JSON.stringify(line.slice(0, 20))}`,
              () => text(out.bytes()) === expected,
            );
          }
          expect(await finish(stream)).toBe(0);
          expect(text(errors.bytes())).toBe('');
        } finally {
          await stream.kill();
        }
      },
    },
    {
      id: 'stream/argv',
      title: 'an argv array runs without a shell: arguments arrive verbatim',
      needs: ['stream'],
      run: async ({ context, handle }) => {
        const args = ['a b', "it's", '$HOME', '*', ''];
        const stream = await streamOf(context)(handle, ['printf', '[%s]', ...args]);
        try {
          const out = drain(stream.stdout);
          drain(stream.stderr);
          expect(await finish(stream)).toBe(0);
          await out.ended;
          expect(text(out.bytes())).toBe(args.map((a) => `[${a}]`).join(''));
        } finally {
          await stream.kill();
        }
      },
    },
    {
      id: 'stream/binary',
      title: 'stdout carries raw bytes: all 256 values come back exact',
      needs: ['stream'],
      run: async ({ context, handle }) => {
        const bytes = allByteValues();
        const stream = await streamOf(context)(handle, printfBytesCommand(bytes));
        try {
          const out = drain(stream.stdout);
          drain(stream.stderr);
          expect(await finish(stream)).toBe(0);
          await out.ended;
          expect(firstDifference(out.bytes(), bytes), 'first differing byte').toBe(-1);
        } finally {
          await stream.kill();
        }
      },
    },
    {
      id: 'stream/10mib-no-deadlock',
      title: '10 MiB written through cat while reading comes back byte-exact, without deadlock',
      needs: ['stream'],
      run: async ({ context, handle }) => {
        const payload = primeCycleBytes(10 * 1024 * 1024);
        const stream = await streamOf(context)(handle, 'cat');
        try {
          const out = drain(stream.stdout);
          drain(stream.stderr);
          const chunk = 64 * 1024;
          for (let offset = 0; offset < payload.length; offset += chunk) {
            if (!stream.stdin.write(payload.subarray(offset, offset + chunk))) {
              await mustSettleWithin(
                'stdin to drain (the reader is draining stdout, so this must not block)',
                new Promise<void>((resolve) => stream.stdin.once('drain', resolve)),
              );
            }
          }
          expect(await mustSettleWithin('exit', finish(stream), SOON_MS * 3)).toBe(0);
          await out.ended;
          const back = out.bytes();
          expect(back.length).toBe(payload.length);
          expect(firstDifference(back, payload), 'first differing byte').toBe(-1);
        } finally {
          await stream.kill();
        }
      },
    },
    {
      id: 'stream/both-streams-flooded',
      title: '2 MiB on stdout and 2 MiB on stderr at once arrive whole when both are drained (no deadlock)',
      needs: ['stream', 'shell'],
      exercises: ['stream'],
      run: async ({ context, handle }) => {
        const length = 2 * 1024 * 1024;
        const stream = await streamOf(context)(
          handle,
          `${numberedBytesCommand(length)} & ${numberedBytesCommand(length, 'stderr')} & wait`,
        );
        try {
          const out = drain(stream.stdout);
          const err = drain(stream.stderr);
          expect(await finish(stream)).toBe(0);
          await Promise.all([out.ended, err.ended]);
          const expected = numberedBytes(length);
          if (stream.stderr) {
            expect(firstDifference(out.bytes(), expected), 'first differing stdout byte').toBe(-1);
            expect(firstDifference(err.bytes(), expected), 'first differing stderr byte').toBe(-1);
          } else {
            expect(out.bytes().length, 'both streams on the one stream').toBe(2 * length);
          }
        } finally {
          await stream.kill();
        }
      },
    },
    {
      id: 'stream/stderr',
      title: 'stderr is a separate stream when the backend has one (otherwise absent, never mixed silently)',
      needs: ['stream'],
      run: async ({ context, handle }) => {
        const stream = await streamOf(context)(handle, 'printf out; printf err >&2');
        try {
          const out = drain(stream.stdout);
          const err = drain(stream.stderr);
          expect(await finish(stream)).toBe(0);
          await Promise.all([out.ended, err.ended]);
          if (stream.stderr) {
            expect(text(out.bytes())).toBe('out');
            expect(text(err.bytes())).toBe('err');
          } else {
            expect(text(out.bytes())).toContain('out');
          }
        } finally {
          await stream.kill();
        }
      },
    },
    {
      id: 'stream/exit-code',
      title: 'exited resolves with the exit code',
      needs: ['stream'],
      run: async ({ context, handle }) => {
        const stream = await streamOf(context)(handle, 'exit 7');
        drain(stream.stdout);
        drain(stream.stderr);
        expect(await finish(stream)).toBe(7);
      },
    },
    {
      id: 'stream/options',
      title: 'execStream honours cwd and env',
      needs: ['stream', 'shell'],
      exercises: ['stream'],
      run: async ({ fx, context, handle, dir }) => {
        const physical = (await fx.sh(`cd ${shQuote(dir)} && pwd -P`)).trim();
        const stream = await streamOf(context)(handle, 'pwd -P; printf "%s" "$CONFORMANCE_STREAM"', {
          cwd: dir,
          env: { CONFORMANCE_STREAM: 'stream value' },
        });
        try {
          const out = drain(stream.stdout);
          drain(stream.stderr);
          expect(await finish(stream)).toBe(0);
          await out.ended;
          expect(text(out.bytes())).toBe(`${physical}\nstream value`);
        } finally {
          await stream.kill();
        }
      },
    },
    {
      id: 'stream/kill-tree',
      title: 'kill() ends the whole tree and resolves once it is gone; exited settles; kill is idempotent',
      needs: ['stream', 'shell'],
      exercises: ['stream'],
      run: async ({ fx, context, handle, dir, note }) => {
        const pidFile = `${dir}/child.pid`;
        const stream = await streamOf(context)(
          handle,
          `${grandchildCommand(pidFile)}\n${waitForFileCommand(pidFile)}; echo ready; cat`,
        );
        const out = drain(stream.stdout);
        drain(stream.stderr);
        await waitUntil('the stream command to get ready', () => text(out.bytes()).includes('ready'));
        const watch = await fx.watch(pidFile, 'stream kill()');
        await mustSettleWithin('kill()', stream.kill());
        await mustSettleWithin('exited after kill()', stream.exited);
        await fx.expectGone([watch], 'stream kill()', note);
        await mustSettleWithin('a second kill()', stream.kill());
      },
    },
    {
      id: 'stream/abort',
      title: 'aborting the signal ends the tree and settles exited',
      needs: ['stream', 'shell'],
      exercises: ['stream'],
      run: async ({ fx, context, handle, dir, note }) => {
        const pidFile = `${dir}/child.pid`;
        const controller = new AbortController();
        const stream = await streamOf(context)(
          handle,
          `${grandchildCommand(pidFile)}\n${waitForFileCommand(pidFile)}; echo ready; cat`,
          {
            signal: controller.signal,
          },
        );
        try {
          const out = drain(stream.stdout);
          drain(stream.stderr);
          await waitUntil('the stream command to get ready', () => text(out.bytes()).includes('ready'));
          const watch = await fx.watch(pidFile, 'stream abort');
          controller.abort();
          await mustSettleWithin('exited after abort', stream.exited);
          // Abort has no promise for "tree gone"; give the termination its grace, then require it.
          await waitUntil(`grandchild ${watch.pid} to be gone after abort`, () => watch.gone()).catch(
            () => undefined,
          );
          await fx.expectGone([watch], 'stream abort', note);
        } finally {
          await stream.kill();
        }
      },
    },
  ],
};
