// berth's own files (task logs, spill files) against a sandboxed command whose policy makes the
// temp directory writable (`writableRoots: [root, '/tmp']`, as docs/sandbox.md suggests for sharing
// scratch files), and against links planted on the host side as if a command could reach them.
import { lstatSync, readFileSync, renameSync, rmSync, symlinkSync, unlinkSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProcessContext, type ProcessContext } from '../../../src/contexts/process/index.js';
import type { ContextHandle } from '../../../src/contract/types.js';
import { createSandboxPolicy } from '../../../src/sandbox/index.js';
import { makeScene, type Scene } from './fake-home.js';

let scene: Scene;
let context: ProcessContext;
let handle: ContextHandle;

beforeAll(async () => {
  scene = makeScene('private');
  const sandbox = createSandboxPolicy({ writableRoots: [scene.ws, '/tmp'], home: scene.home, env: {} });
  context = createProcessContext({ sandbox, killGraceMs: 500, output: { maxOutputBytes: 1024 } });
  handle = await context.spawn({ cwd: scene.ws });
});

afterAll(async () => {
  await context?.close();
  scene?.remove();
});

async function finishedTask(command: string) {
  const task = await context.execBackground!(handle, command);
  const exit = await context.waitBackground!(handle, task.id, { timeoutMs: 10_000 });
  expect(exit?.exitCode, `background task ${command}`).toBe(0);
  return task;
}

/** 5000 bytes of `letter` on stdout: more than maxOutputBytes, so it spills. */
const bigOutput = (letter: string) => `head -c 5000 /dev/zero | tr '\\0' ${letter}`;

describe('the scene holds (controls)', () => {
  it('commands cannot read the key nor write outside', async () => {
    const result = await context.exec(handle, `cat ${scene.keyPath}; touch ${scene.outside}/x`);
    expect(result.stdout).not.toContain(scene.secret);
    expect(result.stderr).toMatch(/Read-only file system/);
    expect(scene.outsideEntries()).toEqual([]);
  });
});

describe('a sandboxed command against the private directory', () => {
  it('it cannot write into a log or a spill file either', async () => {
    const task = await finishedTask('echo original');
    const big = await context.exec(handle, bigOutput('c'));
    const attack = await context.exec(
      handle,
      `echo forged >> ${task.outputPath}; echo forged > ${big.stdoutFacts.spillPath}`,
    );
    expect(attack.stderr).toMatch(/Read-only file system/);
    expect(await context.readFile(handle, task.outputPath)).toBe('original\n');
    expect(readFileSync(big.stdoutFacts.spillPath!, 'utf8')).toBe('c'.repeat(5000));
  });
  it('read: it cannot swap its task log for a link to the hidden key', async () => {
    const task = await finishedTask('echo task-output');
    const attack = await context.exec(handle, `ln -sf ${scene.keyPath} ${task.outputPath}`);
    expect(attack.exitCode).not.toBe(0);
    expect(lstatSync(task.outputPath).isFile()).toBe(true);
    const text = await context.readFile(handle, task.outputPath);
    expect(text).not.toContain(scene.secret);
    expect(text).toBe('task-output\n');
  });

  it('write: it cannot replace the logs directory by a link out', async () => {
    const first = await finishedTask('true');
    const logs = dirname(first.outputPath);
    const attack = await context.exec(handle, `mv ${logs} ${logs}.old && ln -s ${scene.outside} ${logs}`);
    expect(attack.exitCode).not.toBe(0);
    const second = await finishedTask('echo contents-the-command-chose');
    expect(scene.outsideEntries()).toEqual([]);
    expect(await context.readFile(handle, second.outputPath)).toBe('contents-the-command-chose\n');
  });

  it('write: it cannot replace its spill directory by a link out', async () => {
    const big = await context.exec(handle, bigOutput('a'));
    expect(big.stdoutFacts.spillPath).not.toBeNull();
    const spills = dirname(big.stdoutFacts.spillPath!);
    const attack = await context.exec(
      handle,
      `mv ${spills} ${spills}.old && ln -s ${scene.outside} ${spills}`,
    );
    expect(attack.exitCode).not.toBe(0);
    const again = await context.exec(handle, bigOutput('b'));
    expect(scene.outsideEntries()).toEqual([]);
    expect(again.stdoutFacts.spillPath).not.toBeNull();
    expect(readFileSync(again.stdoutFacts.spillPath!, 'utf8')).toBe('b'.repeat(5000));
  });
});

// The same attacks carried out from the host, as if the sandbox's cover had failed: berth's host
// side holds its directories open and opens its files without following links.
describe('the host side does not follow links planted in the private directory', () => {
  it('read: a log replaced by a link to the key is refused, not followed', async () => {
    const task = await finishedTask('echo task-output');
    unlinkSync(task.outputPath);
    symlinkSync(scene.keyPath, task.outputPath);
    const read = context.readFile(handle, task.outputPath);
    await expect(read).rejects.toThrow(/replaced|symbolic link/);
    await expect(
      context.readFile(handle, task.outputPath).catch((e: Error) => e.message),
    ).resolves.not.toContain(scene.secret);
  });

  it('write: with the logs directory replaced by a link out, no log is created outside', async () => {
    const first = await finishedTask('true');
    const logs = dirname(first.outputPath);
    renameSync(logs, `${logs}.moved`);
    symlinkSync(scene.outside, logs);
    try {
      const started = context.execBackground!(handle, 'echo contents-the-command-chose');
      await expect(started).rejects.toThrow(/moved or replaced/);
      expect(scene.outsideEntries()).toEqual([]);
    } finally {
      unlinkSync(logs);
      renameSync(`${logs}.moved`, logs);
    }
  });

  it('write: with a spill directory replaced by a link out, no spill is created outside', async () => {
    const big = await context.exec(handle, bigOutput('d'));
    const spills = dirname(big.stdoutFacts.spillPath!);
    renameSync(spills, `${spills}.moved`);
    symlinkSync(scene.outside, spills);
    try {
      const again = await context.exec(handle, bigOutput('e'));
      expect(scene.outsideEntries()).toEqual([]);
      expect(again.stdoutFacts.spillPath).toBeNull();
      expect(again.stdout).toContain('e');
    } finally {
      unlinkSync(spills);
      rmSync(spills, { force: true });
      renameSync(`${spills}.moved`, spills);
    }
  });
});

describe('ranged reads of a log (for readers that page through it)', () => {
  it('read through the held directory, refused once the log was replaced', async () => {
    const { PrivateFiles } = await import('../../../src/contexts/process/private-files.js');
    const files = new PrivateFiles();
    try {
      const log = files.createLog(1024);
      log.write(Buffer.from('0123456789'));
      log.close();
      expect(Buffer.from(files.readLogRange(log.path, 2, 5)).toString()).toBe('23456');
      expect(Buffer.from(files.readLogRange(log.path, 8, 100)).toString()).toBe('89');
      expect(files.readLogRange(log.path, 50, 10).length).toBe(0);
      unlinkSync(log.path);
      symlinkSync(scene.keyPath, log.path);
      expect(() => files.readLogRange(log.path, 0, 100)).toThrow(/replaced by a symbolic link/);
      expect(() => files.readLogRange(scene.keyPath, 0, 100)).toThrow(/not a log of this context/);
    } finally {
      files.removeAll();
    }
  });
});
