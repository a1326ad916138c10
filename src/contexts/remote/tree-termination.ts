/**
 * Ending a command's whole tree inside a sandbox. The SDKs kill one pid; berth tags every command
 * it starts (`BERTH_EXEC=<tag>` in its environment, inherited by all descendants) and runs it in its
 * own session (`setsid`), then ends the tree with the same verified TERM → grace → KILL script the
 * Docker context uses: it scans `/proc/<pid>/environ` for the tag, signals each tagged process and
 * its group, and exits only once none remains.
 * @module
 */
import { newExecTag, terminationArgv } from '../shared/tagged-termination.js';
import { argvLine, shLine } from './scripts.js';
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

/**
 * Wait until no process carries `tag` (the tree has ended on its own); false when `signal` aborts
 * first. Polls from inside the sandbox, one provider call per round.
 */
export async function waitTaggedGone(
  sandbox: RemoteSandbox,
  tag: string,
  signal?: AbortSignal,
): Promise<boolean> {
  const script = `t="BERTH_EXEC=$1"; i=0
while grep -qlas -- "$t" /proc/[0-9]*/environ 2>/dev/null; do
  i=$((i + 1)); [ "$i" -ge 100 ] && exit 1
  sleep 0.1
done
exit 0`;
  while (!signal?.aborted) {
    const result = await sandbox
      .run({ script: shLine(script, 'berth-wait-tree', [tag]), timeoutMs: 60_000 })
      .catch(() => ({ exitCode: 0 }));
    if (result.exitCode === 0) return true;
  }
  return false;
}
