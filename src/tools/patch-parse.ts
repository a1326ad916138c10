/**
 * The patch format of `apply_patch`: the one OpenAI's Codex agents emit and its models are trained
 * on ("*** Begin Patch" … "*** End Patch", file sections for adding, deleting, updating and moving
 * files, hunks of context/`-`/`+` lines located by their content rather than by line numbers).
 * Parsed line by line, every error naming the patch line it is about.
 * @module
 */
import { ToolFailure } from './tool-result.js';

export interface HunkLine {
  readonly op: ' ' | '-' | '+';
  readonly text: string;
}

export interface Hunk {
  /** The text after `@@` (a line to find first, e.g. a function's signature), or null. */
  readonly anchor: string | null;
  readonly lines: readonly HunkLine[];
  /** `*** End of File` followed: the hunk's old lines end the file. */
  readonly endOfFile: boolean;
  /** 1-based line of the patch where the hunk starts, for messages. */
  readonly patchLine: number;
}

export type PatchOperation =
  | { readonly kind: 'add'; readonly path: string; readonly lines: readonly string[] }
  | { readonly kind: 'delete'; readonly path: string }
  | {
      readonly kind: 'update';
      readonly path: string;
      readonly moveTo: string | null;
      readonly hunks: readonly Hunk[];
    };

const BEGIN = '*** Begin Patch';
const END = '*** End Patch';
const ADD = '*** Add File: ';
const DELETE = '*** Delete File: ';
const UPDATE = '*** Update File: ';
const MOVE = '*** Move to: ';
const END_OF_FILE = '*** End of File';

const FORMAT_HINT =
  'The format is: "*** Begin Patch", then per file "*** Add File: <path>" (every line +), "*** Delete File: <path>", or "*** Update File: <path>" (optionally "*** Move to: <path>") with hunks that start with "@@" and hold context lines (" "), removed lines ("-") and added lines ("+"), then "*** End Patch".';

/** Parse a patch; throws ToolFailure naming the line that does not fit the format. */
export function parsePatch(patch: string): PatchOperation[] {
  const lines = patch.replace(/\r\n/g, '\n').split('\n');
  // Tolerate blank lines around the patch and a trailing newline.
  let first = 0;
  while (first < lines.length && lines[first]!.trim() === '') first++;
  let last = lines.length - 1;
  while (last > first && lines[last]!.trim() === '') last--;
  if (lines[first]?.trim() !== BEGIN)
    throw failure(first + 1, `the patch must start with "${BEGIN}"`, lines[first]);
  if (lines[last]?.trim() !== END || last === first)
    throw failure(last + 1, `the patch must end with "${END}"`, lines[last]);
  const operations: PatchOperation[] = [];
  let index = first + 1;
  while (index < last) {
    const line = lines[index]!;
    if (line.startsWith(ADD)) {
      const path = pathOf(line, ADD, index);
      const added: string[] = [];
      index++;
      while (index < last && !lines[index]!.startsWith('*** ')) {
        const body = lines[index]!;
        if (!body.startsWith('+'))
          throw failure(index + 1, `every line of "${ADD}${path}" must start with "+"`, body);
        added.push(body.slice(1));
        index++;
      }
      operations.push({ kind: 'add', path, lines: added });
    } else if (line.startsWith(DELETE)) {
      operations.push({ kind: 'delete', path: pathOf(line, DELETE, index) });
      index++;
    } else if (line.startsWith(UPDATE)) {
      const path = pathOf(line, UPDATE, index);
      index++;
      let moveTo: string | null = null;
      if (index < last && lines[index]!.startsWith(MOVE)) {
        moveTo = pathOf(lines[index]!, MOVE, index);
        index++;
      }
      const hunks: Hunk[] = [];
      while (index < last && !isFileHeader(lines[index]!)) {
        const parsed = parseHunk(lines, index, last, hunks.length === 0);
        hunks.push(parsed.hunk);
        index = parsed.next;
      }
      if (hunks.length === 0 && moveTo === null)
        throw failure(
          index + 1,
          `"${UPDATE}${path}" has no hunk (a "@@" line followed by " ", "-" and "+" lines)`,
          lines[index],
        );
      operations.push({ kind: 'update', path, moveTo, hunks });
    } else if (line.trim() === '') {
      index++;
    } else {
      throw failure(
        index + 1,
        'expected a file section ("*** Add File:", "*** Delete File:" or "*** Update File:")',
        line,
      );
    }
  }
  if (operations.length === 0) throw failure(first + 1, 'the patch changes no file', lines[first]);
  return operations;
}

function parseHunk(
  lines: readonly string[],
  start: number,
  last: number,
  firstOfFile: boolean,
): { hunk: Hunk; next: number } {
  let index = start;
  let anchor: string | null = null;
  const header = lines[index]!;
  if (header.startsWith('@@')) {
    const rest = header.slice(2).trim();
    anchor = rest.length > 0 ? rest : null;
    index++;
  } else if (!firstOfFile) {
    throw failure(index + 1, 'expected "@@" to start the next hunk', header);
  }
  const body: HunkLine[] = [];
  let endOfFile = false;
  while (index < last) {
    const line = lines[index]!;
    if (line.startsWith('@@') || isFileHeader(line)) break;
    if (line === END_OF_FILE) {
      endOfFile = true;
      index++;
      break;
    }
    const op = line[0];
    if (op === ' ' || op === '-' || op === '+') body.push({ op, text: line.slice(1) });
    else if (line === '')
      body.push({ op: ' ', text: '' }); // a blank context line whose space was lost
    else
      throw failure(
        index + 1,
        'a hunk line must start with " " (context), "-" (removed) or "+" (added)',
        line,
      );
    index++;
  }
  if (!body.some((line) => line.op !== ' '))
    throw failure(start + 1, 'the hunk changes nothing (no "-" or "+" line)', header);
  return { hunk: { anchor, lines: body, endOfFile, patchLine: start + 1 }, next: index };
}

function isFileHeader(line: string): boolean {
  return line.startsWith(ADD) || line.startsWith(DELETE) || line.startsWith(UPDATE) || line.trim() === END;
}

function pathOf(line: string, prefix: string, index: number): string {
  const path = line.slice(prefix.length).trim();
  if (path.length === 0) throw failure(index + 1, `"${prefix.trim()}" needs a path`, line);
  return path;
}

function failure(lineNumber: number, what: string, line: string | undefined): ToolFailure {
  const shown =
    line === undefined
      ? 'the end of the patch'
      : JSON.stringify(line.length > 120 ? `${line.slice(0, 120)}…` : line);
  return new ToolFailure(
    `patch line ${lineNumber}: ${what}; found ${shown}. Nothing was changed. ${FORMAT_HINT}`,
  );
}
