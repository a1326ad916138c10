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

/** The `set -o` values, with the few the interpreter reads on every command kept as fields. */
class SetOptionMap extends Map<string, boolean> {
  errexit = false;
  noexec = false;
  xtrace = false;
  allexport = false;

  constructor(entries: Iterable<readonly [string, boolean]>) {
    // Filled here, not by Map's constructor: the fields above are set only after super() returns.
    super();
    if (entries instanceof SetOptionMap) {
      for (const [name, value] of entries) super.set(name, value);
      this.errexit = entries.errexit;
      this.noexec = entries.noexec;
      this.xtrace = entries.xtrace;
      this.allexport = entries.allexport;
      return;
    }
    for (const [name, value] of entries) this.set(name, value);
  }

  override set(name: string, value: boolean): this {
    super.set(name, value);
    if (name === 'errexit') this.errexit = value;
    else if (name === 'noexec') this.noexec = value;
    else if (name === 'xtrace') this.xtrace = value;
    else if (name === 'allexport') this.allexport = value;
    return this;
  }
}

/**
 * Option values of one shell. A subshell's copy shares the tables until either side changes an
 * option (copy on write: a command substitution costs no copy of ninety options).
 */
export class ShellOptions {
  private setTable: SetOptionMap;
  private shoptTable: Map<string, boolean>;
  private setShared = false;
  private shoptShared = false;
  /** `c` for `-c`, `s` for stdin, `i` interactive: the letters `$-` ends with. */
  invocation = 'c';

  constructor() {
    this.setTable = new SetOptionMap(SET_OPTIONS.map((o) => [o[0], o[2]]));
    this.shoptTable = new Map(SHOPT_OPTIONS.map((o) => [o[0], o[1]]));
  }

  /** The `set -o` table, to change (made this shell's own first if shared). */
  get set(): Map<string, boolean> {
    if (this.setShared) {
      this.setTable = new SetOptionMap(this.setTable);
      this.setShared = false;
    }
    return this.setTable;
  }

  /** The `shopt` table, to change (made this shell's own first if shared). */
  get shopt(): Map<string, boolean> {
    if (this.shoptShared) {
      this.shoptTable = new Map(this.shoptTable);
      this.shoptShared = false;
    }
    return this.shoptTable;
  }

  copy(): ShellOptions {
    const c = Object.create(ShellOptions.prototype) as ShellOptions;
    c.setTable = this.setTable;
    c.shoptTable = this.shoptTable;
    c.setShared = true;
    c.shoptShared = true;
    c.invocation = this.invocation;
    this.setShared = true;
    this.shoptShared = true;
    return c;
  }

  /** `set -o NAME` value. */
  o(name: string): boolean {
    return this.setTable.get(name) === true;
  }

  /** `set -e`, `-n`, `-x`, `-a`: read on every command, without a map lookup. */
  get errexit(): boolean {
    return this.setTable.errexit;
  }

  get noexec(): boolean {
    return this.setTable.noexec;
  }

  get xtrace(): boolean {
    return this.setTable.xtrace;
  }

  get allexport(): boolean {
    return this.setTable.allexport;
  }

  /** `shopt NAME` value. */
  s(name: string): boolean {
    return this.shoptTable.get(name) === true;
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
