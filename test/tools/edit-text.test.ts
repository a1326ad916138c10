import { describe, expect, it } from 'vitest';
import { applyEdit, findOccurrences } from '../../src/tools/edit-text.js';

function ok(outcome: ReturnType<typeof applyEdit>) {
  if (!outcome.ok) throw new Error(outcome.message);
  return outcome;
}
function message(outcome: ReturnType<typeof applyEdit>): string {
  if (outcome.ok) throw new Error('expected a failure');
  return outcome.message;
}

describe('findOccurrences', () => {
  it('finds non-overlapping occurrences', () => {
    expect(findOccurrences('aaaa', 'aa')).toEqual([0, 2]);
    expect(findOccurrences('abc', '')).toEqual([]);
    expect(findOccurrences('abc', 'x')).toEqual([]);
  });
});

describe('applyEdit', () => {
  const text = 'one\ntwo\nthree\ntwo\n';

  it('replaces a unique occurrence and keeps every other byte', () => {
    const outcome = ok(applyEdit(text, 'three', 'THREE\nAND MORE', false, 'f'));
    expect(outcome.text).toBe('one\ntwo\nTHREE\nAND MORE\ntwo\n');
    expect(outcome.count).toBe(1);
    expect(outcome.lines).toEqual([3]);
  });

  it('refuses an ambiguous edit and lists the line numbers', () => {
    expect(message(applyEdit(text, 'two', '2', false, 'f.txt'))).toBe(
      'old_string occurs 2 times in f.txt (at lines 2, 4). Include more surrounding lines in old_string so it matches exactly one place, or set replace_all to true to replace every occurrence.',
    );
  });

  it('replace_all replaces every occurrence and reports their lines in the new text', () => {
    const outcome = ok(applyEdit(text, 'two', 'deux\nzwei', true, 'f'));
    expect(outcome.text).toBe('one\ndeux\nzwei\nthree\ndeux\nzwei\n');
    expect(outcome.lines).toEqual([2, 5]);
  });

  it('treats $ patterns in the replacement literally', () => {
    expect(ok(applyEdit('a b', 'b', "$& $' $1", false, 'f')).text).toBe("a $& $' $1");
  });

  it('says where the first line of a missing old_string appears', () => {
    const m = message(applyEdit('  foo()\n  bar()\n', 'foo()\nbaz()', 'x', false, 'f'));
    expect(m).toContain('old_string was not found in f.');
    expect(m).toContain('Its first line "foo()" appears (ignoring indentation) at line 1');
  });

  it('says when not even the first line occurs', () => {
    expect(message(applyEdit('abc\n', 'zzz', 'y', false, 'f'))).toContain(
      'Not even its first line "zzz" occurs in the file.',
    );
  });

  it('spots line-number prefixes copied from read_file', () => {
    expect(message(applyEdit('abc\n', '     1\tabc', 'y', false, 'f'))).toContain('line-number prefixes');
  });

  it('refuses an empty old_string and a no-op edit', () => {
    expect(message(applyEdit('abc', '', 'x', false, 'f'))).toContain('use write_file');
    expect(message(applyEdit('abc', 'a', 'a', false, 'f'))).toContain('identical');
  });

  it('matches LF text against a CRLF file and keeps CRLF', () => {
    const crlf = 'a\r\nb\r\nc\r\n';
    const outcome = ok(applyEdit(crlf, 'a\nb', 'A\nB', false, 'f'));
    expect(outcome.text).toBe('A\r\nB\r\nc\r\n');
    expect(outcome.adaptedLineEndings).toBe(true);
  });

  it('keeps bytes such as a BOM and a missing final newline', () => {
    expect(ok(applyEdit('\uFEFFx = 1', 'x', 'y', false, 'f')).text).toBe('\uFEFFy = 1');
  });
});
