/**
 * Ending a command's whole tree inside a sandbox. The SDKs kill one pid; berth tags every command
 * it starts (`BERTH_EXEC=<tag>` in its environment, inherited by all descendants) and runs it in its
 * own session (`setsid`), then ends the tree with the same verified TERM → grace → KILL script the
 * Docker context uses: it scans `/proc/<pid>/environ` for the tag, signals each tagged process and
 * its group, and exits only once none remains.
 * @module
 */
import { newExecTag, terminationArgv } from '../docker/tagged-termination.js';
import { argvLine } from './scripts.js';
import type { RemoteSandbox } from './transport.js';

export { newExecTag };

/** Slack over the script's own bound (grace plus its give-up wait) for the provider call. */
const CALL_SLACK_MS = 30_000;

/** End every process carrying `tag`; resolves when none remains (or the sandbox is gone). */
export async function terminateTagged(sandbox: RemoteSandbox, tag: string, graceMs: number): Promise<void> {
  await sandbox
    .run({ script: argvLine(terminationArgv(tag, graceMs)), timeoutMs: graceMs + 5000 + CALL_SLACK_MS })
    .catch(() => undefined);
}
