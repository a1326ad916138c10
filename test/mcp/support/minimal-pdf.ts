/**
 * Small, valid PDFs written byte by byte for tests: one Helvetica text object per page, one line
 * per `T*`, a correct cross-reference table. `encrypted` adds a standard security handler whose
 * user password is not empty, so a reader must ask for it.
 */

export interface MinimalPdfOptions {
  readonly encrypted?: boolean;
  /** Pages of the largest size PDF allows (200 inches) in 1-point type, for long lines (readers drop text off the page). */
  readonly large?: boolean;
}

const escapeText = (text: string) => text.replace(/[\\()]/g, (c) => `\\${c}`);

/** A PDF whose page `i` shows the lines `pages[i]`, as bytes. */
export function minimalPdf(pages: readonly (readonly string[])[], options: MinimalPdfOptions = {}): Buffer {
  const objects: string[] = ['', '', '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>'];
  const kids: number[] = [];
  for (const lines of pages) {
    const body = `BT ${options.large ? '/F1 1 Tf 2 TL 10 14300 Td' : '/F1 12 Tf 14 TL 72 720 Td'} ${lines.map((line) => `(${escapeText(line)}) Tj T*`).join(' ')} ET`;
    objects.push(`<< /Length ${Buffer.byteLength(body, 'latin1')} >>\nstream\n${body}\nendstream`);
    const content = objects.length;
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${options.large ? '14400 14400' : '612 792'}] /Resources << /Font << /F1 3 0 R >> >> /Contents ${content} 0 R >>`,
    );
    kids.push(objects.length);
  }
  objects[0] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[1] = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`;
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  out += offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  const encrypt = options.encrypted
    ? ` /Encrypt << /Filter /Standard /V 1 /R 2 /O <${'ab'.repeat(32)}> /U <${'cd'.repeat(32)}> /P -4 >> /ID [<${'01'.repeat(16)}> <${'01'.repeat(16)}>]`
    : '';
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R${encrypt} >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}
