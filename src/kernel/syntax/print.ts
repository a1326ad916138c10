/**
 * Commands printed back as bash prints them (`declare -f`, `type`, `jobs`): bash's layout of
 * blocks, four-space indents, `;` between statements, `elif` as a nested `if`, words as written.
 * @module
 */
import type { Command, Redirect, Script, Statement, Word } from './ast.js';
import { wordText } from './word-text.js';

/** A function definition as `declare -f` prints it. */
export function printFunction(name: string, body: Command, keyword = false): string {
  return `${keyword ? 'function ' : ''}${name} () \n${printBody(body, 0)}`;
}

/**
 * A command as `jobs` and `$BASH_COMMAND` show it: outside a function definition bash prints a
 * brace group on one line (`{ a; b; }`); the other compounds keep their layout.
 */
export function commandText(cmd: Command): string {
  inlineGroups = true;
  try {
    return printCommand(cmd, 0);
  } finally {
    inlineGroups = false;
  }
}

let inlineGroups = false;

const pad = (n: number): string => '    '.repeat(n);

function printBody(body: Command, level: number): string {
  if (body.type === 'group') {
    return `${pad(level)}{ \n${printStatements(body.body, level + 1)}\n${pad(level)}}${printRedirects(body.redirects)}`;
  }
  return `${pad(level)}{ \n${pad(level + 1)}${printCommand(body, level + 1)}\n${pad(level)}}`;
}

function printStatements(script: Script, level: number): string {
  const lines: string[] = [];
  const stmts = script.commands;
  let current = '';
  for (let i = 0; i < stmts.length; i += 1) {
    const s = stmts[i] as Statement;
    const text = printCommand(s.command, level);
    const last = i === stmts.length - 1;
    if (s.background) {
      current += `${text} & `;
      if (last) lines.push(`${pad(level)}${current.trimEnd()}`);
      continue;
    }
    current += text;
    const heredoc = endsWithHeredoc(s.command);
    lines.push(`${pad(level)}${current}${last || heredoc ? '' : ';'}`);
    current = '';
  }
  return lines.join('\n');
}

function endsWithHeredoc(cmd: Command): boolean {
  return cmd.type === 'simple' && cmd.redirects.some((r) => r.heredoc !== undefined);
}

function printCommand(cmd: Command, level: number): string {
  switch (cmd.type) {
    case 'simple': {
      const parts: string[] = [];
      for (const a of cmd.assignments) parts.push(a.text);
      for (const w of cmd.words) parts.push(wordText(w));
      const head = parts.join(' ');
      const redirects = printRedirects(cmd.redirects);
      const heredocs = cmd.redirects
        .filter((r) => r.heredoc !== undefined)
        .map((r) => `\n${heredocBody(r)}${r.heredoc?.delimiter}\n`)
        .join('');
      return `${head}${redirects}${heredocs}`;
    }
    case 'pipeline': {
      const parts = cmd.commands.map((c, i) => printCommand(c, level) + (cmd.stderrToo[i] ? ' 2>&1' : ''));
      const time = cmd.time === undefined ? '' : cmd.time.posix ? 'time -p ' : 'time ';
      return `${time}${cmd.negate ? '! ' : ''}${parts.join(' | ')}`;
    }
    case 'andor':
      return [
        printCommand(cmd.first, level),
        ...cmd.rest.map((r) => `${r.op} ${printCommand(r.command, level)}`),
      ].join(' ');
    case 'group':
      if (inlineGroups) return `{ ${inline(cmd.body, level)}; }${printRedirects(cmd.redirects)}`;
      return `{ \n${printStatements(cmd.body, level + 1)}\n${pad(level)}}${printRedirects(cmd.redirects)}`;
    case 'subshell':
      return `( ${printStatements(cmd.body, level).trimStart()} )${printRedirects(cmd.redirects)}`;
    case 'if': {
      const clause = cmd.clauses[0];
      if (clause === undefined) return '';
      let out = `if ${inline(clause.condition, level)}; then\n${printStatements(clause.body, level + 1)};\n`;
      const rest = cmd.clauses.slice(1);
      if (rest.length > 0) {
        const nested: Command = { ...cmd, clauses: rest, redirects: [] };
        out += `${pad(level)}else\n${pad(level + 1)}${printCommand(nested, level + 1)};\n`;
      } else if (cmd.elseBody !== undefined) {
        out += `${pad(level)}else\n${printStatements(cmd.elseBody, level + 1)};\n`;
      }
      return `${out}${pad(level)}fi${printRedirects(cmd.redirects)}`;
    }
    case 'loop':
      return `${cmd.until ? 'until' : 'while'} ${inline(cmd.condition, level)}; do\n${printStatements(cmd.body, level + 1)};\n${pad(level)}done${printRedirects(cmd.redirects)}`;
    case 'for': {
      const words = cmd.words === undefined ? '' : ` in ${cmd.words.map(wordText).join(' ')}`;
      return `for ${cmd.variable}${words};\n${pad(level)}do\n${printStatements(cmd.body, level + 1)};\n${pad(level)}done${printRedirects(cmd.redirects)}`;
    }
    case 'select': {
      const words = cmd.words === undefined ? '' : ` in ${cmd.words.map(wordText).join(' ')}`;
      return `select ${cmd.variable}${words};\n${pad(level)}do\n${printStatements(cmd.body, level + 1)};\n${pad(level)}done${printRedirects(cmd.redirects)}`;
    }
    case 'arithfor': {
      const part = (w: Word | undefined): string => (w === undefined ? '' : wordText(w).trim());
      return `for ((${part(cmd.init)}; ${part(cmd.condition)}; ${part(cmd.step)}))\n${pad(level)}do\n${printStatements(cmd.body, level + 1)};\n${pad(level)}done${printRedirects(cmd.redirects)}`;
    }
    case 'case': {
      let out = `case ${wordText(cmd.word)} in \n`;
      for (const item of cmd.items) {
        out += `${pad(level + 1)}${item.patterns.map(wordText).join(' | ')})\n`;
        out += item.body.commands.length === 0 ? '\n' : `${printStatements(item.body, level + 2)}\n`;
        out += `${pad(level + 1)}${item.terminator}\n`;
      }
      return `${out}${pad(level)}esac${printRedirects(cmd.redirects)}`;
    }
    case 'function':
      return printFunction(cmd.name, cmd.body, true).replace(/\n/g, `\n${pad(level)}`);
    case 'arithcmd':
      return `((${wordText(cmd.expr)}))${printRedirects(cmd.redirects)}`;
    case 'cond':
      return `[[ ${printCond(cmd.expr)} ]]${printRedirects(cmd.redirects)}`;
    case 'coproc':
      return `coproc ${cmd.name} ${printCommand(cmd.body, level)}`;
  }
}

function printCond(node: import('./ast.js').CondNode): string {
  switch (node.type) {
    case 'and':
      return `${printCond(node.left)} && ${printCond(node.right)}`;
    case 'or':
      return `${printCond(node.left)} || ${printCond(node.right)}`;
    case 'not':
      return `! ${printCondOperand(node.operand)}`;
    case 'unary':
      return `${node.op} ${wordText(node.operand)}`;
    case 'binary':
      return `${wordText(node.left)} ${node.op} ${wordText(node.right)}`;
    case 'word':
      return `-n ${wordText(node.word)}`;
  }
}

function printCondOperand(node: import('./ast.js').CondNode): string {
  if (node.type === 'and' || node.type === 'or') return `( ${printCond(node)} )`;
  return printCond(node);
}

function inline(script: Script, level: number): string {
  return script.commands.map((s) => printCommand(s.command, level) + (s.background ? ' &' : '')).join('; ');
}

function printRedirects(redirects: readonly Redirect[]): string {
  let out = '';
  for (const r of redirects) {
    const fd = r.fdVar !== undefined ? `{${r.fdVar}}` : r.fd === undefined ? '' : String(r.fd);
    const target = r.heredoc !== undefined ? r.heredoc.delimiter : wordText(r.target);
    if (r.op === '>&' || r.op === '<&') out += ` ${fd}${r.op}${target}`;
    else if (r.heredoc !== undefined) out += ` ${fd}${r.op}${r.heredoc.quoted ? `'${target}'` : target}`;
    else out += ` ${fd}${r.op} ${target}`;
  }
  return out;
}

function heredocBody(r: Redirect): string {
  const doc = r.heredoc;
  if (doc === undefined) return '';
  return doc.body.parts.map((p) => (p.type === 'sq' ? p.value : wordText({ parts: [p] }))).join('');
}
