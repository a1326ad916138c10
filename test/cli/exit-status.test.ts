import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { EXIT_TIMEOUT, exitStatusOf } from '../../src/cli/exit-status.js';
import type { ExecResult } from '../../src/contract/types.js';
import { shellJoin } from '../../src/subprocess/shell-quote.js';

const facts = { bytesTotal: 0, truncated: false, omittedBytes: 0, spillPath: null };
function result(fields: Partial<ExecResult>): ExecResult {
  return {
    exitCode: 0,
    signal: null,
    stdout: '',
    stderr: '',
    timedOut: false,
    aborted: false,
    durationMs: 1,
    stdoutFacts: facts,
    stderrFacts: facts,
    ...fields,
  };
}

describe('exitStatusOf', () => {
  it('passes the exit code through', () => {
    expect(exitStatusOf(result({ exitCode: 0 }))).toBe(0);
    expect(exitStatusOf(result({ exitCode: 42 }))).toBe(42);
  });

  it('is 124 on timeout, like timeout(1), whatever the signal', () => {
    expect(exitStatusOf(result({ exitCode: null, signal: 'SIGKILL', timedOut: true }))).toBe(EXIT_TIMEOUT);
    expect(EXIT_TIMEOUT).toBe(124);
  });

  it('is 128 + the signal number for a signal and for an abort', () => {
    expect(exitStatusOf(result({ exitCode: null, signal: 'SIGTERM' }))).toBe(143);
    expect(exitStatusOf(result({ exitCode: null, signal: 'SIGKILL' }))).toBe(137);
    expect(exitStatusOf(result({ exitCode: null, signal: 'SIGTERM', aborted: true }), 'SIGINT')).toBe(130);
    expect(exitStatusOf(result({ exitCode: null, signal: 'SIGTERM', aborted: true }), 'SIGTERM')).toBe(143);
  });
});

describe('shellJoin', () => {
  it('leaves plain words bare and single-quotes the rest', () => {
    expect(shellJoin(['ls', '-la', './src'])).toBe('ls -la ./src');
    expect(shellJoin(['echo', 'a b', "it's", '$HOME', ''])).toBe(`echo 'a b' 'it'\\''s' '$HOME' ''`);
  });

  it('round-trips hostile words through a real sh', () => {
    const words = ['a b', "it's", '$HOME', '`id`', '*', 'semi;colon', 'new\nline', '', '-n', 'ünï'];
    const out = execFileSync('sh', ['-c', `printf '%s|' ${shellJoin(words)}`], { encoding: 'utf8' });
    expect(out).toBe(`${words.join('|')}|`);
  });
});
