// tsc writes files without the execute bit; the CLI entry must run directly as `dist/cli/main.js`.
import { chmodSync } from 'node:fs';

chmodSync(new URL('../dist/cli/main.js', import.meta.url), 0o755);
