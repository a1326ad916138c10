/**
 * `apply_patch`: a patch over several files in the format Codex's models emit (see
 * `patch-parse.ts`), all or nothing: every file is read and every hunk applied in memory, under the
 * edit lock of every path and the read-before-edit guard, before anything is written; a write that
 * fails part way undoes the ones before it.
 * @module
 */
import { posix } from 'node:path';
import type { ContextHandle, ExecutionContext } from '../contract/types.js';
import { shellJoin } from '../subprocess/shell-quote.js';
import { resolveContextPath } from './context-path.js';
import { defineTool } from './define-tool.js';
import { assertWithinLimit, containmentRefusal, loadText, regularFileSize } from './file-access.js';
import { assertUnchangedSinceSeen, rememberSeen, withFileLocks } from './file-guard.js';
import { formatCount } from './human-units.js';
import { resolveLimits } from './limits.js';
import { applyHunks } from './patch-apply.js';
import { type PatchOperation, parsePatch } from './patch-parse.js';
import { createToolSession } from './session.js';
import { errorResult, ToolFailure, textResult } from './tool-result.js';
import type { BerthTool, ToolOptions } from './types.js';

/** Patches larger than this are refused (a bound on parsing and matching). */
const MAX_PATCH_CHARS = 1024 * 1024;
const MAX_FILES = 100;

/** One file's planned change: its content before (null: absent) and after (null: removed). */
interface Change {
  readonly path: string;
  readonly before: string | null;
  readonly after: string | null;
  readonly summary: string;
}

/** The `apply_patch` tool. */
export function createApplyPatchTool(options: ToolOptions): BerthTool {
  const { context, handle } = options;
  const limits = resolveLimits(options);
  const session = options.session ?? createToolSession();
  return defineTool({
    name: 'apply_patch',
    description: [
      'Apply a patch to one or more files, all or nothing. Format: "*** Begin Patch", then per file',
      '"*** Add File: <path>" (every line prefixed +), "*** Delete File: <path>", or "*** Update File: <path>"',
      '(optionally "*** Move to: <new path>") followed by hunks: "@@" (optionally "@@ <a line to find first>, e.g. a function signature")',
      'then lines prefixed " " (context, about 3 before and after), "-" (remove) or "+" (add); "*** End Patch" last.',
      'Hunks are found by their lines, not line numbers. If any hunk does not apply, nothing is written and the error names it.',
    ].join(' '),
    fields: {
      patch: { type: 'string', required: true, description: 'The whole patch text.' },
    },
    example: {
      patch:
        '*** Begin Patch\n*** Update File: src/app.py\n@@ def main():\n-    print("hi")\n+    print("hello")\n*** End Patch',
    },
    annotations: {
      title: 'Apply patch',
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: false,
    },
    async run(args) {
      if (args.patch.length > MAX_PATCH_CHARS)
        return errorResult(
          `patch is ${formatCount(args.patch.length)} characters, over the ${formatCount(MAX_PATCH_CHARS)} limit. Split it into several apply_patch calls.`,
        );
      const operations = parsePatch(args.patch).map((op) => resolvePaths(op, handle));
      const paths = operations.flatMap((op) =>
        op.kind === 'update' && op.moveTo !== null ? [op.path, op.moveTo] : [op.path],
      );
      if (paths.length > MAX_FILES)
        return errorResult(`the patch touches ${paths.length} files, over the ${MAX_FILES} limit. Split it.`);
      const twice = paths.find((path, index) => paths.indexOf(path) !== index);
      if (twice !== undefined)
        return errorResult(
          `the patch names ${twice} more than once; give each file one section. Nothing was changed.`,
        );
      return withFileLocks(context, handle, session, paths, async () => {
        const changes: Change[] = [];
        for (const op of operations) changes.push(...(await plan(op)));
        await commit(changes);
        for (const change of changes) {
          if (change.after === null) session.seenFiles.delete(change.path);
          else rememberSeen(session, change.path, change.after);
        }
        return textResult(
          `Applied the patch (${changes.length} file${changes.length === 1 ? '' : 's'}):\n${changes
            .map((c) => c.summary)
            .filter((s) => s.length > 0)
            .join('\n')}`,
        );
      });
    },
  });

  /** The change `op` makes, computed in memory; throws a ToolFailure naming the section or hunk. */
  async function plan(op: PatchOperation): Promise<Change[]> {
    const section =
      op.kind === 'add'
        ? `*** Add File: ${op.path}`
        : op.kind === 'delete'
          ? `*** Delete File: ${op.path}`
          : `*** Update File: ${op.path}`;
    const refused = async (path: string) => {
      const refusal = await containmentRefusal(context, handle, path);
      if (refusal !== null) throw new ToolFailure(`${section}: ${refusal} Nothing was changed.`);
    };
    await refused(op.path);
    if (op.kind === 'add') {
      if (await exists(op.path))
        throw new ToolFailure(
          `${section}: the file already exists; use "*** Update File:" to change it. Nothing was changed.`,
        );
      const text = op.lines.length === 0 ? '' : `${op.lines.join('\n')}\n`;
      return [
        {
          path: op.path,
          before: null,
          after: text,
          summary: `A ${op.path} (${formatCount(op.lines.length)} lines)`,
        },
      ];
    }
    const original = await current(op.path, section);
    if (op.kind === 'delete')
      return [{ path: op.path, before: original, after: null, summary: `D ${op.path}` }];
    const outcome = applyHunks(original, op.hunks);
    if (!outcome.ok) throw new ToolFailure(`${section}: ${outcome.message} Nothing was changed.`);
    const counts = `+${outcome.added} −${outcome.removed}`;
    if (op.moveTo === null)
      return [{ path: op.path, before: original, after: outcome.text, summary: `M ${op.path} (${counts})` }];
    await refused(op.moveTo);
    if (await exists(op.moveTo))
      throw new ToolFailure(
        `${section}: "*** Move to: ${op.moveTo}" names a file that exists. Nothing was changed.`,
      );
    return [
      {
        path: op.moveTo,
        before: null,
        after: outcome.text,
        summary: `R ${op.path} → ${op.moveTo} (${counts})`,
      },
      { path: op.path, before: original, after: null, summary: '' },
    ];
  }

  async function current(path: string, section: string): Promise<string> {
    let size: number;
    try {
      size = await regularFileSize(context, handle, path);
    } catch (error) {
      if (error instanceof ToolFailure)
        throw new ToolFailure(`${section}: ${error.message} Nothing was changed.`);
      throw error;
    }
    assertWithinLimit(path, size, limits.maxFileBytes, 'Edit it with bash instead. Nothing was changed.');
    const { text } = await loadText(context, handle, path);
    assertUnchangedSinceSeen(session, path, text, 'patch');
    return text;
  }

  async function exists(path: string): Promise<boolean> {
    if (typeof context.fileSize === 'function') {
      if ((await context.fileSize(handle, path)) !== null) return true;
    }
    try {
      await context.listFiles(handle, path);
      return true; // a directory (or another entry) is there
    } catch {
      return false;
    }
  }

  /** Write every change; on a failure, undo the ones already made and say what could not be undone. */
  async function commit(changes: readonly Change[]): Promise<void> {
    const done: Change[] = [];
    try {
      // Writes first, removals last: a failed write leaves every original in place.
      for (const change of [...changes].sort((a, b) => Number(a.after === null) - Number(b.after === null))) {
        if (change.after === null) await removeFile(context, handle, change.path);
        else await context.writeFile(handle, change.path, change.after);
        done.push(change);
      }
    } catch (error) {
      const stuck: string[] = [];
      for (const change of done.reverse()) {
        try {
          if (change.before === null) await removeFile(context, handle, change.path);
          else await context.writeFile(handle, change.path, change.before);
        } catch {
          stuck.push(change.path);
        }
      }
      const why = error instanceof Error ? error.message : String(error);
      throw new ToolFailure(
        stuck.length === 0
          ? `the patch could not be written (${why}); the files already written were restored, so nothing changed.`
          : `the patch could not be written (${why}), and these files could not be restored: ${stuck.join(', ')}. Check them with read_file.`,
      );
    }
  }
}

function resolvePaths(op: PatchOperation, handle: ContextHandle): PatchOperation {
  const path = resolveContextPath(handle, op.path);
  if (op.kind === 'update')
    return { ...op, path, moveTo: op.moveTo === null ? null : resolveContextPath(handle, op.moveTo) };
  return { ...op, path };
}

/**
 * Remove one file. The contract has no file removal, so it is `rm` in the context, handed the
 * parent's real path (containment was checked) so that a link is removed, not its target.
 */
async function removeFile(context: ExecutionContext, handle: ContextHandle, path: string): Promise<void> {
  const parent = posix.dirname(path);
  const dir = typeof context.realPath === 'function' ? await context.realPath(handle, parent) : parent;
  const result = await context.exec(
    handle,
    shellJoin(['rm', '-f', '--', posix.join(dir, posix.basename(path))]),
    {
      timeoutMs: 30_000,
    },
  );
  if (result.exitCode !== 0)
    throw new ToolFailure(
      `removing ${path} failed: ${result.stderr.trim() || `rm exited with ${result.exitCode}`}`,
    );
}
