/**
 * gitignore(5) rules parsed and matched on berth's linear glob engine (`compileNamePattern` /
 * `matchName` of `berth/vfs`), not on regular expressions: an ignore file is input a command (or a
 * cloned repository) can write, and a backtracking matcher freezes on a line such as
 * `a/**` + `/**`×9 + `/b` (the `ignore` package needs seconds for a 20-level path and does not
 * finish at 40). A path is matched as a state-set over its parts: |segments| steps per part.
 * @module
 */
import { compileNamePattern, matchName, type NamePattern } from '../vfs/glob-segment.js';

/** One segment of a rule: `**` or a name pattern (where `*` also matches a leading dot, as in git). */
type RuleSegment = { readonly globstar: true } | { readonly globstar: false; readonly name: NamePattern };

/** One line of an ignore file. */
export interface IgnoreRule {
  readonly negated: boolean;
  /** The rule ends with `/`: it matches directories only. */
  readonly directoryOnly: boolean;
  readonly segments: readonly RuleSegment[];
}

/** At most this many rules of one file are kept (a bound on the cost of one match). */
export const MAX_RULES_PER_FILE = 10_000;
/** Longer lines are ignored (git has no limit; the glob engine's own bound is 4 096). */
const MAX_RULE_LENGTH = 4096;

const GLOBSTAR: RuleSegment = { globstar: true };
const ANY_NAME: RuleSegment = { globstar: false, name: undotted(compileNamePattern('*')) };

/** Parse the text of a `.gitignore` (or `.ignore`) file into its rules, in order. */
export function parseIgnoreFile(text: string): IgnoreRule[] {
  const rules: IgnoreRule[] = [];
  for (const raw of text.split('\n')) {
    if (rules.length >= MAX_RULES_PER_FILE) break;
    const rule = parseIgnoreLine(raw.endsWith('\r') ? raw.slice(0, -1) : raw);
    if (rule !== null) rules.push(rule);
  }
  return rules;
}

/** One line, or null for a blank line, a comment, or a line that names nothing. */
export function parseIgnoreLine(line: string): IgnoreRule | null {
  if (line.length > MAX_RULE_LENGTH || line.startsWith('#')) return null;
  let body = trimTrailingSpaces(line);
  const negated = body.startsWith('!');
  if (negated) body = body.slice(1);
  else if (body.startsWith('\\!') || body.startsWith('\\#')) body = body.slice(1);
  const directoryOnly = body.endsWith('/') && !body.endsWith('\\/');
  if (directoryOnly) body = body.slice(0, -1);
  if (body.length === 0) return null;
  // A slash at the start or in the middle anchors the rule to the ignore file's directory;
  // without one it matches a name at any depth.
  const anchored = body.includes('/');
  const parts = body.replace(/^\//, '').split('/');
  if (parts.some((part) => part.length === 0)) return null; // `a//b` names nothing git matches
  const segments: RuleSegment[] = anchored ? [] : [GLOBSTAR];
  parts.forEach((part, index) => {
    if (part === '**') {
      if (segments[segments.length - 1] !== GLOBSTAR) segments.push(GLOBSTAR);
      // A trailing `/**` matches everything inside, not the directory itself.
      if (index === parts.length - 1) segments.push(ANY_NAME);
    } else segments.push({ globstar: false, name: undotted(compileNamePattern(part)) });
  });
  return { negated, directoryOnly, segments };
}

/**
 * The verdict of `rules` (one file's, in order) on `parts` (the path below the file's directory):
 * the last rule that matches decides; null when none matches.
 */
export function ruleVerdict(
  rules: readonly IgnoreRule[],
  parts: readonly string[],
  isDirectory: boolean,
): 'ignored' | 'included' | null {
  for (let index = rules.length - 1; index >= 0; index--) {
    const rule = rules[index]!;
    if (rule.directoryOnly && !isDirectory) continue;
    if (matchesRule(rule.segments, parts)) return rule.negated ? 'included' : 'ignored';
  }
  return null;
}

/** State-set simulation over the parts: no backtracking across `**`. */
function matchesRule(segments: readonly RuleSegment[], parts: readonly string[]): boolean {
  const count = segments.length;
  let states = new Uint8Array(count + 1);
  states[0] = 1;
  closeOverGlobstars(segments, states);
  for (const part of parts) {
    const next = new Uint8Array(count + 1);
    let alive = false;
    for (let index = 0; index < count; index++) {
      if (states[index] === 0) continue;
      const segment = segments[index]!;
      if (segment.globstar) next[index] = 1;
      else if (matchName(segment.name, part)) next[index + 1] = 1;
      else continue;
      alive = true;
    }
    if (!alive) return false;
    closeOverGlobstars(segments, next);
    states = next;
  }
  return states[count] === 1;
}

function closeOverGlobstars(segments: readonly RuleSegment[], states: Uint8Array): void {
  for (let index = 0; index < segments.length; index++) {
    if (states[index] === 1 && segments[index]!.globstar) states[index + 1] = 1;
  }
}

/** git's `*` and `?` match a leading dot (no FNM_PERIOD), unlike the shell's. */
function undotted(pattern: NamePattern): NamePattern {
  return pattern.dotGuard ? { ...pattern, dotGuard: false } : pattern;
}

/** Trailing spaces are dropped unless escaped with a backslash (`foo\ ` keeps one). */
function trimTrailingSpaces(line: string): string {
  let end = line.length;
  while (end > 0 && line[end - 1] === ' ') {
    let backslashes = 0;
    while (end - 2 - backslashes >= 0 && line[end - 2 - backslashes] === '\\') backslashes++;
    if (backslashes % 2 === 1) break;
    end--;
  }
  return line.slice(0, end);
}
