/**
 * Declared capabilities match the object: each flag's methods exist exactly when it is true, and a
 * `false` flag guarding a required method makes that method refuse with `CapabilityError`.
 * @module
 */
import { expect } from 'vitest';
import {
  BOOLEAN_CAPABILITIES,
  type BooleanCapability,
  CAPABILITY_METHODS,
  capabilityShapeProblems,
  describeShapeProblems,
  ISOLATION_KINDS,
} from '../capability-shape.js';
import type { ConformanceCase, ConformanceSection } from '../case.js';
import { expectBerthError } from '../expect-error.js';

function shapeCase(capability: BooleanCapability): ConformanceCase {
  const methods = CAPABILITY_METHODS[capability] ?? [];
  return {
    // Case ids are kebab-case: `backgroundStdin` → `shape-background-stdin`.
    id: `capabilities/shape-${capability.replace(/[A-Z]/g, (upper) => `-${upper.toLowerCase()}`)}`,
    title: `capabilities.${capability} matches the presence of ${
      methods.length > 0 ? methods.join(', ') : 'its methods'
    }${capability === 'filesystem' ? ' (and readFileBytes is undefined without it)' : ''}`,
    needs: [],
    exercises: [],
    run: async ({ context }) => {
      const problems = capabilityShapeProblems(context, capability);
      expect(problems, describeShapeProblems(problems)).toEqual([]);
    },
  };
}

const shapeCases = BOOLEAN_CAPABILITIES.filter((cap) => CAPABILITY_METHODS[cap] !== undefined).map(shapeCase);

export const capabilitiesSection: ConformanceSection = {
  name: 'capabilities',
  cases: [
    {
      id: 'capabilities/declared',
      title: 'type is a non-empty string and every capability is declared with the right type',
      needs: [],
      run: async ({ context, handle }) => {
        expect(typeof context.type).toBe('string');
        expect(context.type.length).toBeGreaterThan(0);
        for (const cap of BOOLEAN_CAPABILITIES) {
          expect(typeof context.capabilities[cap], `capabilities.${cap}`).toBe('boolean');
        }
        expect(ISOLATION_KINDS).toContain(context.capabilities.isolation);
        expect(handle.type, 'handle.type names the context type').toBe(context.type);
      },
    },
    ...shapeCases,
    {
      id: 'capabilities/shell-refused',
      title: 'without capabilities.shell, exec rejects with CapabilityError',
      needs: [],
      needsAbsent: ['shell'],
      run: async ({ context, handle }) => {
        await expectBerthError(context.exec(handle, 'true'), 'E_CAPABILITY', 'exec without shell');
      },
    },
    {
      id: 'capabilities/filesystem-refused',
      title: 'without capabilities.filesystem, readFile / writeFile / listFiles reject with CapabilityError',
      needs: [],
      needsAbsent: ['filesystem'],
      run: async ({ context, handle, dir }) => {
        await expectBerthError(context.readFile(handle, `${dir}/x`), 'E_CAPABILITY', 'readFile');
        await expectBerthError(context.writeFile(handle, `${dir}/x`, 'x'), 'E_CAPABILITY', 'writeFile');
        await expectBerthError(context.listFiles(handle, dir), 'E_CAPABILITY', 'listFiles');
      },
    },
    {
      id: 'capabilities/glob-refused',
      title:
        'without capabilities.glob, listFiles with a pattern rejects with CapabilityError (never an empty list)',
      needs: ['filesystem'],
      needsAbsent: ['glob'],
      exercises: ['filesystem', 'glob'],
      run: async ({ context, handle, dir }) => {
        await context.writeFile(handle, `${dir}/a.txt`, 'a');
        await expectBerthError(context.listFiles(handle, `${dir}/*.txt`), 'E_CAPABILITY', 'listFiles(glob)');
      },
    },
  ],
};
