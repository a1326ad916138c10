/**
 * Doctor check for the OS sandbox, from the sandbox preflight.
 * @module
 */
import { probeSandbox } from '../../sandbox/index.js';
import type { SandboxReport } from '../../sandbox/types.js';
import { type DoctorCheck, messageOf } from './check.js';

/** Run the sandbox preflight and summarise it; its own checks come along as sub-checks. */
export async function checkSandbox(): Promise<{ check: DoctorCheck; report: SandboxReport | null }> {
  const base = { id: 'sandbox', title: 'OS sandbox' };
  let report: SandboxReport;
  try {
    report = await probeSandbox();
  } catch (error) {
    return {
      check: { ...base, status: 'fail', detail: `the sandbox preflight failed: ${messageOf(error)}` },
      report: null,
    };
  }
  const checks = report.checks.map((c) => ({ ...c }));
  if (!report.available) {
    return {
      check: {
        ...base,
        status: 'fail',
        detail: `${report.backend} cannot confine commands here: ${report.reason ?? 'see the checks below'}; berth run/mcp fall back to unsandboxed unless --sandbox is given`,
        fix: report.fix,
        checks,
      },
      report,
    };
  }
  return {
    check: {
      ...base,
      status: report.networkIsolation ? 'ok' : 'warn',
      detail: `${report.backend} works on ${report.platform}${report.networkIsolation ? '; network can be denied' : '; network CANNOT be denied here (--network deny will fail)'}`,
      ...(report.networkIsolation ? {} : { fix: report.fix }),
      checks,
    },
    report,
  };
}
