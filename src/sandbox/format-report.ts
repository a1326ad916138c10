/**
 * A preflight report as text a person can act on.
 * @module
 */
import type { SandboxCheckStatus, SandboxReport } from './types.js';

const MARK: Record<SandboxCheckStatus, string> = { ok: 'ok  ', warn: 'warn', fail: 'FAIL', skip: 'skip' };

/** Render `report`: a verdict line, then one line per check with its fix indented beneath. */
export function formatSandboxReport(report: SandboxReport): string {
  const verdict = report.available
    ? `OS sandbox: available (${report.backend} on ${report.platform}); network isolation ${report.networkIsolation ? 'available' : 'UNAVAILABLE'}`
    : `OS sandbox: UNAVAILABLE (${report.backend} on ${report.platform}); sandboxed commands fail closed with exit 127`;
  const lines = [verdict];
  if (report.reason !== undefined) lines.push(`  why: ${report.reason}`);
  if (report.fix !== undefined) lines.push(`  fix: ${report.fix}`);
  lines.push('');
  for (const check of report.checks) {
    lines.push(`[${MARK[check.status]}] ${check.title}: ${check.detail}`);
    if (check.fix !== undefined && check.status !== 'ok') lines.push(`       fix: ${check.fix}`);
  }
  return `${lines.join('\n')}\n`;
}
