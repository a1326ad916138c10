// The build's last step: a stamp whose mtime says when dist/ was made from src/, so tests that run
// the built CLI can tell a stale build (test/support/fresh-dist.ts).
import { writeFileSync } from 'node:fs';

writeFileSync(new URL('../dist/.build-stamp', import.meta.url), `${new Date().toISOString()}\n`);
