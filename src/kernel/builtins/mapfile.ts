/**
 * `mapfile`/`readarray [-d delim] [-n count] [-O origin] [-s count] [-t] [-u fd] [-C callback]
 * [-c quantum] [array]`: lines of input into an indexed array.
 * @module
 */

import { decodeBytes } from '../../commands/byte-text.js';
import { isVfsError } from '../../vfs/filesystem.js';
import { readUntil } from '../exec/read-input.js';
import { runSource } from '../exec/source-loop.js';
import type { Shell } from '../runtime/shell.js';
import { assignArray, isValidName, lookup } from '../runtime/vars.js';
import { IndexedArray } from '../state/arrays.js';
import { complain, OptionError, optionFailure, type ParsedOptions, parseOptions } from './support.js';
import type { Builtin } from './types.js';

const USAGE =
  'mapfile [-d delim] [-n count] [-O origin] [-s count] [-t] [-u fd] [-C callback] [-c quantum] [array]';

function mapfileBuiltin(name: 'mapfile' | 'readarray'): Builtin {
  return {
    name,
    synopsis: USAGE.replace('mapfile', name),
    help: 'Read lines from standard input (or -u FD) into the indexed ARRAY (default MAPFILE); -t removes the delimiter.',
    async run({ sh, argv }) {
      let parsed: ParsedOptions;
      try {
        parsed = parseOptions(argv.slice(1), 'd:n:O:s:tu:C:c:');
      } catch (error) {
        if (error instanceof OptionError)
          return optionFailure(sh, name, error, USAGE.replace('mapfile', name));
        throw error;
      }
      const f = parsed.flags;
      const array = parsed.rest[0] ?? 'MAPFILE';
      if (!isValidName(array)) {
        await complain(sh, name, `\`${array}': not a valid identifier`);
        return 1;
      }
      const num = (key: string, dflt: number): number | undefined => {
        const v = f.get(key);
        if (v === undefined) return dflt;
        if (typeof v !== 'string' || !/^[0-9]+$/.test(v)) return undefined;
        return Number.parseInt(v, 10);
      };
      const count = num('n', 0);
      const origin = num('O', 0);
      const skip = num('s', 0);
      const fd = num('u', 0);
      if (count === undefined || origin === undefined || skip === undefined || fd === undefined) {
        await complain(sh, name, 'invalid number');
        return 1;
      }
      const delimText = f.get('d') as string | undefined;
      const delimiter = delimText === undefined ? 10 : delimText === '' ? 0 : delimText.charCodeAt(0) & 0xff;
      const trim = f.has('t');
      const file = sh.fds.get(fd);
      if (file === undefined || !file.readable) {
        await complain(sh, name, `${fd}: invalid file descriptor: Bad file descriptor`);
        return 1;
      }
      const callback = f.get('C') as string | undefined;
      const quantum = Number.parseInt((f.get('c') as string | undefined) ?? '5000', 10);
      const items: { key: string; value: string }[] = [];
      let index = origin;
      let skipped = 0;
      let read = 0;
      if (!f.has('O')) {
        // Without -O the array is emptied first.
        assignArray(sh, array, []);
      } else if (!(lookup(sh, array)?.variable.value instanceof IndexedArray)) assignArray(sh, array, []);
      for (;;) {
        if (count > 0 && read >= count) break;
        // A read error (a directory) ends the input: bash's mapfile reports nothing.
        const r = await readUntil(file, delimiter, { limits: sh.rt.limits }).catch((error: unknown) => {
          if (isVfsError(error)) return undefined;
          throw error;
        });
        if (r === undefined || r.eof) break;
        if (skipped < skip) {
          skipped += 1;
          continue;
        }
        // A bash string ends at a NUL byte: a line is kept up to its first one (then without
        // its delimiter), and a NUL delimiter is never kept.
        const nul = r.bytes.indexOf(0);
        let text = decodeBytes(nul === -1 ? r.bytes : r.bytes.subarray(0, nul));
        if (r.delimited && !trim && nul === -1 && delimiter !== 0) text += String.fromCharCode(delimiter);
        items.push({ key: String(index), value: text });
        if (callback !== undefined && quantum > 0 && (read + 1) % quantum === 0) {
          assignArray(sh, array, items.splice(0), { append: true });
          await runCallback(sh, callback, index, text);
        }
        index += 1;
        read += 1;
      }
      assignArray(sh, array, items, { append: true });
      return 0;
    },
  };
}

async function runCallback(sh: Shell, callback: string, index: number, line: string): Promise<void> {
  const quoted = `'${line.replace(/'/g, "'\\''")}'`;
  await runSource(sh, `${callback} ${index} ${quoted}`, { kind: 'eval', topLevel: false });
}

export const mapfile = mapfileBuiltin('mapfile');
export const readarray = mapfileBuiltin('readarray');
