/**
 * Reading how a supervised command ended: the supervisor's status line on its status pipe (or,
 * sooner, the command's zombie in `/proc`), or, when none came (it could not set up, or something
 * killed it), its own exit.
 * @module
 */
import type { ChildProcess } from 'node:child_process';
import type { Readable } from 'node:stream';
import { probeCommandEnd } from './command-end-probe.js';
import { parseSupervisorStatus, STATUS_FD, type SupervisorStatus } from './supervisor.js';

// A status line is a dozen bytes; anything longer is not the supervisor speaking.
const MAX_STATUS_LINE = 64;

/** Handlers for {@link watchSupervisedEnd}; exactly one of them is called, once. */
export interface SupervisedEndHandlers {
  /** The supervisor reported the command's end (or that it could not be executed). */
  status(status: SupervisorStatus): void;
  /** The supervisor exited, and its status pipe closed, without a status line. */
  exitedSilently(): void;
}

/** What a watcher offers besides its handlers. */
export interface SupervisedEndWatch {
  /**
   * Look in `/proc` for the command's end before the supervisor says it (call once its output
   * pipes have closed); reports through `status` and returns true when it was known there.
   */
  probe(): boolean;
}

/** Watch `child` (a supervisor spawned with its status pipe) for its command's end. */
export function watchSupervisedEnd(child: ChildProcess, handlers: SupervisedEndHandlers): SupervisedEndWatch {
  const pipe = child.stdio[STATUS_FD] as Readable | null | undefined;
  let reported = false;
  let text = '';
  let exited = false;
  let pipeClosed = pipe == null;
  let commandPid: number | undefined;
  const report = (status: SupervisorStatus) => {
    reported = true;
    handlers.status(status);
  };
  const silentEnd = () => {
    if (!reported && exited && pipeClosed) {
      reported = true;
      handlers.exitedSilently();
    }
  };
  child.once('exit', () => {
    exited = true;
    silentEnd();
  });
  const watch: SupervisedEndWatch = {
    probe: () => {
      if (reported || commandPid === undefined || child.pid === undefined) return false;
      const end = probeCommandEnd(child.pid, commandPid);
      if (!end) return false;
      const line = end.signo === null ? `x ${end.exitCode} .` : `s ${end.signo} .`;
      report(parseSupervisorStatus(line) as SupervisorStatus);
      return true;
    },
  };
  if (!pipe) return watch;
  pipe.setEncoding('latin1');
  pipe.on('data', (chunk: string) => {
    if (reported || text.length > MAX_STATUS_LINE) return;
    text += chunk;
    for (let newline = text.indexOf('\n'); newline >= 0 && !reported; newline = text.indexOf('\n')) {
      const line = parseSupervisorStatus(text.slice(0, newline));
      text = text.slice(newline + 1);
      if (line?.kind === 'command-pid' && commandPid === undefined) {
        commandPid = line.pid;
        continue;
      }
      if (!line || line.kind === 'command-pid') {
        text = '?'.repeat(MAX_STATUS_LINE + 1); // unparseable: only the exit is left to go by
        return;
      }
      report(line);
    }
  });
  pipe.on('error', () => {});
  pipe.once('close', () => {
    pipeClosed = true;
    silentEnd();
  });
  return watch;
}
