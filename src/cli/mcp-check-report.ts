/**
 * What `berth mcp --check` prints: a short report for a person, or the same facts as JSON.
 * @module
 */
import type { ContextChoice } from './context-setup.js';
import { formatDuration } from './duration.js';
import type { McpCheckResult } from './mcp-check.js';
import type { InstallKind, StdioServerEntry } from './mcp-client-config.js';
import { clientConfig } from './mcp-client-config.js';
import type { Style } from './style.js';
import { networkSummary } from './virtual-setup.js';

/** Whether commands were confined, and why. */
export interface SandboxState {
  /**
   * `on`/`off`: the OS sandbox; `container`: the docker context; `virtual`: the virtual context
   * (no host process at all); `unknown`: the server never said.
   */
  readonly state: 'on' | 'off' | 'container' | 'virtual' | 'unknown';
  readonly reason: string;
}

/** Everything the report states. */
export interface CheckReport {
  readonly result: McpCheckResult;
  readonly sandbox: SandboxState;
  readonly install: InstallKind;
  readonly entry: StdioServerEntry;
}

/** Lines of a tool's output shown in the human report. */
const SHOWN_LINES = 12;
const WARNING_PREFIX = 'berth: warning: ';

/** Decide the sandbox state from the options and what the server reported about itself. */
export function sandboxStateOf(choice: ContextChoice, result: McpCheckResult): SandboxState {
  if (choice.kind === 'kubernetes') {
    return {
      state: 'container',
      reason: `the kubernetes context isolates commands in a pod of ${choice.image} (${choice.harden ? 'hardened' : 'not hardened: --no-harden'}); the OS sandbox is not used`,
    };
  }
  if (choice.kind === 'e2b' || choice.kind === 'daytona') {
    return {
      state: 'container',
      reason: `the ${choice.kind} context runs commands in a remote sandbox (network ${choice.network}); the OS sandbox is not used`,
    };
  }
  if (choice.kind === 'docker') {
    return {
      state: 'container',
      reason: `the docker context isolates commands in a container of ${choice.image} (network ${choice.network}, ${choice.harden ? 'hardened' : 'not hardened: --no-harden'}); the OS sandbox is not used`,
    };
  }
  if (choice.kind === 'virtual') {
    return {
      state: 'virtual',
      reason: `the virtual context runs commands in berth's own shell, in the server process: no host process, ${networkSummary(choice)}, and ${choice.root} only as a copy-on-write view; the OS sandbox is not needed`,
    };
  }
  if (choice.sandbox === false) return { state: 'off', reason: '--no-sandbox was given' };
  const context = result.context ?? '';
  if (context.includes('unsandboxed')) {
    const warning = result.serverStderr.split('\n').find((line) => line.startsWith(WARNING_PREFIX));
    return {
      state: 'off',
      reason: warning
        ? warning.slice(WARNING_PREFIX.length)
        : 'the OS sandbox does not work here (berth doctor says why)',
    };
  }
  if (context.includes('sandboxed')) {
    return {
      state: 'on',
      reason: `${choice.sandboxRequiredBy ? `${choice.sandboxRequiredBy} was given and ` : ''}the sandbox preflight passed: commands may write only the root and the temp directory, credential locations are hidden, network ${choice.network}`,
    };
  }
  return { state: 'unknown', reason: 'the server did not start far enough to report its context' };
}

/** The JSON form (`--json`). */
export function checkReportJson(report: CheckReport): Record<string, unknown> {
  const { result } = report;
  return {
    ok: result.ok,
    ...(result.error === undefined ? {} : { error: result.error }),
    durationMs: result.durationMs,
    server: result.server,
    serverInfo: result.serverInfo ?? null,
    context: result.context ?? null,
    sandbox: report.sandbox,
    tools: result.tools,
    calls: result.calls,
    steps: result.steps,
    serverStderr: result.serverStderr,
    install: report.install,
    clientConfig: clientConfig(report.entry),
  };
}

/** The human form. */
export function checkReportText(report: CheckReport, style: Style): string {
  const { result } = report;
  const out: string[] = [];
  const seconds = formatDuration(result.durationMs);
  out.push(
    result.ok
      ? `${style.green('✓')} berth mcp works: an MCP client started it, listed its tools and called two (${seconds})`
      : `${style.red('✗')} berth mcp --check FAILED after ${seconds}`,
    '',
  );
  const row = (label: string, value: string) => out.push(`  ${label.padEnd(9)}${value}`);
  const info = result.serverInfo ? `, ${result.serverInfo.name} ${result.serverInfo.version}` : '';
  row(
    'server',
    `${[result.server.command, ...result.server.args].join(' ')}${result.server.pid ? ` (pid ${result.server.pid}${info})` : ''}`,
  );
  row('context', result.context ?? 'unknown (the server did not report it)');
  row('sandbox', `${report.sandbox.state}: ${report.sandbox.reason}`);
  row(
    'tools',
    result.tools.length === 0 ? 'none listed' : `${result.tools.length}: ${result.tools.join(', ')}`,
  );
  row(
    'steps',
    result.steps.map((s) => `${s.name} ${s.ok ? '' : 'FAILED '}${formatDuration(s.durationMs)}`).join(' · '),
  );

  for (const call of result.calls) {
    out.push(
      '',
      `${style.bold(call.tool)} ${JSON.stringify(call.arguments)} (${formatDuration(call.durationMs)}${call.isError ? ', an error result' : ''}); the model saw:`,
    );
    const lines = call.text.replace(/\n$/, '').split('\n');
    for (const line of lines.slice(0, SHOWN_LINES)) out.push(`  │ ${line}`);
    if (lines.length > SHOWN_LINES) out.push(`  │ … ${lines.length - SHOWN_LINES} more lines`);
  }

  // The failure itself goes to stderr (see the command); the report stops here.
  if (!result.ok) return `${out.join('\n')}\n`;
  out.push(
    '',
    'Register it with your MCP client (the "mcpServers" entry of its configuration):',
    JSON.stringify(clientConfig(report.entry), null, 2),
    report.install === 'checkout'
      ? '(this berth runs from a source checkout, so the client starts it with node and the path of its built CLI; from an installed package the command is `npx berth mcp`)'
      : '(npx finds berth in the project that installed it, or a global install; a client that starts servers elsewhere needs `npm install -g berth`)',
  );
  return `${out.join('\n')}\n`;
}
