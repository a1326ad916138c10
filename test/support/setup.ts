// Runs in every test file: after each test, end whatever still carries one of its markers.
import { afterEach } from 'vitest';
import { killMarkedProcesses } from './process-markers.js';

afterEach(() => {
  killMarkedProcesses();
});
