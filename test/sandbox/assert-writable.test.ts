import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  assertWritable,
  createSandboxPolicy,
  InvalidArgumentError,
  SandboxDeniedError,
  type SandboxPolicy,
} from '../../src/sandbox/index.js';

let base: string;
let root: string;
let policy: SandboxPolicy;

beforeAll(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'berth-sbx-write-')));
  root = join(base, 'root');
  mkdirSync(join(root, '.git', 'hooks'), { recursive: true });
  mkdirSync(join(root, 'src'));
  mkdirSync(join(base, 'outside'));
  mkdirSync(join(root, 'dotfiles'));
  writeFileSync(join(root, 'dotfiles', 'bashrc'), '');
  symlinkSync(join(root, 'dotfiles', 'bashrc'), join(root, '.bashrc'));
  symlinkSync(join(base, 'outside'), join(root, 'out-link'));
  symlinkSync(join(base, 'outside', 'new-file'), join(root, 'dangling'));
  symlinkSync(join(root, 'loop-a'), join(root, 'loop-b'));
  symlinkSync(join(root, 'loop-b'), join(root, 'loop-a'));
  policy = createSandboxPolicy({
    writableRoots: [root],
    home: base,
    env: {},
    hiddenPaths: [join(root, 'secrets')],
  });
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

function denied(path: string): SandboxDeniedError {
  try {
    assertWritable(policy, path);
  } catch (error) {
    expect(error).toBeInstanceOf(SandboxDeniedError);
    expect((error as SandboxDeniedError).code).toBe('E_SANDBOX_DENIED');
    expect((error as SandboxDeniedError).path).toBe(path);
    return error as SandboxDeniedError;
  }
  throw new Error(`expected ${path} to be denied`);
}

describe('assertWritable', () => {
  it('allows existing and new paths inside a root, and the root itself', () => {
    expect(() => assertWritable(policy, join(root, 'src', 'main.ts'))).not.toThrow();
    expect(() => assertWritable(policy, join(root, 'new-dir', 'deeper', 'file.txt'))).not.toThrow();
    expect(() => assertWritable(policy, root)).not.toThrow();
  });

  it('denies outside the roots, stating the roots', () => {
    const error = denied(join(base, 'outside', 'x'));
    expect(error.message).toContain('outside the writable roots');
    expect(error.message).toContain(root);
    denied('/etc/passwd');
    denied(join(root, '..', 'outside', 'x'));
  });

  it('a root-prefixed sibling is not inside the root', () => {
    denied(`${root}-sibling/file`);
  });

  it('follows symlinks, including a dangling final link and a link to a new file outside', () => {
    expect(denied(join(root, 'out-link', 'x')).message).toContain(join(base, 'outside', 'x'));
    denied(join(root, 'dangling'));
  });

  it('denies the read-only names and whatever lies beneath them', () => {
    expect(denied(join(root, '.git', 'hooks', 'pre-commit')).message).toContain('".git/hooks"');
    denied(join(root, '.git', 'config'));
    denied(join(root, '.mcp.json'));
    denied(join(root, '.vscode', 'settings.json'));
    expect(() => assertWritable(policy, join(root, '.git', 'HEAD'))).not.toThrow();
  });

  it('protects the target of a read-only name that is a symlink', () => {
    denied(join(root, '.bashrc'));
    expect(denied(join(root, 'dotfiles', 'bashrc')).message).toContain('".bashrc"');
  });

  it('denies writes into hidden paths', () => {
    expect(denied(join(root, 'secrets', 'token')).message).toContain('hidden path');
  });

  it('gives up on a symlink loop with a denial, not a hang', () => {
    expect(denied(join(root, 'loop-a')).message).toContain('symbolic links');
  });

  it('denies everything under a policy without writable roots', () => {
    const readOnly = createSandboxPolicy({ writableRoots: [], home: base, env: {} });
    expect(() => assertWritable(readOnly, join(root, 'x'))).toThrow(/writable roots: none/);
  });

  it('refuses relative and non-string paths with InvalidArgumentError', () => {
    expect(() => assertWritable(policy, 'relative/file')).toThrow(InvalidArgumentError);
    expect(() => assertWritable(policy, undefined as never)).toThrow(InvalidArgumentError);
  });
});
