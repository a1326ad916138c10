/**
 * The compatibility ratchet: every case listed in bench/compat/<suite>.passing.txt must still
 * pass (the list only grows: `node bench/compat/<suite>.mjs --write-ratchet` rewrites it).
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  type CompatCase,
  type CompatOutcome,
  compatDir,
  gradeGrep,
  gradeSed,
  loadGrepCases,
  loadSedCases,
  readRatchet,
} from '../../bench/compat/suites.mjs';
import type { CommandHandler } from '../../src/commands/command.js';
import { grepCommands } from '../../src/commands/grep/index.js';
import { sedCommands } from '../../src/commands/sed/index.js';
import { runStandalone } from '../../src/commands/standalone.js';
import { createMemoryFilesystem } from '../../src/vfs/index.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dir = compatDir(root);

async function run(handler: CommandHandler, c: CompatCase): Promise<CompatOutcome> {
  const fs = createMemoryFilesystem();
  await fs.mkdir('/work', { recursive: true });
  for (const [name, text] of Object.entries(c.files ?? {}))
    await fs.writeFile(`/work/${name}`, new TextEncoder().encode(text));
  const r = await runStandalone(handler, {
    argv: c.argv,
    fs,
    cwd: '/work',
    stdin: new TextEncoder().encode(c.stdin),
    env: { LC_ALL: 'C.UTF-8' },
  });
  return { status: r.status, stdout: new TextDecoder().decode(r.stdout) };
}

const suites = [
  {
    name: 'grep',
    load: loadGrepCases,
    grade: gradeGrep,
    handler: (grepCommands[0] as { run: CommandHandler }).run,
  },
  {
    name: 'sed',
    load: loadSedCases,
    grade: gradeSed,
    handler: (sedCommands[0] as { run: CommandHandler }).run,
  },
];

describe('compatibility ratchet', () => {
  it('finds the compatibility suites', () => {
    expect(existsSync(dir), `no compatibility suites at ${dir} (set BERTH_COMPAT_DIR)`).toBe(true);
  });
  for (const suite of suites) {
    it(`${suite.name}: every listed case still passes`, async () => {
      const listed = readRatchet(
        fileURLToPath(new URL(`../../bench/compat/${suite.name}.passing.txt`, import.meta.url)),
      );
      expect(listed.length).toBeGreaterThan(0);
      const cases = new Map(suite.load(dir).map((c) => [c.id, c]));
      const failing: string[] = [];
      for (const id of listed) {
        const c = cases.get(id);
        if (c === undefined || !suite.grade(c, await run(suite.handler, c))) failing.push(id);
      }
      expect(failing).toEqual([]);
    }, 120_000);
  }
});
