/**
 * `getopts optstring name [arg ...]`: one option per call, `OPTIND`/`OPTARG`, bundles (`-abc`),
 * silent mode (a leading `:`), `OPTERR=0`, and a reset when `OPTIND` is set back to 1.
 * @module
 */
import { writeStderr } from '../exec/messages.js';
import type { Shell } from '../runtime/shell.js';
import { getVar, isValidName, setVar, unsetVar } from '../runtime/vars.js';
import { complain, usageLine } from './support.js';
import type { Builtin } from './types.js';

export const getopts: Builtin = {
  name: 'getopts',
  synopsis: 'getopts optstring name [arg ...]',
  help: 'Parse the next option of the positional parameters (or ARGs) by OPTSTRING into NAME, with OPTARG and OPTIND.',
  async run({ sh, argv }) {
    const optstring = argv[1];
    const name = argv[2];
    if (optstring === undefined || name === undefined) {
      await usageLine(sh, 'getopts', 'getopts optstring name [arg ...]');
      return 2;
    }
    // An invalid NAME still takes the option (OPTIND, OPTARG move on); only the assignment fails.
    const valid = isValidName(name);
    const status = await parseNext(sh, optstring, valid ? name : undefined, argv);
    if (valid) return status;
    await complain(sh, 'getopts', `\`${name}': not a valid identifier`);
    return 1;
  },
};

/** One step of getopts; `name` undefined: nothing is assigned to it. */
async function parseNext(
  sh: Shell,
  optstring: string,
  name: string | undefined,
  argv: readonly string[],
): Promise<number> {
  const args = argv.length > 3 ? argv.slice(3) : sh.positional;
  let optind = Number.parseInt(getVar(sh, 'OPTIND') ?? '1', 10);
  if (!Number.isFinite(optind) || optind < 1) optind = 1;
  if (optind !== sh.getoptsLastOptind) sh.getoptsCharIndex = 1;
  const silent = optstring.startsWith(':');
  const spec = silent ? optstring.slice(1) : optstring;
  const report = !silent && getVar(sh, 'OPTERR') !== '0';
  const end = (): number => {
    setOpt(sh, name, '?');
    unsetVar(sh, 'OPTARG');
    setVar(sh, 'OPTIND', String(optind));
    sh.getoptsLastOptind = optind;
    sh.getoptsCharIndex = 1;
    return 1;
  };
  const arg = args[optind - 1];
  if (arg === undefined) {
    // Past the end (the arguments changed under it): bash leaves OPTIND just after the last.
    if (optind > args.length + 1) optind = args.length + 1;
    return end();
  }
  if (sh.getoptsCharIndex === 1) {
    if (arg === '--') {
      optind += 1;
      return end();
    }
    if (!arg.startsWith('-') || arg === '-') return end();
  }
  const letter = arg[sh.getoptsCharIndex] as string;
  sh.getoptsCharIndex += 1;
  const last = sh.getoptsCharIndex >= arg.length;
  const advance = (): void => {
    if (last) {
      optind += 1;
      sh.getoptsCharIndex = 1;
    }
  };
  const at = spec.indexOf(letter);
  if (at === -1 || letter === ':') {
    advance();
    if (report) await writeStderr(sh, `${sh.arg0}: illegal option -- ${letter}\n`);
    setOpt(sh, name, '?');
    if (silent) setVar(sh, 'OPTARG', letter);
    else unsetVar(sh, 'OPTARG');
  } else if (spec[at + 1] === ':') {
    if (!last) {
      setVar(sh, 'OPTARG', arg.slice(sh.getoptsCharIndex));
      optind += 1;
      sh.getoptsCharIndex = 1;
      setOpt(sh, name, letter);
    } else {
      const value = args[optind];
      optind += 1;
      sh.getoptsCharIndex = 1;
      if (value === undefined) {
        if (report) await writeStderr(sh, `${sh.arg0}: option requires an argument -- ${letter}\n`);
        if (silent) {
          setOpt(sh, name, ':');
          setVar(sh, 'OPTARG', letter);
        } else {
          setOpt(sh, name, '?');
          unsetVar(sh, 'OPTARG');
        }
      } else {
        optind += 1;
        setVar(sh, 'OPTARG', value);
        setOpt(sh, name, letter);
      }
    }
  } else {
    advance();
    setOpt(sh, name, letter);
    unsetVar(sh, 'OPTARG');
  }
  setVar(sh, 'OPTIND', String(optind));
  sh.getoptsLastOptind = optind;
  return 0;
}

function setOpt(sh: Shell, name: string | undefined, value: string): void {
  if (name !== undefined) setVar(sh, name, value);
}
