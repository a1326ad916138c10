// Matching what a model sends (globs, the built-in grep's regular expressions) costs the same for
// a hostile pattern as for an ordinary one. Each goal compares the hostile pattern with an
// ordinary one on the same engine in the same run; V8's RegExp on the hostile shapes, at sizes it
// can still finish, is printed beside them for scale (the engines berth no longer uses).
import { interleavedMedians } from './support/interleaved-medians.mjs';

export const title = 'matching: hostile globs and regexes vs ordinary ones (linear engines)';

const vfs = await import(new URL('../dist/vfs/index.js', import.meta.url).href);
const { compileLinePattern } = await import(new URL('../dist/tools/grep-pattern.js', import.meta.url).href);

const NAME = `${'a'.repeat(33)}b`;
const MATCHES = 2000;

/** A glob matcher over one path component, through the engine's public pieces. */
function globMatcher(pattern) {
  const { segments } = vfs.compileGlob([pattern]);
  return (name) => vfs.matchParts(segments, [name]).full;
}

function repeat(fn) {
  return () => {
    for (let i = 0; i < MATCHES; i++) fn();
  };
}

function timeOnce(fn) {
  const start = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

const fmt = (value, digits = 2) => value.toFixed(digits);

export async function run() {
  const rows = [];
  const ordinary = globMatcher('*.ts');
  const stars = globMatcher(`${'*'.repeat(20)}z`);
  const between = globMatcher(`${'*a'.repeat(20)}z`);
  const glob = await interleavedMedians(
    {
      ordinary: repeat(() => ordinary(NAME)),
      stars: repeat(() => stars(NAME)),
      between: repeat(() => between(NAME)),
    },
    { warmup: 3, rounds: 15 },
  );
  for (const [name, ms] of [
    ['20 `*` then `z`', glob.stars],
    ['20 `*a` then `z`', glob.between],
  ]) {
    const ratio = ms / glob.ordinary;
    rows.push({
      name: `glob ${name} vs \`*.ts\` against a 34-character name (${fmt((ms / MATCHES) * 1000)} µs a match)`,
      value: `${fmt(ratio, 1)}x`,
      goal: '<= 50x',
      met: ratio <= 50,
    });
  }
  // What the old segment compiler built, at sizes V8 still finishes.
  for (const count of [6, 8]) {
    const old = new RegExp(`^(?!\\.)${'[^/]*'.repeat(count)}z$`, 'u');
    old.test('az'); // compiled before it is timed
    rows.push({
      name: `for scale: V8 RegExp of ${count} \`*\` then \`z\``,
      value: `${fmt(
        timeOnce(() => old.test(NAME)),
        1,
      )} ms`,
    });
  }

  const bomb = `${'a'.repeat(28)}!`;
  const hostile = compileLinePattern('^(a+)+$', false);
  const plain = compileLinePattern('hello', false);
  const regex = await interleavedMedians(
    { plain: repeat(() => plain.test(bomb)), hostile: repeat(() => hostile.test(bomb)) },
    { warmup: 3, rounds: 15 },
  );
  const regexRatio = regex.hostile / regex.plain;
  rows.push({
    name: `built-in grep: \`^(a+)+$\` vs \`hello\` on 28 \`a\` and \`!\` (${fmt((regex.hostile / MATCHES) * 1000)} µs a match)`,
    value: `${fmt(regexRatio, 1)}x`,
    goal: '<= 50x',
    met: regexRatio <= 50,
  });
  const v8 = /^(a+)+$/u;
  v8.test('aaaa!'); // compiled before it is timed
  for (const count of [24, 26]) {
    const subject = `${'a'.repeat(count)}!`;
    rows.push({
      name: `for scale: V8 RegExp \`^(a+)+$\` on ${count} \`a\` and \`!\``,
      value: `${fmt(
        timeOnce(() => v8.test(subject)),
        1,
      )} ms`,
    });
  }
  return rows;
}
