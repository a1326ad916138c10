/**
 * The shell's options: `set -o` (with their single-letter flags and `$-`) and `shopt`, with
 * bash 5.2's defaults for a non-interactive shell, plus berth's `trash`.
 * @module
 */

/** `set -o` names, in `set -o`'s listing order, with their letters. */
export const SET_OPTIONS: readonly (readonly [name: string, letter: string | undefined, on: boolean])[] = [
  ['allexport', 'a', false],
  ['braceexpand', 'B', true],
  ['emacs', undefined, false],
  ['errexit', 'e', false],
  ['errtrace', 'E', false],
  ['functrace', 'T', false],
  ['hashall', 'h', true],
  ['histexpand', 'H', false],
  ['history', undefined, false],
  ['ignoreeof', undefined, false],
  ['interactive-comments', undefined, true],
  ['keyword', 'k', false],
  ['monitor', 'm', false],
  ['noclobber', 'C', false],
  ['noexec', 'n', false],
  ['noglob', 'f', false],
  ['nolog', undefined, false],
  ['notify', 'b', false],
  ['nounset', 'u', false],
  ['onecmd', 't', false],
  ['physical', 'P', false],
  ['pipefail', undefined, false],
  ['posix', undefined, false],
  ['privileged', 'p', false],
  ['trash', undefined, false],
  ['verbose', 'v', false],
  ['vi', undefined, false],
  ['xtrace', 'x', false],
];

/** `shopt` names with their defaults, in `shopt`'s listing order. */
export const SHOPT_OPTIONS: readonly (readonly [name: string, on: boolean])[] = [
  ['autocd', false],
  ['assoc_expand_once', false],
  ['cdable_vars', false],
  ['cdspell', false],
  ['checkhash', false],
  ['checkjobs', false],
  ['checkwinsize', true],
  ['cmdhist', true],
  ['compat31', false],
  ['compat32', false],
  ['compat40', false],
  ['compat41', false],
  ['compat42', false],
  ['compat43', false],
  ['compat44', false],
  ['complete_fullquote', true],
  ['direxpand', false],
  ['dirspell', false],
  ['dotglob', false],
  ['execfail', false],
  ['expand_aliases', false],
  ['extdebug', false],
  ['extglob', false],
  ['extquote', true],
  ['failglob', false],
  ['force_fignore', true],
  ['globasciiranges', true],
  ['globskipdots', true],
  ['globstar', false],
  ['gnu_errfmt', false],
  ['histappend', false],
  ['histreedit', false],
  ['histverify', false],
  ['hostcomplete', true],
  ['huponexit', false],
  ['inherit_errexit', false],
  ['interactive_comments', true],
  ['lastpipe', false],
  ['lithist', false],
  ['localvar_inherit', false],
  ['localvar_unset', false],
  ['login_shell', false],
  ['mailwarn', false],
  ['no_empty_cmd_completion', false],
  ['nocaseglob', false],
  ['nocasematch', false],
  ['noexpand_translation', false],
  ['nullglob', false],
  ['patsub_replacement', true],
  ['progcomp', true],
  ['progcomp_alias', false],
  ['promptvars', true],
  ['restricted_shell', false],
  ['shift_verbose', false],
  ['sourcepath', true],
  ['varredir_close', false],
  ['xpg_echo', false],
];

const LETTERS = new Map<string, string>(
  SET_OPTIONS.filter((o) => o[1] !== undefined).map((o) => [o[1] as string, o[0]]),
);

/** The option a `set` flag letter stands for. */
export function optionForLetter(letter: string): string | undefined {
  return LETTERS.get(letter);
}

/** The order bash lists flags in `$-`. */
const FLAG_ORDER = 'abefhkmnptuvxBCEHPT';

export const SET_OPTION_NAMES: ReadonlySet<string> = new Set(SET_OPTIONS.map((o) => o[0]));
export const SHOPT_NAMES: ReadonlySet<string> = new Set(SHOPT_OPTIONS.map((o) => o[0]));

/** Option values of one shell; copied (not shared) by a subshell. */
export class ShellOptions {
  readonly set: Map<string, boolean>;
  readonly shopt: Map<string, boolean>;
  /** `c` for `-c`, `s` for stdin, `i` interactive: the letters `$-` ends with. */
  invocation = 'c';

  constructor(from?: ShellOptions) {
    this.set = new Map(from?.set ?? SET_OPTIONS.map((o) => [o[0], o[2]]));
    this.shopt = new Map(from?.shopt ?? SHOPT_OPTIONS.map((o) => [o[0], o[1]]));
    if (from) this.invocation = from.invocation;
  }

  copy(): ShellOptions {
    return new ShellOptions(this);
  }

  /** `set -o NAME` value. */
  o(name: string): boolean {
    return this.set.get(name) === true;
  }

  /** `shopt NAME` value. */
  s(name: string): boolean {
    return this.shopt.get(name) === true;
  }

  /** `$-`. */
  flags(): string {
    let out = '';
    for (const letter of FLAG_ORDER) {
      const name = LETTERS.get(letter);
      if (name !== undefined && this.o(name)) out += letter;
    }
    return out + this.invocation;
  }

  /** `SHELLOPTS`: the enabled `set -o` names, colon-separated. */
  shellopts(): string {
    return SET_OPTIONS.filter((o) => this.o(o[0]) && o[0] !== 'trash')
      .map((o) => o[0])
      .join(':');
  }

  /** `BASHOPTS`: the enabled `shopt` names. */
  bashopts(): string {
    return SHOPT_OPTIONS.filter((o) => this.s(o[0]))
      .map((o) => o[0])
      .join(':');
  }
}
