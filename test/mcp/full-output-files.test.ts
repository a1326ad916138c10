import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BerthMcp, startBerthMcp, textOf } from './support/berth-mcp-client.js';

const outputDirs = () => readdirSync(tmpdir()).filter((name) => name.startsWith('berth-output-'));

for (const flags of [[], ['--no-sandbox']]) {
  describe(`every cut result names a file read_file and grep can open (berth mcp ${flags.join(' ') || 'sandboxed'})`, () => {
    let mcp: BerthMcp;
    let dirsBefore: string[];
    beforeAll(async () => {
      dirsBefore = outputDirs();
      mcp = await startBerthMcp(flags);
    });
    afterAll(() => mcp?.close());

    const fullPath = (text: string) =>
      /(?:Full \w+ \([^)]+\)(?: saved to)?:? )(\/\S+?);? read it/.exec(text)?.[1];

    it('output between the budget and the context capture is saved where read_file reads it', async () => {
      const text = textOf(await mcp.call('bash', { command: 'seq 1 9000', timeout_ms: 30_000 }));
      const path = fullPath(text);
      expect(path, text).toBeDefined();
      expect(text).not.toMatch(/could not be saved/);
      const read = await mcp.call('read_file', { path, offset: 8999, limit: 5 });
      expect(read.isError, textOf(read)).toBeFalsy();
      expect(textOf(read)).toMatch(/^ {2}8999\t8999\n {2}9000\t9000/);
      const grep = await mcp.call('grep', { pattern: '^4500$', path, output_mode: 'content' });
      expect(textOf(grep)).toBe(`1 matching line in 1 file:\n${path}:4500:4500`);
    });

    it("the context's spill file of output over its capture is readable too", async () => {
      const text = textOf(await mcp.call('bash', { command: 'seq 1 700000 >&2', timeout_ms: 30_000 }));
      const path = fullPath(text);
      expect(path, text).toMatch(/stderr-.*\.out$/);
      const read = await mcp.call('read_file', { path, offset: 699_999, limit: 2 });
      expect(textOf(read)).toMatch(/^699999\t699999\n700000\t700000/);
      const grep = await mcp.call('grep', { pattern: '^123456$', path, output_mode: 'count' });
      expect(textOf(grep)).toBe(`1 matching line in 1 file:\n${path}:1`);
    });

    it('nothing else outside the root is: not the private directory, nor a name beside a kept file', async () => {
      const text = textOf(await mcp.call('bash', { command: 'seq 1 9000', timeout_ms: 30_000 }));
      const path = fullPath(text)!;
      const dir = path.slice(0, path.lastIndexOf('/'));
      for (const [tool, args] of [
        ['list_dir', { path: dir }],
        ['read_file', { path: `${dir}/other.txt` }],
        ['read_file', { path: `${path}.bak` }],
        ['grep', { pattern: 'x', path: dir }],
        ['write_file', { path, content: 'overwritten' }],
      ] as const) {
        const result = await mcp.call(tool, args);
        expect(result.isError, `${tool} ${JSON.stringify(args)}: ${textOf(result)}`).toBe(true);
      }
      expect(textOf(await mcp.call('read_file', { path, offset: 1, limit: 1 }))).toMatch(/^ {5}1\t1/);
    });

    it('leaves no berth-output directories in the temp directory', () => {
      expect(outputDirs().filter((name) => !dirsBefore.includes(name))).toEqual([]);
    });
  });
}
