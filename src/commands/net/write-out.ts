/**
 * curl's `-w`/`--write-out` format: `%{variable}` for the transfer's facts, `\n` `\r` `\t`,
 * `%%`, and `%{stdout}`/`%{stderr}` to switch streams. An unknown variable is reported and
 * dropped, as curl does.
 * @module
 */

/** The facts of one finished (or failed) transfer. */
export interface TransferFacts {
  readonly httpCode: number;
  readonly urlEffective: string;
  readonly contentType: string | undefined;
  readonly sizeDownload: number;
  readonly sizeUpload: number;
  readonly sizeHeader: number;
  readonly numRedirects: number;
  readonly timeTotalMs: number;
  readonly timeStartTransferMs: number;
  readonly redirectUrl: string | undefined;
  readonly method: string;
  readonly exitCode: number;
  readonly errorMessage: string | undefined;
  readonly filenameEffective: string | undefined;
  readonly scheme: string;
}

export interface WriteOutPiece {
  readonly stream: 'stdout' | 'stderr';
  readonly text: string;
}

/** Expand `format`; `warn` hears curl's message for each unknown variable. */
export function expandWriteOut(
  format: string,
  facts: TransferFacts,
  warn: (message: string) => void,
): WriteOutPiece[] {
  const pieces: WriteOutPiece[] = [];
  let stream: 'stdout' | 'stderr' = 'stdout';
  let text = '';
  const flush = (): void => {
    if (text !== '') pieces.push({ stream, text });
    text = '';
  };
  let i = 0;
  while (i < format.length) {
    const ch = format[i] as string;
    if (ch === '%' && format[i + 1] === '%') {
      text += '%';
      i += 2;
      continue;
    }
    if (ch === '%' && format[i + 1] === '{') {
      const end = format.indexOf('}', i + 2);
      if (end === -1) {
        text += format.slice(i);
        break;
      }
      const name = format.slice(i + 2, end);
      i = end + 1;
      if (name === 'stdout' || name === 'stderr') {
        flush();
        stream = name;
        continue;
      }
      const value = variable(name, facts);
      if (value === undefined) warn(`curl: unknown --write-out variable: '${name}'\n`);
      else text += value;
      continue;
    }
    if (ch === '\\' && i + 1 < format.length) {
      const next = format[i + 1] as string;
      text += next === 'n' ? '\n' : next === 'r' ? '\r' : next === 't' ? '\t' : `\\${next}`;
      i += 2;
      continue;
    }
    text += ch;
    i += 1;
  }
  flush();
  return pieces;
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(6);
}

function variable(name: string, f: TransferFacts): string | undefined {
  switch (name) {
    case 'http_code':
    case 'response_code':
      return String(f.httpCode).padStart(3, '0');
    case 'url_effective':
      return f.urlEffective;
    case 'content_type':
      return f.contentType ?? '';
    case 'size_download':
      return String(f.sizeDownload);
    case 'size_upload':
      return String(f.sizeUpload);
    case 'size_header':
      return String(f.sizeHeader);
    case 'num_redirects':
      return String(f.numRedirects);
    case 'time_total':
      return seconds(f.timeTotalMs);
    case 'time_starttransfer':
      return seconds(f.timeStartTransferMs);
    case 'redirect_url':
      return f.redirectUrl ?? '';
    case 'method':
      return f.method;
    case 'exitcode':
      return String(f.exitCode);
    case 'errormsg':
      return f.errorMessage ?? '';
    case 'filename_effective':
      return f.filenameEffective ?? '';
    case 'scheme':
      return f.scheme.toUpperCase();
    case 'http_version':
      return f.httpCode === 0 ? '0' : '1.1';
    default:
      return undefined;
  }
}
