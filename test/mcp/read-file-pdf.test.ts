import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BerthMcp, startBerthMcp, textOf } from './support/berth-mcp-client.js';
import { minimalPdf } from './support/minimal-pdf.js';

const NOTE_2 =
  '[Text extracted from a PDF of 2 pages: the `--- Page N of 2 ---` lines mark where each page starts and are not in the file. Layout, tables and images are not kept.]';

describe('read_file of a PDF (SDK client, sandboxed process context)', () => {
  let mcp: BerthMcp;
  const put = (name: string, bytes: Buffer) => writeFileSync(join(mcp.root, name), bytes);
  beforeAll(async () => {
    mcp = await startBerthMcp();
    put(
      'two.pdf',
      minimalPdf([['Hello from page one', 'a second line (with parens)'], ['Page two says hi']]),
    );
  });
  afterAll(() => mcp?.close());

  it('returns the text page by page under page markers, numbered like any file', async () => {
    const result = await mcp.call('read_file', { path: 'two.pdf' });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toBe(
      [
        '     1\t--- Page 1 of 2 ---',
        '     2\tHello from page one',
        '     3\ta second line (with parens)',
        '     4\t--- Page 2 of 2 ---',
        '     5\tPage two says hi',
        '',
        NOTE_2,
      ].join('\n'),
    );
  });

  it('applies offset and limit to the extracted text and says where to continue', async () => {
    const result = await mcp.call('read_file', { path: 'two.pdf', offset: 3, limit: 2 });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toBe(
      [
        '     3\ta second line (with parens)',
        '     4\t--- Page 2 of 2 ---',
        '',
        '[Showing lines 3–4 of 5. Continue with offset=5.]',
        NOTE_2,
      ].join('\n'),
    );
    const past = await mcp.call('read_file', { path: 'two.pdf', offset: 9 });
    expect(past.isError).toBe(true);
    expect(textOf(past)).toMatch(/offset 9 is past the end of .*two\.pdf, which has 5 lines/);
  });

  it('extracts a PDF again once it changed', async () => {
    put('changing.pdf', minimalPdf([['first version']]));
    expect(textOf(await mcp.call('read_file', { path: 'changing.pdf' }))).toMatch(/\n {5}2\tfirst version\n/);
    put('changing.pdf', minimalPdf([['second version']]));
    expect(textOf(await mcp.call('read_file', { path: 'changing.pdf' }))).toMatch(
      /\n {5}2\tsecond version\n/,
    );
  });

  it('knows a PDF by its header, not its name; a .pdf without the header is refused as such', async () => {
    put('report.bin', minimalPdf([['found by magic']]));
    const byMagic = await mcp.call('read_file', { path: 'report.bin' });
    expect(textOf(byMagic)).toMatch(/^ {5}1\t--- Page 1 of 1 ---\n {5}2\tfound by magic\n/);
    put(
      'junk-first.dat',
      Buffer.concat([Buffer.from([0xff, 0x00, 0x9c, 0x0a]), minimalPdf([['after junk']])]),
    );
    const afterJunk = await mcp.call('read_file', { path: 'junk-first.dat' });
    expect(textOf(afterJunk)).toMatch(/^ {5}1\t--- Page 1 of 1 ---\n {5}2\tafter junk\n/);
    put('notes.md', Buffer.from('# Notes\nA PDF starts with `%PDF-1.7`.\n'));
    const notes = await mcp.call('read_file', { path: 'notes.md' });
    expect(textOf(notes)).toBe('     1\t# Notes\n     2\tA PDF starts with `%PDF-1.7`.');
    put('fake.pdf', Buffer.from([0x00, 0x01, 0x02, 0xff, 0xfe, 0x41]));
    const fake = await mcp.call('read_file', { path: 'fake.pdf' });
    expect(fake.isError).toBe(true);
    expect(textOf(fake)).toMatch(/fake\.pdf is named \.pdf but has no %PDF- header in its first 1024 bytes/);
  });

  it('refuses a damaged or truncated PDF with what to do, and keeps serving', async () => {
    put('garbage.pdf', Buffer.from('%PDF-1.7\nthis is not a PDF body at all\n', 'latin1'));
    const garbage = await mcp.call('read_file', { path: 'garbage.pdf' });
    expect(garbage.isError).toBe(true);
    expect(textOf(garbage)).toMatch(
      /garbage\.pdf starts like a PDF \(\d+ B\) but its text could not be extracted: Invalid PDF structure\. It is damaged, truncated or not really a PDF\. Check it with bash .*qpdf --check/,
    );
    put('cut.pdf', minimalPdf([['one'], ['two']]).subarray(0, 200));
    const cut = await mcp.call('read_file', { path: 'cut.pdf' });
    expect(cut.isError).toBe(true);
    expect(textOf(cut)).toMatch(/cut\.pdf starts like a PDF .* could not be extracted/);
    const after = await mcp.call('read_file', { path: 'two.pdf', limit: 2 });
    expect(textOf(after)).toMatch(/Hello from page one/);
  });

  it('refuses an encrypted PDF, saying a password is needed and how to decrypt it', async () => {
    put('locked.pdf', minimalPdf([['secret text']], { encrypted: true }));
    const result = await mcp.call('read_file', { path: 'locked.pdf' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(
      /locked\.pdf is an encrypted PDF \(.*\) that needs a password to open.*qpdf --password=PASSWORD --decrypt/,
    );
    expect(textOf(result)).not.toMatch(/secret text/);
  });

  it('extracts at most 500 pages and names exactly the pages omitted', async () => {
    put('long.pdf', minimalPdf(Array.from({ length: 523 }, (_, i) => [`text of page ${i + 1}`])));
    const tail = await mcp.call('read_file', { path: 'long.pdf', offset: 997, limit: 10 });
    expect(tail.isError).toBeFalsy();
    expect(textOf(tail)).toBe(
      [
        '   997\t--- Page 499 of 523 ---',
        '   998\ttext of page 499',
        '   999\t--- Page 500 of 523 ---',
        '  1000\ttext of page 500',
        '',
        '[Showing lines 997–1000 of 1,000: the end of the file.]',
        '[Text extracted from a PDF of 523 pages: the `--- Page N of 523 ---` lines mark where each page starts and are not in the file. Layout, tables and images are not kept.]',
        '[Pages 501–523 (23 pages) omitted: read_file extracts at most 500 pages of a PDF. Extract them with bash, e.g. `pdftotext -f 501 -l 523 ' +
          join(mcp.root, 'long.pdf') +
          ' -` if poppler-utils is installed.]',
      ].join('\n'),
    );
  });

  it('extracts at most 2,000,000 characters, saying where the text was cut', async () => {
    const page = Array.from({ length: 70 }, () => 'w'.repeat(9_999)); // 699,999 characters: no line end after the last
    put('wordy.pdf', minimalPdf([page, page, page, ['never reached'], ['nor this']], { large: true }));
    const result = await mcp.call('read_file', { path: 'wordy.pdf', offset: 203 });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toBe(
      [
        `   203\t${'w'.repeat(2000)}… [7999 more characters on this line]`,
        '   204\tww',
        '   205\t[Page 3 is cut here: 600,002 of its 699,999 characters are shown.]',
        '',
        '[Showing lines 203–205 of 205: the end of the file.]',
        '[Text extracted from a PDF of 5 pages: the `--- Page N of 5 ---` lines mark where each page starts and are not in the file. Layout, tables and images are not kept.]',
        `[Pages 4–5 (2 pages) omitted: read_file extracts at most 2,000,000 characters of a PDF. Extract them with bash, e.g. \`pdftotext -f 4 -l 5 ${join(mcp.root, 'wordy.pdf')} -\` if poppler-utils is installed.]`,
      ].join('\n'),
    );
  });

  it('refuses a PDF over the whole-file limit before reading it, with a way to read part of it', async () => {
    put('huge.pdf', Buffer.concat([Buffer.from('%PDF-1.4\n%'), Buffer.alloc(17 * 1024 * 1024, 0x41)]));
    const result = await mcp.call('read_file', { path: 'huge.pdf', offset: 1, limit: 10 });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(
      /huge\.pdf is a 17\.0 MiB PDF, above the 16\.0 MiB limit for extracting a PDF's text\. Extract part of it with bash, e\.g\. `pdftotext -f 1 -l 20 /,
    );
  });
});

describe('the PDF extraction thread', () => {
  it('is ended at its deadline with a refusal that says what to do', async () => {
    const { extractPdfText } = await import(new URL('../../dist/tools/pdf-text.js', import.meta.url).href);
    const bytes = minimalPdf([['x']]);
    await expect(
      extractPdfText(bytes, undefined, { maxPages: 10, maxChars: 1000, timeoutMs: 1 }),
    ).rejects.toThrow(/took longer than .* and was stopped\. Extract it with bash instead/);
    await expect(
      extractPdfText(bytes, AbortSignal.abort(), { maxPages: 10, maxChars: 1000, timeoutMs: 10_000 }),
    ).rejects.toThrow(/cancelled/);
    const controller = new AbortController();
    const running = extractPdfText(bytes, controller.signal, {
      maxPages: 10,
      maxChars: 1000,
      timeoutMs: 20_000,
    });
    setTimeout(() => controller.abort(), 5); // the thread is still loading PDF.js then
    await expect(running).rejects.toThrow(/read_file was cancelled/);
    const ok = await extractPdfText(bytes, undefined, { maxPages: 10, maxChars: 1000, timeoutMs: 20_000 });
    expect(ok).toEqual({ ok: true, totalPages: 1, pages: ['x'], cut: null });
  });
});
