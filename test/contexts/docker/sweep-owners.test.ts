/**
 * `sweepDockerContainers()` removes only what this host abandoned. Containers are made on the real
 * engine with berth's ownership labels naming different owners; the sweep must remove the one whose
 * owner ran on this host and is gone, and keep every other one: another host's (whatever its pid
 * says, since that pid means nothing here), a live process's on this host, and a container berth
 * does not manage. Only the containers this test made are created and removed.
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import http from 'node:http';
import { hostname } from 'node:os';
import { expect, it } from 'vitest';
import { sweepDockerContainers } from '../../../src/contexts/docker/index.js';
import {
  HANDLE_LABEL,
  MANAGED_LABEL,
  OWNER_HOST_LABEL,
  OWNER_PID_LABEL,
} from '../../../src/contexts/docker/ownership.js';
import { newSleepMarker } from '../../support/process-markers.js';
import { describeDocker, ENGINE_SOCKET, engineGet, TEST_IMAGE } from './docker-engine.js';

function engineRequest(
  method: 'POST' | 'DELETE',
  path: string,
  body?: unknown,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { socketPath: ENGINE_SOCKET, path, method, headers: { 'Content-Type': 'application/json' } },
      (res) => {
        let text = '';
        res.on('data', (chunk) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

/** A pid that belonged to a process of this host that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
    encoding: 'utf8',
  });
  return Number(child.stdout);
}

async function exists(id: string): Promise<boolean> {
  const inspected = await engineGet(`/containers/${id}/json`);
  if (inspected.status !== 200 && inspected.status !== 404) {
    throw new Error(`inspecting ${id} answered HTTP ${inspected.status}: ${inspected.body}`);
  }
  return inspected.status === 200;
}

describeDocker('sweepDockerContainers and other owners', () => {
  it("removes this host's container whose owner is gone, and keeps other hosts', live owners' and unmanaged ones", async () => {
    const made: string[] = [];
    const create = async (name: string, labels: Record<string, string>): Promise<string> => {
      const created = await engineRequest('POST', `/containers/create?name=${name}-${process.pid}`, {
        Image: TEST_IMAGE,
        Cmd: ['sleep', '300'],
        Labels: labels,
      });
      expect(created.status, created.body).toBe(201);
      const id = (JSON.parse(created.body) as { Id: string }).Id;
      made.push(id);
      return id;
    };
    const berthLabels = (host: string, pid: number, handle: string) => ({
      [MANAGED_LABEL]: 'true',
      [OWNER_HOST_LABEL]: host,
      [OWNER_PID_LABEL]: String(pid),
      [HANDLE_LABEL]: handle,
    });
    // A live process of this host that is not the test process (whose own pid sweep spares by identity).
    const liveOwner = spawn('sleep', [newSleepMarker()], { stdio: 'ignore' });
    await once(liveOwner, 'spawn');
    const gone = deadPid();
    const otherHost = `berth-test-other-host-${process.pid}`;
    expect(otherHost).not.toBe(hostname());
    try {
      const abandoned = await create('berth-sweep-abandoned', berthLabels(hostname(), gone, 'h-abandoned'));
      const kept = {
        // Another host's container whose pid is not running here: its owner cannot be seen, so it stays.
        otherHostDeadPid: await create(
          'berth-sweep-other-dead',
          berthLabels(otherHost, gone, 'h-other-dead'),
        ),
        // Another host's container naming this very process's pid: still not ours.
        otherHostOurPid: await create(
          'berth-sweep-other-ours',
          berthLabels(otherHost, process.pid, 'h-other-ours'),
        ),
        // This host, owner alive.
        liveOwner: await create('berth-sweep-live', berthLabels(hostname(), liveOwner.pid!, 'h-live')),
        // Owner labels but not berth's managed label: not berth's to remove.
        unmanaged: await create('berth-sweep-unmanaged', {
          [OWNER_HOST_LABEL]: hostname(),
          [OWNER_PID_LABEL]: String(gone),
        }),
      };
      const removed = await sweepDockerContainers();
      // The live owner really was alive while the sweep judged it (a bad argv would end it at once).
      expect(liveOwner.exitCode).toBeNull();
      expect(process.kill(liveOwner.pid!, 0)).toBe(true);
      expect(removed).toContain(abandoned);
      expect(await exists(abandoned)).toBe(false);
      for (const [which, id] of Object.entries(kept)) {
        expect(removed, `${which} was removed`).not.toContain(id);
        expect(await exists(id), `${which} is gone`).toBe(true);
      }
    } finally {
      liveOwner.kill('SIGKILL');
      for (const id of made) {
        const deleted = await engineRequest('DELETE', `/containers/${id}?force=1`);
        expect([204, 404]).toContain(deleted.status);
      }
    }
  });
});
