/**
 * jq for the virtual shell: the command, and the engine for hosts that hold JSON values.
 * @module
 */

export { compileJq, JqCompileError, runJq } from './engine.js';
export { evaluateJq } from './evaluate.js';
export { jqCommand } from './jq-command.js';
