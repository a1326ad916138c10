/**
 * `berth shell`: an interactive terminal in a context, wired to this terminal.
 * @module
 */
import { CapabilityError, InvalidArgumentError } from '../../errors/index.js';
import { type CommandSpec, formatHelp, parseArgs, stringFlag } from '../args.js';
import { CONTEXT_DETAILS, CONTEXT_FLAGS, openContext } from '../context-setup.js';
import type { CliIo } from '../io.js';
import { onTerminationSignal } from '../termination-signals.js';
import { runVirtualShell } from '../virtual-shell.js';

export const shellSpec: CommandSpec = {
  name: 'berth shell',
  summary: 'open an interactive terminal in a context',
  usage: ['[options]', '[options] -- PROGRAM [ARG...]'],
  positionals: 'command',
  flags: { ...CONTEXT_FLAGS },
  details: `Starts your login shell (or PROGRAM) in a terminal inside the context: on this machine,
inside the sandbox, or in the container. Exit the shell to leave; the terminal's processes end
with it. Needs the optional dependency node-pty.

With --context virtual, an interactive prompt over berth's own shell instead (no PTY, no login
shell): line editing and history, variables and cd carry over from line to line, Ctrl-C ends the
running command, Ctrl-D or exit leaves.

${CONTEXT_DETAILS}`,
};

/** `berth shell` */
export async function shellCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseArgs(argv, shellSpec);
  if (parsed.help) {
    io.stdout.write(formatHelp(shellSpec));
    return 0;
  }
  if (!io.stdin.isTTY) {
    // Without a terminal there is no one to type: a pipe would feed a prompt that never ends.
    throw new InvalidArgumentError(
      'stdin',
      'is not a terminal, and berth shell is interactive; to run commands from a pipe or a script use berth run (e.g. `echo ls | berth run --stdin -- sh`)',
    );
  }
  if (stringFlag(parsed.flags, 'context') === 'virtual') {
    if (parsed.positionals.length > 0) {
      throw new InvalidArgumentError(
        JSON.stringify(parsed.positionals[0]),
        'the virtual context runs its own shell, not a program; drop the program, or use berth run --context virtual',
      );
    }
    const virtual = await openContext(parsed.flags, io, { shellSession: true });
    try {
      return await runVirtualShell(virtual, io);
    } finally {
      await virtual.dispose();
    }
  }
  const open = await openContext(parsed.flags, io);
  const { stdin, stdout } = io;
  const wasRaw = stdin.isTTY ? stdin.isRaw : false;
  const cleanups: (() => void)[] = [];
  try {
    if (typeof open.context.openTerminal !== 'function') {
      throw new CapabilityError('openTerminal (interactive terminals)', open.context.type);
    }
    const terminal = await open.context.openTerminal(open.handle, {
      cols: stdout.columns || 80,
      rows: stdout.rows || 24,
      ...(parsed.positionals.length > 0 ? { shell: parsed.positionals } : {}),
    });
    // Raw mode hands every key (Ctrl-C included) to the terminal's own line discipline.
    if (stdin.isTTY) {
      stdin.setRawMode(true);
      cleanups.push(() => stdin.setRawMode(wasRaw));
    }
    const onInput = (data: Buffer): void => terminal.write(data);
    stdin.on('data', onInput);
    stdin.resume();
    cleanups.push(() => {
      stdin.off('data', onInput);
      stdin.pause();
    });
    cleanups.push(terminal.onData((chunk) => stdout.write(chunk)));
    const onResize = (): void => terminal.resize(stdout.columns || 80, stdout.rows || 24);
    process.on('SIGWINCH', onResize);
    cleanups.push(() => process.off('SIGWINCH', onResize));
    // In raw mode Ctrl-C is a byte for the terminal; a real SIGINT/SIGTERM/SIGHUP ends the session.
    cleanups.push(onTerminationSignal(() => void terminal.kill()));
    const code = await terminal.exited;
    return code ?? 1;
  } finally {
    for (const cleanup of cleanups.reverse()) cleanup();
    await open.dispose();
  }
}
