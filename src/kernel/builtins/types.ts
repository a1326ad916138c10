/**
 * The shape of a shell builtin. Builtins see the shell itself (they change its state: `cd`,
 * `set`, `read` into variables), unlike commands, which see only a `CommandContext`.
 * @module
 */

import type { Shell } from '../runtime/shell.js';
import type { ArrayItem } from '../runtime/vars.js';
import type { Redirect } from '../syntax/ast.js';

/** An argument of a declaration builtin (`declare`, `local`, `export`, `readonly`, `typeset`). */
export type DeclArg =
  | { readonly kind: 'word'; readonly text: string }
  | {
      readonly kind: 'assign';
      readonly name: string;
      /** `name[key]=...`: the key as expanded (for indexed arrays, an arithmetic expression). */
      readonly index?: string | undefined;
      readonly append: boolean;
      readonly value?: string | undefined;
      readonly array?: readonly ArrayItem[] | undefined;
      /** The word as written, for messages. */
      readonly text: string;
    };

export interface BuiltinCall {
  readonly sh: Shell;
  /** `argv[0]` is the builtin's name. */
  readonly argv: readonly string[];
  /** For declaration builtins: the arguments with assignments kept whole. */
  readonly decl?: readonly DeclArg[] | undefined;
  /** The simple command's redirections (for `exec` with no command). */
  readonly redirects?: readonly Redirect[] | undefined;
}

export interface Builtin {
  readonly name: string;
  /** POSIX special builtin (`:`, `.`, `break`, `eval`, `exec`, `exit`, `export`, ...). */
  readonly special?: boolean;
  /** Takes assignment words (`declare`, `local`, `export`, `readonly`, `typeset`). */
  readonly declaration?: boolean;
  /** `help`'s one line: the synopsis. */
  readonly synopsis: string;
  /** `help NAME`'s text after the synopsis. */
  readonly help: string;
  run(call: BuiltinCall): Promise<number>;
}
