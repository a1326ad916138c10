/**
 * What a file's bytes are: an image a model can see, text it can read, or binary it cannot.
 * @module
 */

const SNIFF_BYTES = 8192;

/** The image MIME type of `bytes` from its signature, or null. */
export function sniffImageType(bytes: Uint8Array): string | null {
  const starts = (sig: readonly number[], at = 0) => sig.every((b, i) => bytes[at + i] === b);
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (starts([0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (starts([0x47, 0x49, 0x46, 0x38]) && (bytes[4] === 0x37 || bytes[4] === 0x39) && bytes[5] === 0x61)
    return 'image/gif';
  if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) return 'image/webp';
  return null;
}

const IMAGE_EXTENSIONS: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
};

/** The image MIME type a file name promises, or null. */
export function imageTypeFromName(path: string): string | null {
  const dot = path.lastIndexOf('.');
  if (dot < 0 || dot < path.lastIndexOf('/')) return null;
  return IMAGE_EXTENSIONS[path.slice(dot + 1).toLowerCase()] ?? null;
}

/** Why `bytes` is not text (a NUL byte, or invalid UTF-8 near the start), or null when it is text. */
export function binaryReason(bytes: Uint8Array): string | null {
  const head = bytes.subarray(0, SNIFF_BYTES);
  const nul = head.indexOf(0);
  if (nul >= 0) return `it contains a NUL byte at offset ${nul}`;
  // A sequence cut by the sniff window is not an error: drop up to 3 trailing bytes of it.
  let end = head.length;
  if (bytes.length > head.length) {
    let back = 0;
    while (back < 3 && end - back - 1 >= 0 && (head[end - back - 1]! & 0xc0) === 0x80) back++;
    if (end - back - 1 >= 0 && head[end - back - 1]! >= 0xc0) end = end - back - 1;
  }
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(head.subarray(0, end));
    return null;
  } catch {
    return 'it is not valid UTF-8 text';
  }
}

/** Same test for text that a context already decoded: only a NUL character can be seen. */
export function binaryReasonOfText(text: string): string | null {
  const nul = text.slice(0, SNIFF_BYTES).indexOf('\u0000');
  return nul >= 0 ? `it contains a NUL character at offset ${nul}` : null;
}

/**
 * True when bytes that are not UTF-8 read as single-byte legacy text (Latin-1 / Windows-1252): no
 * NUL and no C0 control bytes other than tab, line breaks, form feed and escape in the first 8 KiB.
 */
export function looksLikeLegacyText(bytes: Uint8Array): boolean {
  const head = bytes.subarray(0, SNIFF_BYTES);
  for (const b of head) {
    if ((b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d && b !== 0x0c && b !== 0x1b) || b === 0x7f)
      return false;
  }
  return true;
}

/** Single-byte legacy text decoded: Windows-1252, the superset of Latin-1 that WHATWG "latin1" means. */
export function decodeLegacyText(bytes: Uint8Array): string {
  return new TextDecoder('windows-1252').decode(bytes);
}
