/**
 * A PDF's text for `read_file`: recognised by its `%PDF-` header, extracted page by page in a
 * worker thread (`pdf-worker.ts`) with a deadline and a heap limit, so a damaged, huge or hostile
 * document ends in a clear refusal and never blocks or exhausts the host. PDF.js is loaded only in
 * that thread, only when a PDF is read: the tools' start-up does not pay for it.
 * @module
 */
import { Worker } from 'node:worker_threads';
import { binaryReason } from './file-kind.js';
import { formatCount, formatDuration } from './human-units.js';
import { ToolFailure } from './tool-result.js';

/** Pages whose text one extraction returns at most. */
export const MAX_PDF_PAGES = 500;
/** Characters of text one extraction returns at most. */
export const MAX_PDF_CHARS = 2_000_000;
/** An extraction still running after this is ended. */
export const PDF_TIMEOUT_MS = 30_000;
/** Heap of the extraction thread, in MiB: a document that needs more is refused. */
const PDF_HEAP_MB = 512;
/** The PDF specification lets the header start anywhere in the first 1024 bytes. */
const HEADER_WINDOW = 1024;

/** What the host sends the worker. */
export interface PdfRequest {
  readonly bytes: Uint8Array;
  readonly maxPages: number;
  readonly maxChars: number;
}

/** What the worker answers. */
export type PdfExtraction =
  | {
      readonly ok: true;
      readonly totalPages: number;
      /** The text of pages 1..pages.length (the last one cut when `cut` is set). */
      readonly pages: readonly string[];
      readonly cut: {
        readonly page: number;
        readonly shownChars: number;
        readonly totalChars: number;
      } | null;
    }
  | { readonly ok: false; readonly kind: 'encrypted' | 'damaged'; readonly message: string };

export interface PdfLimits {
  readonly maxPages: number;
  readonly maxChars: number;
  readonly timeoutMs: number;
}

const DEFAULT_LIMITS: PdfLimits = {
  maxPages: MAX_PDF_PAGES,
  maxChars: MAX_PDF_CHARS,
  timeoutMs: PDF_TIMEOUT_MS,
};

/**
 * True when `bytes` are a PDF: `%PDF-` at the start, or later in the first 1024 bytes (readers
 * allow junk before the header) of bytes that are not text, so a source file or a note that
 * mentions `%PDF-` near its top stays text.
 */
export function isPdf(bytes: Uint8Array): boolean {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, HEADER_WINDOW));
  const at = head.indexOf('%PDF-', 0, 'latin1');
  return at === 0 || (at > 0 && binaryReason(bytes) !== null);
}

/** True when the path ends in `.pdf` (any case). */
export function isPdfName(path: string): boolean {
  return /\.pdf$/i.test(path);
}

/** Extract the text of `bytes` in a worker thread; refusals of the document are answers, not throws. */
export function extractPdfText(
  bytes: Uint8Array,
  signal: AbortSignal | undefined,
  limits: PdfLimits = DEFAULT_LIMITS,
): Promise<PdfExtraction> {
  if (signal?.aborted) return Promise.reject(new ToolFailure('read_file was cancelled.'));
  const copy = Uint8Array.from(bytes); // its buffer is transferred to the thread
  return new Promise<PdfExtraction>((resolve, reject) => {
    const worker = new Worker(new URL('./pdf-worker.js', import.meta.url), {
      resourceLimits: { maxOldGenerationSizeMb: PDF_HEAP_MB },
      // The thread's console must never reach the host's stdout (the MCP channel over stdio).
      stdout: true,
      stderr: true,
    });
    worker.stdout.resume();
    worker.stderr.resume();
    let settled = false;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      void worker.terminate();
      outcome();
    };
    const timer = setTimeout(
      () =>
        finish(() =>
          reject(
            new ToolFailure(
              `Extracting the PDF's text took longer than ${formatDuration(limits.timeoutMs)} and was stopped. Extract it with bash instead (e.g. \`pdftotext -f 1 -l 20 file.pdf -\` if poppler-utils is installed).`,
            ),
          ),
        ),
      limits.timeoutMs,
    );
    const onAbort = () => finish(() => reject(new ToolFailure('read_file was cancelled.')));
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.once('message', (result: PdfExtraction) => finish(() => resolve(result)));
    worker.once('error', (error: Error & { code?: string }) =>
      finish(() =>
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? resolve({
              ok: false,
              kind: 'damaged',
              message: `extracting its text needs more than ${formatCount(PDF_HEAP_MB)} MiB of memory`,
            })
          : reject(error),
      ),
    );
    worker.once('exit', (code) =>
      finish(() => reject(new Error(`the PDF text extraction thread exited with code ${code}`))),
    );
    worker.postMessage(
      { bytes: copy, maxPages: limits.maxPages, maxChars: limits.maxChars } satisfies PdfRequest,
      [copy.buffer],
    );
  });
}
