// macOS cannot run here: these tests pin the generated profile text and argv.
import { describe, expect, it } from 'vitest';
import {
  generateSandboxExecProfile,
  InvalidArgumentError,
  type SandboxPolicy,
  sandboxExecArgv,
} from '../../src/sandbox/index.js';
import { privateBasePaths } from '../../src/subprocess/private-dir.js';

/** berth's own files, excluded from every root's writes (this host's paths: the generator runs here). */
const privateParameters = Object.fromEntries(
  privateBasePaths().map((path, i) => [`BERTH_PRIVATE_${i}`, path]),
);
const privateExclusions = privateBasePaths().map(
  (_, i) => `      (require-not (subpath (param "BERTH_PRIVATE_${i}")))`,
);

const policy: SandboxPolicy = {
  writableRoots: ['/Users/ada/project', '/private/tmp/scratch'],
  network: 'deny',
  hiddenPaths: ['/Users/ada/.ssh', '/Users/ada/.netrc'],
  readOnlyPaths: ['.git/hooks', '.mcp.json'],
};

describe('generateSandboxExecProfile', () => {
  const generated = generateSandboxExecProfile(policy, { resolveSymlinks: false });

  it('passes every path as a parameter, none in the text', () => {
    expect(generated.parameters).toEqual({
      ...privateParameters,
      HIDDEN_0: '/Users/ada/.ssh',
      HIDDEN_1: '/Users/ada/.netrc',
      WRITABLE_ROOT_0: '/Users/ada/project',
      WRITABLE_ROOT_0_RO_0: '/Users/ada/project/.git/hooks',
      WRITABLE_ROOT_0_RO_1: '/Users/ada/project/.mcp.json',
      WRITABLE_ROOT_1: '/private/tmp/scratch',
      WRITABLE_ROOT_1_RO_0: '/private/tmp/scratch/.git/hooks',
      WRITABLE_ROOT_1_RO_1: '/private/tmp/scratch/.mcp.json',
    });
    expect(generated.profile).not.toContain('/Users/ada');
    expect(generated.profile).not.toContain('/private/tmp/scratch');
  });

  it('denies by default and scopes reads, writes and network as the policy says', () => {
    const text = generated.profile;
    expect(text.startsWith('(version 1)\n')).toBe(true);
    expect(text).toContain('(deny default)');
    expect(text).toContain(
      [
        '(allow file-read*',
        '  (require-not',
        '    (require-any',
        '      (subpath (param "HIDDEN_0"))',
        '      (subpath (param "HIDDEN_1"))',
        ')))',
      ].join('\n'),
    );
    expect(text).toContain(
      [
        '(allow file-write*',
        '  (require-all',
        '      (subpath (param "WRITABLE_ROOT_0"))',
        '      (require-not (subpath (param "WRITABLE_ROOT_0_RO_0")))',
        '      (require-not (subpath (param "WRITABLE_ROOT_0_RO_1")))',
        '      (require-not (subpath (param "HIDDEN_0")))',
        '      (require-not (subpath (param "HIDDEN_1")))',
        ...privateExclusions,
        '  )',
        '  (require-all',
        '      (subpath (param "WRITABLE_ROOT_1"))',
      ].join('\n'),
    );
    expect(text).toContain('(allow signal (target same-sandbox))');
    expect(text).not.toContain('(allow network');
    expect(text).not.toContain('dnssd');
    expect(text).toContain('; Network: denied');
    expect(balanced(text)).toBe(true);
  });

  it('allows the network only when the policy does', () => {
    const open = generateSandboxExecProfile(
      { ...policy, network: 'allow' },
      { resolveSymlinks: false },
    ).profile;
    expect(open).toContain('(allow network*)');
    expect(open).toContain('(global-name "com.apple.dnssd.service")');
    expect(balanced(open)).toBe(true);
  });

  it('with no writable roots and nothing hidden: reads everywhere, writes nowhere', () => {
    const text = generateSandboxExecProfile(
      { writableRoots: [], network: 'deny', hiddenPaths: [], readOnlyPaths: ['.git/hooks'] },
      { resolveSymlinks: false },
    );
    expect(text.parameters).toEqual({});
    expect(text.profile).toContain('(allow file-read*)\n');
    expect(text.profile).not.toContain('(allow file-write*');
    expect(balanced(text.profile)).toBe(true);
  });

  it('a path with quotes or parentheses cannot change the profile', () => {
    const hostile = '/Users/ada/x") (allow default) ("';
    const generatedHostile = generateSandboxExecProfile(
      { ...policy, writableRoots: [hostile] },
      { resolveSymlinks: false },
    );
    expect(generatedHostile.profile).not.toContain('(allow default)');
    expect(generatedHostile.parameters.WRITABLE_ROOT_0).toBe(hostile);
  });

  it('refuses a malformed policy', () => {
    expect(() => generateSandboxExecProfile({ ...policy, network: 'maybe' as 'deny' })).toThrow(
      InvalidArgumentError,
    );
  });
});

describe('sandboxExecArgv', () => {
  it('runs sandbox-exec with the profile, one -D per parameter, then -- and the argv untouched', () => {
    const generated = generateSandboxExecProfile(policy, { resolveSymlinks: false });
    const argv = sandboxExecArgv(generated, ['/bin/sh', '-c', 'echo "$HOME"']);
    expect(argv.slice(0, 3)).toEqual(['/usr/bin/sandbox-exec', '-p', generated.profile]);
    const count = Object.keys(generated.parameters).length;
    expect(argv.slice(3, 3 + count)).toEqual(
      Object.entries(generated.parameters).map(([k, v]) => `-D${k}=${v}`),
    );
    expect(argv.slice(3 + count)).toEqual(['--', '/bin/sh', '-c', 'echo "$HOME"']);
  });
});

/** Parentheses balance outside string literals and regex literals. */
function balanced(text: string): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === ';' && !inString) {
      while (i < text.length && text[i] !== '\n') i++;
      continue;
    }
    if (char === '"' && text[i - 1] !== '\\') inString = !inString;
    if (inString) continue;
    if (char === '(') depth++;
    if (char === ')') depth--;
    if (depth < 0) return false;
  }
  return depth === 0 && !inString;
}
