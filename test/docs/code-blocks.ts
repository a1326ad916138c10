/** The TypeScript code blocks of the README and docs/ that import berth: complete modules a user can paste. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface CodeBlock {
  /** `docs/vfs.md#2`: the file and the block's ordinal among the file's berth blocks. */
  readonly id: string;
  readonly source: string;
}

const FENCE = /^```(?:ts|typescript)\n([\s\S]*?)^```/gm;

export function berthCodeBlocks(repo: string): CodeBlock[] {
  const files = [
    'README.md',
    ...readdirSync(join(repo, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
  ];
  const blocks: CodeBlock[] = [];
  for (const file of files.sort()) {
    let n = 0;
    for (const m of readFileSync(join(repo, file), 'utf8').matchAll(FENCE)) {
      const source = m[1] ?? '';
      if (!/from 'berth(\/[a-z0-9-]+)?'/.test(source)) continue;
      n += 1;
      blocks.push({ id: `${file}#${n}`, source });
    }
  }
  return blocks;
}
