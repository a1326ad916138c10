import { describe, expect, it } from 'vitest';
import { colourEnabled, createStyle } from '../../src/cli/style.js';

describe('colour', () => {
  it('is on for a TTY and off for a pipe', () => {
    expect(colourEnabled({ isTTY: true }, {})).toBe(true);
    expect(colourEnabled({ isTTY: false }, {})).toBe(false);
    expect(colourEnabled({}, {})).toBe(false);
  });

  it('respects NO_COLOR (any non-empty value) over a TTY, and TERM=dumb', () => {
    expect(colourEnabled({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(colourEnabled({ isTTY: true }, { NO_COLOR: '' })).toBe(true);
    expect(colourEnabled({ isTTY: true }, { TERM: 'dumb' })).toBe(false);
  });

  it('is forced by FORCE_COLOR, but NO_COLOR still wins', () => {
    expect(colourEnabled({ isTTY: false }, { FORCE_COLOR: '1' })).toBe(true);
    expect(colourEnabled({ isTTY: false }, { FORCE_COLOR: '0' })).toBe(false);
    expect(colourEnabled({ isTTY: true }, { FORCE_COLOR: '1', NO_COLOR: '1' })).toBe(false);
  });

  it('wraps text in SGR codes only when enabled', () => {
    expect(createStyle({ isTTY: true }, {}).red('x')).toBe('\u001b[31mx\u001b[39m');
    expect(createStyle({ isTTY: false }, {}).red('x')).toBe('x');
    expect(createStyle({ isTTY: true }, { NO_COLOR: 'yes' }).bold('x')).toBe('x');
  });
});
