/**
 * `killGraceMs: 0` follows one documented rule (on `ContextLimitOptions` and in docs/limits.md):
 * the Docker, Kubernetes and remote contexts take it as KILL at once; the process context refuses
 * it, because there the grace also bounds how long output is read after the command exits; the
 * virtual context refuses it, because there it is the time a cancelled script's traps get.
 */
import { describe, expect, it } from 'vitest';
import { resolveDockerOptions } from '../../src/contexts/docker/context-options.js';
import { resolveKubernetesOptions } from '../../src/contexts/kubernetes/context-options.js';
import { resolveProcessOptions } from '../../src/contexts/process/options.js';
import { resolveRemoteLimits } from '../../src/contexts/remote/remote-options.js';
import { resolveVirtualOptions } from '../../src/contexts/virtual/options.js';

describe('killGraceMs: 0', () => {
  it('is KILL at once for the Docker, Kubernetes and remote contexts', () => {
    expect(resolveDockerOptions({ killGraceMs: 0 }, {}).killGraceMs).toBe(0);
    expect(resolveKubernetesOptions({ killGraceMs: 0 }).killGraceMs).toBe(0);
    expect(resolveRemoteLimits({ killGraceMs: 0 }).killGraceMs).toBe(0);
  });

  it('is refused by the process and virtual contexts, naming the field and the range', () => {
    for (const resolve of [resolveProcessOptions, resolveVirtualOptions]) {
      expect(() => resolve({ killGraceMs: 0 })).toThrow(
        expect.objectContaining({
          code: 'E_INVALID_ARGUMENT',
          field: 'options.killGraceMs',
          message: expect.stringMatching(/must be an integer number of milliseconds in \[1, /),
        }),
      );
      expect(resolve({ killGraceMs: 1 }).killGraceMs).toBe(1);
    }
  });
});
