/**
 * gitignore(5) rules parsed and matched on berth's linear glob engine (`compileNamePattern` /
 * `matchName` of `berth/vfs`), not on regular expressions: an ignore file is input a command (or a
 * cloned repository) can write, and a backtracking matcher freezes on a line such as
 * `a/**` + `/**`×9 + `/b` (the `ignore` package needs seconds for a 20-level path and does not
 * finish at 40). A path is matched by the glob engine's state-set `matchParts`: |segments| steps
 * per part.
 * @module
 */
import { type GlobSegment, matchParts } from './glob.js';
import { compileNamePattern } from './glob-segment.js';

/** One segment of a rule: `**` or a name pattern (where `*` also matches a leading dot, as in git). */
type RuleSegment = GlobSegment;

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

const GLOBSTAR: RuleSegment = { kind: 'globstar' };
const ANY_NAME: RuleSegment = nameSegment('*');

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
    } else segments.push(nameSegment(part));
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
    if (matchParts(rule.segments, parts, { globstarMatchesDots: true }).full)
      return rule.negated ? 'included' : 'ignored';
  }
  return null;
}

/** A name segment where `*` and `?` match a leading dot, as git's do (no FNM_PERIOD), unlike the shell's. */
function nameSegment(part: string): RuleSegment {
  const pattern = compileNamePattern(part);
  return { kind: 'name', pattern: { ...pattern, dotGuard: false }, literal: pattern.literal };
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
