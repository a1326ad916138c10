/**
 * The worker thread that extracts a PDF's text with PDF.js (through `unpdf`, its serverless
 * build). It runs off the host's event loop so a slow or hostile document cannot stall the host:
 * the host ends the thread at its deadline (`pdf-text.ts`). Started only when a PDF is read.
 * @module
 */
import { parentPort } from 'node:worker_threads';
import type { PdfExtraction, PdfRequest } from './pdf-text.js';

interface TextItem {
  readonly str?: string;
  readonly hasEOL?: boolean;
}

async function extract(request: PdfRequest): Promise<PdfExtraction> {
  const { getDocumentProxy } = await import('unpdf');
  let document: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    document = await getDocumentProxy(request.bytes, {
      verbosity: 0, // PDF.js warnings would otherwise be printed
      isEvalSupported: false,
      disableFontFace: true,
      useSystemFonts: false,
      stopAtErrors: false,
    });
  } catch (error) {
    const name = error instanceof Error ? error.name : '';
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, kind: name === 'PasswordException' ? 'encrypted' : 'damaged', message };
  }
  const totalPages = document.numPages;
  const pages: string[] = [];
  let chars = 0;
  let cut: { page: number; shownChars: number; totalChars: number } | null = null;
  for (let n = 1; n <= Math.min(totalPages, request.maxPages); n++) {
    let text = '';
    try {
      const page = await document.getPage(n);
      const content = await page.getTextContent();
      for (const item of content.items as TextItem[]) {
        text += item.str ?? '';
        if (item.hasEOL) text += '\n';
      }
      page.cleanup();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (n === 1) return { ok: false, kind: 'damaged', message };
      text = `[The text of this page could not be read: ${message}]`;
    }
    if (chars + text.length > request.maxChars) {
      const room = Math.max(0, request.maxChars - chars);
      cut = { page: n, shownChars: room, totalChars: text.length };
      pages.push(text.slice(0, room));
      break;
    }
    pages.push(text);
    chars += text.length;
  }
  await document.destroy();
  return { ok: true, totalPages, pages, cut };
}

parentPort?.once('message', (request: PdfRequest) => {
  extract(request).then(
    (result) => parentPort?.postMessage(result),
    (error: unknown) =>
      parentPort?.postMessage({
        ok: false,
        kind: 'damaged',
        message: error instanceof Error ? error.message : String(error),
      } satisfies PdfExtraction),
  );
});
