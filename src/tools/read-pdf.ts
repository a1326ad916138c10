/**
 * `read_file` of a PDF: its text, page by page under `--- Page N of M ---` markers, numbered and
 * ranged by lines like any text. The last extraction is kept per session (by the file's digest),
 * so reading a long document range by range extracts it once.
 * @module
 */
import { createHash } from 'node:crypto';
import { formatBytes, formatCount } from './human-units.js';
import { splitLines } from './line-numbers.js';
import { numberedRange } from './numbered-range.js';
import { extractPdfText, MAX_PDF_CHARS, MAX_PDF_PAGES, type PdfExtraction } from './pdf-text.js';
import { errorResult } from './tool-result.js';
import type { ToolResult, ToolSession } from './types.js';

interface PdfText {
  readonly text: string;
  readonly notes: readonly string[];
}

const lastExtraction = new WeakMap<ToolSession, { readonly key: string; readonly pdf: PdfText }>();

/** The result of `read_file` for `bytes` that start like a PDF. */
export async function readPdf(
  session: ToolSession,
  path: string,
  bytes: Uint8Array,
  first: number,
  limit: number,
  limits: { maxLineChars: number; maxReadChars: number },
  signal: AbortSignal | undefined,
): Promise<ToolResult> {
  const key = `${path}\0${createHash('sha256').update(bytes).digest('hex')}`;
  let pdf = lastExtraction.get(session)?.key === key ? lastExtraction.get(session)!.pdf : undefined;
  if (pdf === undefined) {
    const extraction = await extractPdfText(bytes, signal);
    if (!extraction.ok) return errorResult(refusal(path, bytes.length, extraction));
    pdf = layOut(path, extraction);
    lastExtraction.set(session, { key, pdf });
  }
  return numberedRange(path, splitLines(pdf.text), first, limit, limits, pdf.text, pdf.notes);
}

function refusal(path: string, size: number, extraction: PdfExtraction & { ok: false }): string {
  if (extraction.kind === 'encrypted')
    return `${path} is an encrypted PDF (${formatBytes(size)}) that needs a password to open, so its text cannot be read. If you know the password, decrypt a copy with bash (e.g. \`qpdf --password=PASSWORD --decrypt ${path} decrypted.pdf\`) and read that.`;
  return `${path} starts like a PDF (${formatBytes(size)}) but its text could not be extracted: ${extraction.message.replace(/\.$/, '')}. It is damaged, truncated or not really a PDF. Check it with bash (\`file ${path}\`, \`qpdf --check ${path}\`), or repair a copy (\`qpdf ${path} repaired.pdf\`) and read that.`;
}

function layOut(path: string, extraction: PdfExtraction & { ok: true }): PdfText {
  const { totalPages, pages, cut } = extraction;
  const blocks: string[] = [];
  let withText = 0;
  pages.forEach((raw, i) => {
    const text = raw.replace(/\r\n?/g, '\n').replace(/\n+$/, '');
    if (text.trim() !== '') withText++;
    const cutNote =
      cut !== null && cut.page === i + 1
        ? `\n[Page ${cut.page} is cut here: ${formatCount(cut.shownChars)} of its ${formatCount(cut.totalChars)} characters are shown.]`
        : '';
    blocks.push(
      `--- Page ${i + 1} of ${totalPages} ---\n${text === '' ? '[No text on this page.]' : text}${cutNote}\n`,
    );
  });
  const notes = [
    `[Text extracted from a PDF of ${formatCount(totalPages)} page${totalPages === 1 ? '' : 's'}: the \`--- Page N of ${totalPages} ---\` lines mark where each page starts and are not in the file. Layout, tables and images are not kept.]`,
  ];
  if (pages.length < totalPages) {
    const from = pages.length + 1;
    const omitted = totalPages - pages.length;
    const why =
      cut !== null
        ? `read_file extracts at most ${formatCount(MAX_PDF_CHARS)} characters of a PDF`
        : `read_file extracts at most ${formatCount(MAX_PDF_PAGES)} pages of a PDF`;
    notes.push(
      `[Pages ${from}–${totalPages} (${formatCount(omitted)} page${omitted === 1 ? '' : 's'}) omitted: ${why}. Extract them with bash, e.g. \`pdftotext -f ${from} -l ${totalPages} ${path} -\` if poppler-utils is installed.]`,
    );
  } else if (cut !== null) {
    notes.push(`[read_file extracts at most ${formatCount(MAX_PDF_CHARS)} characters of a PDF.]`);
  }
  if (withText === 0)
    notes.push('[No page has text: the PDF may hold scanned images, and read_file does no OCR.]');
  return { text: blocks.join(''), notes };
}
