/**
 * `read_file`: a text file with line numbers, a range of it, an image the model can see, or the
 * text of a PDF.
 * @module
 */
import { requireMethod } from './capability.js';
import { resolveContextPath } from './context-path.js';
import { defineTool } from './define-tool.js';
import { assertWithinLimit, binaryMessage, regularFileSize } from './file-access.js';
import { rememberSeen } from './file-guard.js';
import {
  binaryReason,
  binaryReasonOfText,
  decodeLegacyText,
  imageTypeFromName,
  looksLikeLegacyText,
  sniffImageType,
} from './file-kind.js';
import { formatBytes, formatCount } from './human-units.js';
import { resolveLimits } from './limits.js';
import { splitLines } from './line-numbers.js';
import { numberedRange } from './numbered-range.js';
import { isPdf, isPdfName } from './pdf-text.js';
import { readLineRange } from './read-file-range.js';
import { readPdf } from './read-pdf.js';
import { createToolSession } from './session.js';
import { errorResult, ToolFailure, textResult } from './tool-result.js';
import type { BerthTool, ToolOptions, ToolResult } from './types.js';

/** The `read_file` tool. */
export function createReadFileTool(options: ToolOptions): BerthTool {
  const { context, handle } = options;
  const limits = resolveLimits(options);
  const session = options.session ?? createToolSession();
  return defineTool({
    name: 'read_file',
    description: [
      'Read a file from the workspace. Text comes back with line numbers (`cat -n` style: number, tab, line);',
      'the numbers are not part of the file. Images (PNG, JPEG, GIF, WebP) come back as images you can see; PDFs as their text, page by page.',
      `Reads up to ${limits.defaultLineLimit} lines from the start unless you give \`offset\` (first line, 1-based) and \`limit\` (number of lines).`,
      `Files over ${formatBytes(limits.maxUnrangedBytes)} need offset/limit (files over ${formatBytes(limits.maxFileBytes)} are then read by range).`,
      `Lines longer than ${limits.maxLineChars} characters are cut. Binary files are refused.`,
      'Relative paths resolve against the working directory. Read a file before editing it with edit_file.',
    ].join(' '),
    fields: {
      path: {
        type: 'string',
        required: true,
        description: 'File to read: absolute, or relative to the working directory.',
      },
      offset: { type: 'integer', minimum: 1, description: 'First line to return, 1-based. Default 1.' },
      limit: {
        type: 'integer',
        minimum: 1,
        maximum: 100_000,
        description: `Number of lines to return. Default ${limits.defaultLineLimit}.`,
      },
    },
    example: { path: 'src/index.ts', offset: 1, limit: 200 },
    annotations: { title: 'Read file', readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    async run(args, signal) {
      const path = resolveContextPath(handle, args.path);
      const size = await regularFileSize(context, handle, path);
      const imageByName = imageTypeFromName(path);
      if (imageByName !== null) {
        requireMethod(context, 'readFileBytes', 'binary file reads', 'images cannot be read in this context');
        if (size > limits.maxImageBytes)
          throw new ToolFailure(
            `${path} is a ${formatBytes(size)} image, above the ${formatBytes(limits.maxImageBytes)} image limit. Make a smaller copy with bash (e.g. ImageMagick's \`convert ${path} -resize 50% small.png\`) and read that.`,
          );
      }
      if (isPdfName(path))
        requireMethod(context, 'readFileBytes', 'binary file reads', 'PDFs cannot be read in this context');
      const ranged = args.offset !== undefined || args.limit !== undefined;
      if (size > limits.maxFileBytes && imageByName === null) {
        const readFileRange = context.readFileRange?.bind(context);
        const head = readFileRange === undefined ? null : await readFileRange(handle, path, 0, 1024);
        if (head === null ? isPdfName(path) : isPdf(head))
          throw new ToolFailure(
            `${path} is a ${formatBytes(size)} PDF, above the ${formatBytes(limits.maxFileBytes)} limit for extracting a PDF's text. Extract part of it with bash, e.g. \`pdftotext -f 1 -l 20 ${path} -\` if poppler-utils is installed, or split it (\`qpdf ${path} --pages . 1-50 -- part.pdf\`) and read the part.`,
          );
        if (readFileRange === undefined) {
          const how = `\`sed -n '${args.offset ?? 1},${(args.offset ?? 1) + (args.limit ?? limits.defaultLineLimit) - 1}p' ${path}\``;
          assertWithinLimit(
            path,
            size,
            limits.maxFileBytes,
            `This workspace cannot read part of a file (its context has no readFileRange), so offset/limit cannot help: read a range with bash, e.g. ${how}, or search it with grep.`,
          );
        }
        if (!ranged)
          throw new ToolFailure(
            `${path} is ${formatBytes(size)}, above the ${formatBytes(limits.maxFileBytes)} limit for reading a whole file. Read a range with offset and limit, e.g. ${JSON.stringify({ path: args.path, offset: 1, limit: 500 })}, or search it with grep.`,
          );
        return readLineRange(
          (offset, length) => readFileRange!(handle, path, offset, length),
          path,
          size,
          args.offset ?? 1,
          args.limit ?? limits.defaultLineLimit,
          limits,
          signal,
        );
      }
      assertWithinLimit(
        path,
        size,
        limits.maxFileBytes,
        `Read part of it with bash, e.g. \`sed -n '1,200p' ${path}\`, or search it with grep.`,
      );
      if (size === 0) {
        rememberSeen(session, path, '');
        return textResult(`${path} is empty (0 bytes).`);
      }
      let text: string;
      let legacy = false;
      if (typeof context.readFileBytes === 'function') {
        const bytes = await context.readFileBytes(handle, path);
        const mimeType = sniffImageType(bytes);
        if (mimeType !== null) return imageResult(path, bytes, mimeType, limits.maxImageBytes);
        if (isPdf(bytes))
          return readPdf(
            session,
            path,
            bytes,
            args.offset ?? 1,
            args.limit ?? limits.defaultLineLimit,
            limits,
            signal,
          );
        const reason = binaryReason(bytes);
        legacy = reason !== null && bytes.indexOf(0) < 0 && looksLikeLegacyText(bytes);
        if (reason !== null && !legacy)
          return errorResult(
            isPdfName(path)
              ? `${path} is named .pdf but has no %PDF- header in its first 1024 bytes: it is damaged or not a PDF. ${binaryMessage(path, bytes.length, reason)}`
              : binaryMessage(path, bytes.length, reason),
          );
        text = legacy
          ? decodeLegacyText(bytes)
          : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
      } else {
        text = await context.readFile(handle, path);
        const reason = binaryReasonOfText(text);
        if (reason !== null) return errorResult(binaryMessage(path, size, reason));
      }
      const lines = splitLines(text);
      if (!ranged && size > limits.maxUnrangedBytes) {
        return errorResult(
          `${path} is ${formatBytes(size)} (${formatCount(lines.length)} lines), above the ${formatBytes(limits.maxUnrangedBytes)} limit for reading without a range. ` +
            `Read a range with offset and limit, e.g. ${JSON.stringify({ path: args.path, offset: 1, limit: 500 })}, or search it with grep.`,
        );
      }
      if (!legacy) rememberSeen(session, path, text);
      const result = numberedRange(
        path,
        lines,
        args.offset ?? 1,
        args.limit ?? limits.defaultLineLimit,
        limits,
        text,
      );
      if (!legacy || result.isError) return result;
      const note = `[${path} is not UTF-8: it was decoded as Latin-1 (Windows-1252). edit_file edits UTF-8 only: convert it first (\`iconv -f WINDOWS-1252 -t UTF-8\`) or edit it with bash.]`;
      return textResult(`${(result.content[0] as { text: string }).text}\n${note}`);
    },
  });
}

function imageResult(path: string, bytes: Uint8Array, mimeType: string, maxImageBytes: number): ToolResult {
  if (bytes.length > maxImageBytes)
    return errorResult(
      `${path} is a ${formatBytes(bytes.length)} image, above the ${formatBytes(maxImageBytes)} image limit.`,
    );
  return {
    content: [
      { type: 'text', text: `Image ${path} (${mimeType}, ${formatBytes(bytes.length)}):` },
      { type: 'image', data: Buffer.from(bytes).toString('base64'), mimeType },
    ],
  };
}
