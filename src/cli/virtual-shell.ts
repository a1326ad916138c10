/**
 * `berth shell --context virtual`: an interactive prompt over berth's own shell, for people. Node's
 * readline gives line editing and history (kept in the state directory between runs); each line
 * runs in the handle's session, so variables, functions and `cd` carry over as in a terminal.
 * Ctrl-C at the prompt clears the line; Ctrl-C while a command runs ends that command (status
 * 130); Ctrl-D on an empty line, or `exit`, leaves with the shell's last status.
 * @module
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface, type Interface } from 'node:readline';
import type { VirtualContext } from '../contexts/virtual/index.js';
import { stateRoot } from '../contexts/virtual/sessions/index.js';
import { MAX_TIMER_MS } from '../contract/validate-options.js';
import type { OpenContext } from './context-setup.js';
import type { CliIo } from './io.js';

/** Lines of history kept. */
const HISTORY_SIZE = 1000;

/** Run the prompt until `exit` or Ctrl-D; resolves with the shell's last status. */
export async function runVirtualShell(open: OpenContext, io: CliIo): Promise<number> {
  const context = open.context as VirtualContext;
  const historyFile = join(stateRoot(io.env), 'shell_history');
  const rl = createInterface({
    input: io.stdin,
    output: io.stdout,
    terminal: true,
    historySize: HISTORY_SIZE,
    history: loadHistory(historyFile),
    removeHistoryDuplicates: true,
  });
  io.stderr.write(`${io.err.dim(`berth shell: ${open.description}. exit or Ctrl-D leaves.`)}\n`);
  let status = 0;
  const lines: string[] = [];
  let waiting: ((line: string | null) => void) | undefined;
  let closed = false;
  let running: AbortController | undefined;
  rl.on('line', (line) => {
    if (waiting) {
      const wake = waiting;
      waiting = undefined;
      wake(line);
    } else lines.push(line); // typed ahead while a command ran: it runs next, as in a terminal
  });
  rl.on('close', () => {
    closed = true;
    waiting?.(null);
  });
  rl.on('SIGINT', () => {
    if (running) {
      running.abort();
      return;
    }
    // At the prompt, as bash: drop the line, a fresh prompt, status 130.
    io.stdout.write('^C\n');
    rl.write(null, { ctrl: true, name: 'u' });
    status = 130;
    prompt(rl, context, open, status);
  });
  const nextLine = (): Promise<string | null> => {
    const queued = lines.shift();
    if (queued !== undefined) return Promise.resolve(queued);
    if (closed) return Promise.resolve(null);
    return new Promise((resolve) => {
      waiting = resolve;
    });
  };
  try {
    for (;;) {
      prompt(rl, context, open, status);
      const line = await nextLine();
      if (line === null) break;
      if (line.trim() === '') continue;
      running = new AbortController();
      try {
        const result = await context.exec(open.handle, line, {
          timeoutMs: MAX_TIMER_MS,
          signal: running.signal,
          onOutput: (chunk) => (chunk.stream === 'stdout' ? io.stdout : io.stderr).write(chunk.text),
        });
        if (result.aborted) io.stdout.write('^C\n');
        status = result.aborted ? 130 : (result.exitCode ?? 128 + 9);
      } finally {
        running = undefined;
      }
      if (context.sessionInfo(open.handle)?.exited === true) break;
    }
  } finally {
    saveHistory(historyFile, (rl as Interface & { history?: string[] }).history ?? []);
    if (!closed) rl.close();
    io.stdout.write('\n');
  }
  return status;
}

function prompt(rl: Interface, context: VirtualContext, open: OpenContext, status: number): void {
  const cwd = context.sessionInfo(open.handle)?.cwd ?? open.handle.cwd;
  rl.setPrompt(`${status === 0 ? '' : `[${status}] `}berth:${cwd}$ `);
  rl.prompt();
}

function loadHistory(path: string): string[] {
  try {
    return readFileSync(path, 'utf8')
      .split('\n')
      .filter((line) => line.length > 0)
      .reverse()
      .slice(0, HISTORY_SIZE);
  } catch {
    return [];
  }
}

function saveHistory(path: string, newestFirst: readonly string[]): void {
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    writeFileSync(path, `${[...newestFirst].slice(0, HISTORY_SIZE).reverse().join('\n')}\n`, { mode: 0o600 });
  } catch {
    // History is a convenience: an unwritable state directory must not fail the shell.
  }
}
