/**
 * Every section of the conformance suite, in the order they run.
 * @module
 */
import type { ConformanceSection } from '../case.js';
import { backgroundSection } from './background.js';
import { backgroundOwnershipSection } from './background-ownership.js';
import { backgroundStdinSection } from './background-stdin.js';
import { cancelSection } from './cancel.js';
import { capabilitiesSection } from './capabilities.js';
import { containmentSection } from './containment.js';
import { execSection } from './exec.js';
import { execInputSection } from './exec-input.js';
import { filesSection } from './files.js';
import { globSection } from './glob.js';
import { handlesSection } from './handles.js';
import { networkSection } from './network.js';
import { outputSection } from './output.js';
import { streamSection } from './stream.js';
import { terminalSection } from './terminal.js';

export const CONFORMANCE_SECTIONS: readonly ConformanceSection[] = [
  capabilitiesSection,
  handlesSection,
  execSection,
  execInputSection,
  outputSection,
  cancelSection,
  backgroundSection,
  backgroundOwnershipSection,
  backgroundStdinSection,
  streamSection,
  terminalSection,
  filesSection,
  globSection,
  containmentSection,
  networkSection,
];
