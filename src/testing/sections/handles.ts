/**
 * Handles are plain data owned by the context: serializable, unknown ids refused with a typed
 * error, `destroy` idempotent, and a destroyed handle unusable.
 * @module
 */
import { expect } from 'vitest';
import type { ContextHandle } from '../../contract/types.js';
import { shQuote } from '../../subprocess/shell-quote.js';
import type { ConformanceSection } from '../case.js';
import { expectBerthError } from '../expect-error.js';
import { grandchildCommand, waitForFileCommand } from '../process-probe.js';
import { mustSettleWithin, SOON_MS, waitUntil } from '../wait-until.js';

export const handlesSection: ConformanceSection = {
  name: 'handles',
  cases: [
    {
      id: 'handles/plain-data',
      title: 'a handle is { id, type, cwd } data: a JSON round-tripped copy works like the original',
      needs: [],
      exercises: [],
      run: async ({ fx, context, handle }) => {
        expect(typeof handle.id === 'string' && handle.id.length > 0, 'id is a non-empty string').toBe(true);
        expect(handle.type).toBe(context.type);
        expect(handle.cwd.startsWith('/'), 'cwd is absolute').toBe(true);
        const copy = JSON.parse(JSON.stringify(handle)) as ContextHandle;
        expect(copy).toEqual({ ...handle });
        if (context.capabilities.shell) {
          expect((await context.exec(copy, 'echo copy')).stdout).toBe('copy\n');
        } else if (context.capabilities.filesystem) {
          await context.writeFile(copy, `${fx.scratch}/copy.txt`, 'copy');
          expect(await context.readFile(handle, `${fx.scratch}/copy.txt`)).toBe('copy');
        }
        const other = await fx.spawn();
        expect(other.id, 'two spawns give two ids').not.toBe(handle.id);
      },
    },
    {
      id: 'handles/spawn-cwd',
      title: "spawn honours SpawnConfig.cwd: the handle's cwd is the one asked for",
      needs: ['shell'],
      run: async ({ fx, context }) => {
        const config = await fx.options.spawnConfig();
        const handle = await fx.spawn();
        if (config?.cwd !== undefined) expect(handle.cwd).toBe(config.cwd);
        const chosen = await fx.spawn({ cwd: fx.scratch });
        expect(chosen.cwd).toBe(fx.scratch);
        const physical = (await fx.sh(`cd ${shQuote(fx.scratch)} && pwd -P`)).trim();
        expect((await context.exec(chosen, 'pwd -P')).stdout.trim()).toBe(physical);
      },
    },
    {
      id: 'handles/unknown',
      title: 'a handle this context never spawned is an UnknownHandleError (E_UNKNOWN_HANDLE)',
      needs: [],
      exercises: [],
      run: async ({ context, handle }) => {
        const stranger: ContextHandle = {
          id: 'berth-conformance-never-spawned',
          type: context.type,
          cwd: handle.cwd,
        };
        if (context.capabilities.shell)
          await expectBerthError(context.exec(stranger, 'true'), 'E_UNKNOWN_HANDLE', 'exec');
        if (context.capabilities.filesystem) {
          await expectBerthError(
            context.readFile(stranger, `${handle.cwd}/x`),
            'E_UNKNOWN_HANDLE',
            'readFile',
          );
          await expectBerthError(context.listFiles(stranger, handle.cwd), 'E_UNKNOWN_HANDLE', 'listFiles');
        }
        if (context.listBackground) {
          await expectBerthError(context.listBackground(stranger), 'E_UNKNOWN_HANDLE', 'listBackground');
        }
      },
    },
    {
      id: 'handles/malformed',
      title:
        'something that is not a handle (null, a string, an object without an id) is an InvalidArgumentError',
      needs: [],
      exercises: [],
      run: async ({ context, handle }) => {
        for (const bad of [null, 'process-1', { type: context.type, cwd: handle.cwd }]) {
          const forged = bad as unknown as typeof handle;
          const what = JSON.stringify(bad);
          if (context.capabilities.shell) {
            await expectBerthError(context.exec(forged, 'true'), 'E_INVALID_ARGUMENT', `exec(${what})`);
          }
          if (context.capabilities.filesystem) {
            await expectBerthError(
              context.readFile(forged, `${handle.cwd}/x`),
              'E_INVALID_ARGUMENT',
              `readFile(${what})`,
            );
          }
          await expectBerthError(context.destroy(forged), 'E_INVALID_ARGUMENT', `destroy(${what})`);
        }
      },
    },
    {
      id: 'handles/destroy',
      title: 'destroy is idempotent and the destroyed handle is refused with E_UNKNOWN_HANDLE',
      needs: [],
      exercises: [],
      run: async ({ fx, context }) => {
        const handle = await fx.spawn();
        await context.destroy(handle);
        await mustSettleWithin('a second destroy', context.destroy(handle));
        if (context.capabilities.shell)
          await expectBerthError(context.exec(handle, 'true'), 'E_UNKNOWN_HANDLE', 'exec after destroy');
        if (context.capabilities.filesystem) {
          await expectBerthError(
            context.readFile(handle, `${handle.cwd}/x`),
            'E_UNKNOWN_HANDLE',
            'readFile after destroy',
          );
          await expectBerthError(
            context.writeFile(handle, `${fx.scratch}/x`, 'x'),
            'E_UNKNOWN_HANDLE',
            'writeFile after destroy',
          );
        }
        if (context.execBackground) {
          await expectBerthError(
            context.execBackground(handle, 'true'),
            'E_UNKNOWN_HANDLE',
            'execBackground after destroy',
          );
        }
        if (context.execStream) {
          await expectBerthError(
            context.execStream(handle, 'true'),
            'E_UNKNOWN_HANDLE',
            'execStream after destroy',
          );
        }
      },
    },
    {
      id: 'handles/destroy-running-exec',
      title: 'destroy ends an exec still running on the handle: the call settles and its tree is gone',
      needs: ['shell'],
      run: async ({ fx, context, dir, note }) => {
        const handle = await fx.spawn();
        await fx.sh(`mkdir -p ${shQuote(dir)}`, handle);
        const pidFile = `${dir}/child.pid`;
        const running = context.exec(
          handle,
          `${grandchildCommand(pidFile)}\n${waitForFileCommand(pidFile)}; sleep 300`,
          {
            timeoutMs: SOON_MS * 6,
          },
        );
        running.catch(() => undefined);
        await waitUntil('the command to plant its grandchild', () => fx.exists(pidFile, handle));
        const watch = await fx.watchAcross(pidFile, 'destroy', handle);
        await mustSettleWithin('destroy', context.destroy(handle), SOON_MS * 2);
        await mustSettleWithin(
          'the running exec after destroy',
          running.then(
            () => undefined,
            () => undefined,
          ),
        );
        if (fx.expectWatchableAcross(watch)) await fx.expectGone([watch], 'destroy', note);
      },
    },
    {
      id: 'handles/destroy-ends-leftovers',
      title: 'destroy also ends a process a command of the handle left running after the command returned',
      needs: ['shell'],
      run: async ({ fx, context, dir, note }) => {
        const handle = await fx.spawn();
        await fx.sh(`mkdir -p ${shQuote(dir)}`, handle);
        const pidFile = `${dir}/leftover.pid`;
        // Detached from the command's pipes, so the command returns while it keeps running.
        const started = await context.exec(
          handle,
          `{ ${grandchildCommand(pidFile)}\n} >/dev/null 2>&1 </dev/null\n${waitForFileCommand(pidFile)}; echo started`,
          { timeoutMs: SOON_MS },
        );
        expect(started.stdout).toBe('started\n');
        fx.addCleanup(async () => {
          const planted = await fx.readPlanted(pidFile).catch(() => undefined);
          if (planted && (await fx.isAlive(planted))) await fx.sh(`kill -9 ${planted.pid}`);
        });
        // The pid file is visible to the handle, so its heartbeat is too: a process neither alive by
        // pid nor beating has ended (some contexts end a command's leftovers when it returns).
        const stillRunning = await fx.watch(pidFile, 'leftover', handle).then(
          () => true,
          () => false,
        );
        const declared = fx.options.leftovers;
        if (!stillRunning) {
          await context.destroy(handle);
          expect(
            declared,
            "the context ended the command's leftover when the command returned: declare leftovers: 'ended-on-return'",
          ).toBe('ended-on-return');
          return;
        }
        expect(
          declared,
          "the leftover still runs after its command returned: declare leftovers: 'kept-until-destroy' (or end it on return)",
        ).toBe('kept-until-destroy');
        const watch = await fx.watchAcross(pidFile, 'destroy', handle);
        await mustSettleWithin('destroy', context.destroy(handle), SOON_MS * 2);
        if (fx.expectWatchableAcross(watch)) await fx.expectGone([watch], 'destroy', note);
      },
    },
  ],
};
