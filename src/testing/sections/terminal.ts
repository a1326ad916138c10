/**
 * `openTerminal`: a PTY for people. Typed commands run, the window size is real and follows
 * `resize`, the exit code comes back, and `kill()` ends the session's processes.
 * @module
 */
import { expect } from 'vitest';
import type { ExecutionContext, Terminal, TerminalOptions } from '../../contract/types.js';
import { shQuote } from '../../subprocess/shell-quote.js';
import type { ConformanceSection } from '../case.js';
import { expectBerthError } from '../expect-error.js';
import { grandchildCommand } from '../process-probe.js';
import { mustSettleWithin, waitUntil } from '../wait-until.js';

type OpenTerminal = NonNullable<ExecutionContext['openTerminal']>;

function terminalOf(context: ExecutionContext): OpenTerminal {
  if (!context.openTerminal) throw new Error('capabilities.terminal is true but openTerminal is missing');
  return context.openTerminal.bind(context);
}

/** A terminal plus everything it printed so far, decoded. */
interface Session {
  readonly terminal: Terminal;
  output(): string;
  /** Waits until the output (after `from`) matches `pattern`; returns the match. */
  expectOutput(pattern: RegExp, what: string, from?: number): Promise<RegExpMatchArray>;
}

async function open(
  context: ExecutionContext,
  handle: Parameters<OpenTerminal>[0],
  options: TerminalOptions,
): Promise<Session> {
  const terminal = await mustSettleWithin('openTerminal', terminalOf(context)(handle, options));
  const decoder = new TextDecoder();
  let text = '';
  terminal.onData((chunk) => {
    text += decoder.decode(chunk, { stream: true });
  });
  return {
    terminal,
    output: () => text,
    expectOutput: (pattern, what, from = 0) =>
      waitUntil(
        `terminal output: ${what} (got ${JSON.stringify(text.slice(-300))})`,
        () => text.slice(from).match(pattern) ?? undefined,
      ),
  };
}

/** Default terminal: POSIX sh, so the suite does not depend on the login shell's prompt. */
const SH: TerminalOptions = { cols: 80, rows: 24, shell: ['/bin/sh'] };

export const terminalSection: ConformanceSection = {
  name: 'terminal',
  cases: [
    {
      id: 'terminal/run-command',
      title:
        'a command typed into the terminal runs, its output reaches every listener, and unsubscribe stops one',
      needs: ['terminal'],
      run: async ({ context, handle }) => {
        const session = await open(context, handle, SH);
        try {
          expect(Number.isInteger(session.terminal.pid) && session.terminal.pid > 0, 'pid').toBe(true);
          // The arithmetic makes the result differ from the echoed input.
          let heardBySecond = '';
          const unsubscribe = session.terminal.onData((chunk) => {
            heardBySecond += new TextDecoder().decode(chunk);
          });
          session.terminal.write('echo BERTH_$((6*7))_OK\n');
          await session.expectOutput(/BERTH_42_OK/, 'the command result');
          await waitUntil('the second listener to hear the result too', () =>
            heardBySecond.includes('BERTH_42_OK'),
          );
          unsubscribe();
          const mark = session.output().length;
          heardBySecond = '';
          session.terminal.write('echo BERTH_$((7*7))_AFTER\n');
          await session.expectOutput(/BERTH_49_AFTER/, 'output after unsubscribing', mark);
          expect(heardBySecond, 'an unsubscribed listener still hears output').toBe('');
        } finally {
          await session.terminal.kill();
        }
      },
    },
    {
      id: 'terminal/default-shell',
      title: "without a shell option the terminal runs the user's login shell and takes commands",
      needs: ['terminal'],
      run: async ({ context, handle }) => {
        const session = await open(context, handle, { cols: 80, rows: 24 });
        try {
          session.terminal.write('echo BERTH_$((40+2))_DEFAULT\n');
          await session.expectOutput(/BERTH_42_DEFAULT/, 'the command result');
        } finally {
          await session.terminal.kill();
        }
      },
    },
    {
      id: 'terminal/size-and-resize',
      title: 'the PTY has the requested size and resize() changes it',
      needs: ['terminal'],
      run: async ({ context, handle }) => {
        const session = await open(context, handle, { ...SH, cols: 91, rows: 27 });
        try {
          session.terminal.write('echo SIZE_$(stty size | tr " " x)_END\n');
          await session.expectOutput(/SIZE_27x91_END/, 'the initial size 27x91');
          const mark = session.output().length;
          session.terminal.resize(103, 41);
          session.terminal.write('echo SIZE_$(stty size | tr " " x)_END\n');
          await session.expectOutput(/SIZE_41x103_END/, 'the size after resize(103, 41)', mark);
        } finally {
          await session.terminal.kill();
        }
      },
    },
    {
      id: 'terminal/options',
      title: 'openTerminal honours cwd and env',
      needs: ['terminal', 'shell'],
      exercises: ['terminal'],
      run: async ({ fx, context, handle, dir }) => {
        const physical = (await fx.sh(`cd ${shQuote(dir)} && pwd -P`)).trim();
        const session = await open(context, handle, {
          ...SH,
          cwd: dir,
          env: { CONFORMANCE_TTY: 'tty-value' },
        });
        try {
          session.terminal.write('echo "CWD=$(pwd -P)=" "ENV=$CONFORMANCE_TTY="\n');
          await session.expectOutput(
            new RegExp(`CWD=${physical.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}= ENV=tty-value=`),
            'cwd and env',
          );
        } finally {
          await session.terminal.kill();
        }
      },
    },
    {
      id: 'terminal/invalid-size',
      title: 'a zero, negative, fractional or NaN size is an InvalidArgumentError, and no terminal is opened',
      needs: ['terminal'],
      run: async ({ context, handle }) => {
        for (const [cols, rows] of [
          [0, 24],
          [80, -1],
          [80.5, 24],
          [Number.NaN, 24],
        ] as const) {
          await expectBerthError(
            terminalOf(context)(handle, { cols, rows, shell: ['/bin/sh'] }),
            'E_INVALID_ARGUMENT',
            `openTerminal with ${cols}x${rows}`,
          );
        }
      },
    },
    {
      id: 'terminal/exit-code',
      title: 'exited resolves with the exit code of the shell',
      needs: ['terminal'],
      run: async ({ context, handle }) => {
        const session = await open(context, handle, SH);
        try {
          session.terminal.write('exit 3\n');
          expect(await mustSettleWithin('exited after "exit 3"', session.terminal.exited)).toBe(3);
        } finally {
          await session.terminal.kill();
        }
      },
    },
    {
      id: 'terminal/kill',
      title: 'kill() ends the session, its background jobs included; exited settles; kill is idempotent',
      needs: ['terminal', 'shell'],
      exercises: ['terminal'],
      run: async ({ fx, context, handle, dir, note }) => {
        const pidFile = `${dir}/job.pid`;
        const session = await open(context, handle, SH);
        session.terminal.write(`${grandchildCommand(pidFile)} echo JOB_$((1+1))_STARTED\n`);
        await session.expectOutput(/JOB_2_STARTED/, 'the job to start');
        await waitUntil('the pid file', () => fx.exists(pidFile));
        const watch = await fx.watch(pidFile, 'terminal kill()');
        await mustSettleWithin('kill()', session.terminal.kill());
        await mustSettleWithin('exited after kill()', session.terminal.exited);
        await fx.expectGone([watch], 'terminal kill()', note);
        await mustSettleWithin('a second kill()', session.terminal.kill());
      },
    },
  ],
};
