/**
 * Reading how a supervised command ended: the supervisor's status line on its status pipe, or,
 * when none came (it could not set up, or something killed it), its own exit.
 * @module
 */
import type { ChildProcess } from 'node:child_process';
import type { Readable } from 'node:stream';
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

/** Watch `child` (a supervisor spawned with its status pipe) for its command's end. */
export function watchSupervisedEnd(child: ChildProcess, handlers: SupervisedEndHandlers): void {
  const pipe = child.stdio[STATUS_FD] as Readable | null | undefined;
  let reported = false;
  let text = '';
  let exited = false;
  let pipeClosed = pipe == null;
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
  if (!pipe) return;
  pipe.setEncoding('latin1');
  pipe.on('data', (chunk: string) => {
    if (reported || text.length > MAX_STATUS_LINE) return;
    text += chunk;
    const newline = text.indexOf('\n');
    if (newline < 0) return;
    const status = parseSupervisorStatus(text.slice(0, newline));
    if (!status) {
      text = `${text}${'?'.repeat(MAX_STATUS_LINE)}`; // unparseable: only the exit is left to go by
      return;
    }
    reported = true;
    handlers.status(status);
  });
  pipe.on('error', () => {});
  pipe.once('close', () => {
    pipeClosed = true;
    silentEnd();
  });
}
