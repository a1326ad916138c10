// The follow-up TERM for processes that could not take the tree's TERM when it went out.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { ignoresSignal } from '../../src/subprocess/proc-stat.js';
import { ProcessTree } from '../../src/subprocess/process-tree.js';
import { TermFollowUp } from '../../src/subprocess/term-follow-up.js';
import { newSleepMarker, pidsWithMarker } from '../support/process-markers.js';
import { alive, waitFor } from './helpers.js';

const started: number[] = [];
afterEach(() => {
  for (const pid of started.splice(0)) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {}
  }
});

const comm = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return '';
  }
};

describe('TermFollowUp', () => {
  it('a process forked between the walk before the TERM and the one after is owed the TERM by its ignoring parent', async () => {
    const marker = newSleepMarker();
    // A wrapper that ignores TERM and, on cue, starts a command that takes it (as the sandbox's
    // bubblewrap starts the command with TERM restored).
    const root = spawn(
      'env',
      ['--ignore-signal=TERM', 'sh', '-c', `read cue; env --default-signal=TERM sleep ${marker}; read again`],
      { detached: true, stdio: ['pipe', 'ignore', 'inherit'] },
    );
    started.push(root.pid!);
    const tree = new ProcessTree(root.pid!, () => root.exitCode === null && root.signalCode === null);
    await waitFor(() => comm(root.pid!) === 'sh', 'the wrapper shell');
    expect(ignoresSignal(root.pid!, 15)).toBe(true);
    const followUp = new TermFollowUp(tree);
    // The tree's TERM went out here (to the root only: the command did not exist yet). The command
    // starts before the walk that follows the signal.
    root.stdin!.write('go\n');
    const [command] = await waitFor(() => {
      const pids = pidsWithMarker(marker).filter((pid) => comm(pid) === 'sleep');
      return pids.length > 0 && ignoresSignal(pids[0]!, 15) === false && pids;
    }, 'the command');
    followUp.signalled();
    expect(alive(command!)).toBe(true);
    followUp.check();
    expect(await waitFor(() => !alive(command!), 'the command to take the TERM', 5000)).toBe(true);
    // The wrapper still ignores TERM: it is left to the KILL.
    expect(alive(root.pid!)).toBe(true);
  });
});
