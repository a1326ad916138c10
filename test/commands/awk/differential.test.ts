/**
 * awk against the real gawk (C.UTF-8, TZ=UTC): every case runs through both and must agree on
 * stdout, stderr and the exit status byte for byte. The virtual command is called `gawk` here so
 * the messages' prefix matches.
 */
import { describe, expect, it } from 'vitest';
import { awkCommand } from '../../../src/commands/awk/awk.js';
import { createMemoryFilesystem } from '../../../src/vfs/index.js';
import { runGnu, runVirtual } from '../support/gnu-oracle.js';
import { CORPUS } from './corpus.js';
import { hostShell } from './support/host-shell.js';

const gawk = awkCommand('gawk').run;
const commands = new Map([['sh', hostShell]]);

describe('awk vs gawk', () => {
  for (const [group, cases] of Object.entries(CORPUS)) {
    describe(group, () => {
      for (const c of cases) {
        it(c.argv.slice(1).join(' ').slice(0, 120), async () => {
          const fs = createMemoryFilesystem();
          const [real, mine] = await Promise.all([runGnu(c), runVirtual(gawk, c, fs, { commands })]);
          expect(mine).toEqual(real);
        });
      }
    });
  }
});
