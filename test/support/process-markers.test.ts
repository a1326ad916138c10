import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { killMarkedProcesses, newSleepMarker, pidsWithMarker, waitForNoMarker } from './process-markers.js';

describe('process markers', () => {
  it('finds a marked process and kills every marked survivor (what the afterEach does)', async () => {
    const marker = newSleepMarker();
    const child = spawn('sleep', [marker], { detached: true, stdio: 'ignore' });
    child.unref();
    for (let i = 0; i < 200 && pidsWithMarker(marker).length === 0; i += 1)
      await new Promise((r) => setTimeout(r, 10));
    expect(pidsWithMarker(marker)).toEqual([child.pid]);
    expect(killMarkedProcesses()).toEqual([child.pid]);
    expect(await waitForNoMarker(marker)).toEqual([]);
    // Forgotten once killed: the next test starts with an empty list.
    expect(killMarkedProcesses()).toEqual([]);
  });
});
