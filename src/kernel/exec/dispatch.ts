/**
 * Running what a name resolved to: a shell function (a new scope and positional parameters), a
 * builtin, a registered or host-defined command, a script of the virtual filesystem (a new shell
 * process), or an allowed external command. Also the dispatcher commands use to run commands
 * (`xargs`, `timeout`, `env`, ...), which goes through the same chain and the same gate.
 * @module
 */
import type { ByteReader, ByteWriter, CommandDispatch, CommandKind } from '../../commands/command.js';
import type { BuiltinCall, DeclArg } from '../builtins/types.js';
import { limitReached } from '../limits.js';
import { ExitControl, isControl, ReturnControl, SignalControl } from '../runtime/control.js';
import { ShellError } from '../runtime/errors.js';
import { JobTable } from '../runtime/jobs.js';
import { ReaderFile, WriterFile } from '../runtime/open-file.js';
import { resolvePath } from '../runtime/paths.js';
import type { FunctionEntry, Shell } from '../runtime/shell.js';
import { exportedEnv, setAttributes, setVar, unsetVar } from '../runtime/vars.js';
import { ATTR_EXPORT, ATTR_TRACE } from '../state/variables.js';
import type { Redirect } from '../syntax/ast.js';
import { runBashCommand } from './bash-command.js';
import { runFunctionBody } from './compound.js';
import { invokeExternal, invokeHandler } from './invoke.js';
import { WriteError } from './io.js';
import { type Resolved, resolveCommand } from './lookup.js';
import { errorPrefix, shellMessage, writeStderr } from './messages.js';
import { runShellProcess } from './process.js';
import { runDebugTrap, runTrap } from './trap.js';

export interface RunExtras {
  readonly decl?: readonly DeclArg[] | undefined;
  readonly redirects?: readonly Redirect[] | undefined;
  /** `name=value` prefixes for a command's environment. */
  readonly env?: ReadonlyMap<string, string> | undefined;
}

export async function runResolved(
  sh: Shell,
  r: Resolved,
  argv: readonly string[],
  extras: RunExtras = {},
): Promise<number> {
  switch (r.kind) {
    case 'function':
      return callFunction(sh, r.entry, argv);
    case 'builtin':
      return runBuiltin(sh, r.builtin, { sh, argv, decl: extras.decl, redirects: extras.redirects });
    case 'command':
      return invokeHandler(sh, r.command.spec.run, argv, extras.env);
    case 'script':
      return runScriptFile(sh, r.path, argv, extras.env);
    case 'external':
      return invokeExternal(sh, argv, extras.env);
    case 'shell':
      return runBashCommand(sh, argv, extras.env);
    case 'error':
      await shellMessage(sh, r.message);
      return r.status;
  }
}

export async function runBuiltin(
  sh: Shell,
  builtin: { run(call: BuiltinCall): Promise<number> },
  call: BuiltinCall,
): Promise<number> {
  try {
    return await builtin.run(call);
  } catch (error) {
    if (error instanceof WriteError) {
      await writeStderr(sh, `${errorPrefix(sh)}${call.argv[0]}: write error: ${error.reason}\n`);
      return 1;
    }
    if (error instanceof ShellError && error.effect === 'status') {
      await shellMessage(sh, error.message);
      return error.status;
    }
    throw error;
  }
}

/** Call a shell function with `argv` (`argv[0]` its name). */
export async function callFunction(
  sh: Shell,
  entry: FunctionEntry,
  argv: readonly string[],
): Promise<number> {
  const limits = sh.rt.limits;
  const funcnest = sh.vars.find('FUNCNEST');
  const nest =
    typeof funcnest?.variable.value === 'string' ? Number.parseInt(funcnest.variable.value, 10) : 0;
  const name = argv[0] as string;
  if (nest > 0 && sh.callStack.filter((f) => f.name !== 'source' && f.name !== 'main').length >= nest) {
    await shellMessage(sh, `${name}: maximum function nesting level exceeded (${nest})`);
    throw new ExitControl(1);
  }
  if (sh.callDepth >= limits.maxCallDepth) throw limitReached(limits, 'maxCallDepth');
  const savedPositional = sh.positional;
  const savedLine = sh.line;
  const savedSource = sh.source;
  sh.positional = argv.slice(1);
  const temp = sh.callTemp;
  sh.callTemp = undefined;
  const restoreTemp =
    temp !== undefined && sh.vars.scopes[sh.vars.scopes.length - 1] === temp
      ? sh.vars.adoptAsFunction(temp)
      : undefined;
  if (restoreTemp === undefined) sh.vars.push('function');
  sh.callStack.push({ name, source: entry.source, callLine: sh.line });
  sh.callDepth += 1;
  sh.source = entry.source;
  const savedLoop = sh.loopDepth;
  sh.loopDepth = 0;
  // A function inherits the DEBUG and RETURN traps only when traced (`set -T`, `declare -t`):
  // otherwise they are unset while it runs and put back after (a trap it sets itself stays).
  const traced = sh.opts.o('functrace') || (entry.attrs & ATTR_TRACE) !== 0;
  const savedDebug = traced ? undefined : sh.traps.get('DEBUG');
  const savedReturn = traced ? undefined : sh.traps.get('RETURN');
  if (savedDebug !== undefined) sh.traps.delete('DEBUG');
  if (savedReturn !== undefined) sh.traps.delete('RETURN');
  let status = 0;
  try {
    if (traced && sh.traps.has('DEBUG')) await runDebugTrap(sh);
    status = await runFunctionBody(sh, entry.definition.body);
  } catch (error) {
    if (error instanceof ReturnControl) status = error.status;
    else throw error;
  } finally {
    sh.loopDepth = savedLoop;
    sh.callDepth -= 1;
    if (sh.traps.has('RETURN') && sh.inTrap !== 'RETURN') await runTrap(sh, 'RETURN').catch(() => {});
    if (savedDebug !== undefined) sh.traps.set('DEBUG', savedDebug);
    if (savedReturn !== undefined) sh.traps.set('RETURN', savedReturn);
    sh.callStack.pop();
    if (restoreTemp !== undefined) restoreTemp();
    else sh.vars.pop();
    sh.positional = savedPositional;
    sh.line = savedLine;
    sh.source = savedSource;
  }
  return status;
}

/** Run an executable file of the virtual filesystem (a script) as a new shell process. */
async function runScriptFile(
  sh: Shell,
  path: string,
  argv: readonly string[],
  env: ReadonlyMap<string, string> | undefined,
): Promise<number> {
  let bytes: Uint8Array;
  try {
    bytes = await sh.rt.fs.readFile(path);
  } catch {
    await shellMessage(sh, `${argv[0]}: No such file or directory`);
    return 127;
  }
  const binary = bytes[0] === 0x7f && bytes[1] === 0x45 && bytes[2] === 0x4c && bytes[3] === 0x46;
  if (binary) {
    // A host program: only the external gate can run it.
    if (sh.rt.external?.allows(argv)) return invokeExternal(sh, argv, env);
    await shellMessage(sh, `${argv[0]}: cannot execute binary file: Exec format error`);
    return 126;
  }
  const head = new TextDecoder().decode(bytes.subarray(0, Math.min(bytes.length, 256)));
  const shebang = /^#![ \t]*([^ \t\n]+)(?:[ \t]+([^\n]*))?/.exec(head);
  if (shebang !== null) {
    const interpreter = shebang[1] as string;
    const arg = shebang[2]?.trim();
    const base = interpreter.slice(interpreter.lastIndexOf('/') + 1);
    const name = base === 'env' && arg !== undefined ? (arg.split(/\s+/)[0] as string) : base;
    if (name !== 'bash' && name !== 'sh') {
      if (sh.rt.external?.allows(argv)) return invokeExternal(sh, argv, env);
      // Another interpreter: run it if it is a command we have (`python3 script`).
      const interpArgv =
        base === 'env'
          ? [...(arg ?? '').split(/\s+/), path, ...argv.slice(1)]
          : [interpreter, ...(arg ? [arg] : []), path, ...argv.slice(1)];
      const r = await resolveCommand(sh, interpArgv[0] as string, interpArgv);
      if (r.kind === 'error') {
        await shellMessage(sh, `${argv[0]}: ${interpreter}: bad interpreter: No such file or directory`);
        return 126;
      }
      return runResolved(sh, r, interpArgv, { env });
    }
  }
  if (bytes.length > sh.rt.limits.maxStringBytes) {
    throw limitReached(sh.rt.limits, 'maxStringBytes', `a script of ${bytes.length} bytes`);
  }
  const text = new TextDecoder().decode(bytes);
  return runShellProcess(sh, {
    text,
    arg0: argv[0] as string,
    args: argv.slice(1),
    mode: 'file',
    name: argv[0] as string,
    env,
  });
}

/** The dispatcher a command gets for running other commands, bound to the shell it runs in. */
export function makeDispatch(sh: Shell): CommandDispatch {
  return {
    classify(name: string): CommandKind {
      if (sh.functions.get(name) !== undefined) return 'function';
      return 'command';
    },
    async run(argv, io) {
      const name = argv[0];
      if (name === undefined) return 0;
      const child = sh.fork(new JobTable());
      try {
        child.fds.set(0, new ReaderFile(io.stdin));
        child.fds.set(1, new WriterFile(borrowWriter(io.stdout)));
        child.fds.set(2, new WriterFile(borrowWriter(io.stderr)));
        if (io.cwd !== undefined) child.cwd = resolvePath(sh.cwd, io.cwd);
        if (io.env !== undefined) applyEnv(child, io.env);
        const r = await resolveCommand(child, name, argv);
        if (r.kind === 'error') return r.status;
        return await runResolved(child, r, argv);
      } catch (error) {
        if (error instanceof ExitControl) return error.status;
        if (error instanceof SignalControl) return error.status;
        if (isControl(error)) throw error;
        throw error;
      } finally {
        child.dispose();
      }
    },
  };
}

/** A writer whose `close` does not close the borrowed stream (the caller owns it). */
function borrowWriter(w: ByteWriter): ByteWriter {
  return { write: (b) => w.write(b), attachData: (v) => w.attachData(v), close: () => Promise.resolve() };
}

function applyEnv(child: Shell, env: ReadonlyMap<string, string>): void {
  for (const name of exportedEnv(child).keys()) {
    if (env.has(name)) continue;
    try {
      unsetVar(child, name);
    } catch {
      // readonly: leave it
    }
  }
  for (const [k, v] of env) {
    try {
      setVar(child, k, v);
      setAttributes(child, k, ATTR_EXPORT, 0);
    } catch {
      // readonly: leave it
    }
  }
}

export type { ByteReader };
