import type { ShellCase } from '../support/bash-oracle.js';

type Entry = string | Omit<ShellCase, 'name'>;

/** Cases from a record of name → script (or script with stdin/files), names prefixed by topic. */
export function cases(topic: string, entries: Readonly<Record<string, Entry>>): ShellCase[] {
  return Object.entries(entries).map(([name, e]) =>
    typeof e === 'string' ? { name: `${topic}: ${name}`, script: e } : { name: `${topic}: ${name}`, ...e },
  );
}
