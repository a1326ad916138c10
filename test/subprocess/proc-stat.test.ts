import { describe, expect, it } from 'vitest';
import {
  LocalSubprocessRuntime,
  parseProcStat,
  readProcStat,
  SubprocessRuntime,
} from '../../src/subprocess/index.js';

describe('/proc/<pid>/stat parsing', () => {
  it('reads fields after a comm holding spaces and parentheses', () => {
    const fields = [
      'S',
      '10',
      '20',
      '30',
      '34816',
      '40',
      ...Array.from({ length: 13 }, () => '0'),
      '123456',
      '0',
    ];
    const stat = parseProcStat(`4242 (a) b (c)) ${fields.join(' ')} 0 0 0`);
    expect(stat).toEqual({
      pid: 4242,
      comm: 'a) b (c)',
      state: 'S',
      ppid: 10,
      pgrp: 20,
      session: 30,
      tpgid: 40,
      startTime: 123456,
    });
  });

  it('rejects malformed lines', () => {
    expect(parseProcStat('garbage')).toBeUndefined();
    expect(parseProcStat('1 (x) S 0')).toBeUndefined();
  });

  it('reads this process', () => {
    const stat = readProcStat(process.pid);
    expect(stat?.pid).toBe(process.pid);
    expect(stat?.ppid).toBe(process.ppid);
    expect(stat?.comm.length).toBeGreaterThan(0);
    expect(readProcStat(2 ** 22 + 1)).toBeUndefined();
  });

  it('the local runtime is a SubprocessRuntime', async () => {
    const runtime = new LocalSubprocessRuntime();
    expect(runtime).toBeInstanceOf(SubprocessRuntime);
    await runtime.dispose();
  });
});
