/**
 * berth's jq against the real jq (Debian's jq 1.6) through real processes: stdout, stderr and
 * status byte for byte, over the corpus in oracle-cases.ts. Where jq 1.7 differs from 1.6 the case
 * gives the 1.7 outcome (graded by the jq 1.7 manual) and the test also checks that 1.6 differs,
 * so an override is never stale.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { jqCommand } from '../../../src/commands/jq/index.js';
import { createMemoryFilesystem } from '../../../src/vfs/index.js';
import { inCI } from '../../support/ci.js';
import { runGnu, runVirtual } from '../support/gnu-oracle.js';
import { JQ_ORACLE_CASES, ORACLE_FILES } from './oracle-cases.js';

const BATCH = 8;

const realJq = spawnSync('jq', ['--version'], { encoding: 'utf8' });
const haveJq = realJq.status === 0 && realJq.stdout.startsWith('jq-1.6');
if (inCI() && !haveJq) throw new Error('jq 1.6 is required in CI (apt-get install jq)');

describe.skipIf(!haveJq)('jq against the real jq', () => {
  it('has a corpus that names every option the issue lists', () => {
    const flags = new Set(JQ_ORACLE_CASES.flatMap((c) => c.argv.filter((a) => a.startsWith('-'))));
    for (const f of [
      '-r',
      '-j',
      '-c',
      '-n',
      '-s',
      '-e',
      '-S',
      '-a',
      '--tab',
      '--indent',
      '-R',
      '-C',
      '-M',
      '-f',
    ]) {
      expect(
        [...flags].some(
          (x) => x === f || (x.startsWith('-') && !x.startsWith('--') && x.includes(f.slice(1))),
        ),
      ).toBe(true);
    }
    for (const f of [
      '--arg',
      '--argjson',
      '--slurpfile',
      '--rawfile',
      '--args',
      '--jsonargs',
      '--seq',
      '--stream',
    ]) {
      expect(flags.has(f)).toBe(true);
    }
  });

  for (let start = 0; start < JQ_ORACLE_CASES.length; start += BATCH) {
    const batch = JQ_ORACLE_CASES.slice(start, start + BATCH);
    it(`cases ${start + 1}-${start + batch.length}`, async () => {
      const results = await Promise.all(
        batch.map(async (c) => {
          const oracleCase = { argv: ['jq', ...c.argv], stdin: c.stdin, files: ORACLE_FILES };
          const [gnu, mine] = await Promise.all([
            runGnu(oracleCase),
            runVirtual(jqCommand.run, oracleCase, createMemoryFilesystem()),
          ]);
          return { c, gnu, mine };
        }),
      );
      for (const { c, gnu, mine } of results) {
        const label = `jq ${JSON.stringify(c.argv)} <<< ${JSON.stringify(c.stdin)}`;
        if (c.jq17 === undefined) {
          expect(mine, label).toEqual(gnu);
        } else {
          const { why, ...expected } = c.jq17;
          expect(mine, `${label} (jq 1.7: ${why})`).toEqual(expected);
          expect(gnu, `${label}: jq 1.6 agrees now; drop the jq 1.7 override`).not.toEqual(expected);
        }
      }
    });
  }
});
