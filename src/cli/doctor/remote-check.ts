/**
 * Doctor checks for the remote sandbox contexts: is the SDK (an optional peer dependency) there,
 * and are credentials set? Nothing is created and nothing is sent: loading the SDKs does no
 * network, and a key is only looked for, never tried.
 * @module
 */
import { loadSdk } from '../../contexts/remote/load-sdk.js';
import type { DoctorCheck } from './check.js';
import { messageOf } from './check.js';

interface RemoteSpec {
  readonly id: 'e2b' | 'daytona';
  readonly title: string;
  readonly packageName: string;
  readonly keyNames: readonly string[];
  readonly export: string;
}

const SPECS: readonly RemoteSpec[] = [
  {
    id: 'e2b',
    title: 'E2B (--context e2b)',
    packageName: 'e2b',
    keyNames: ['E2B_API_KEY'],
    export: 'Sandbox',
  },
  {
    id: 'daytona',
    title: 'Daytona (--context daytona)',
    packageName: '@daytonaio/sdk',
    keyNames: ['DAYTONA_API_KEY', 'DAYTONA_JWT_TOKEN'],
    export: 'Daytona',
  },
];

async function checkOne(spec: RemoteSpec, env: NodeJS.ProcessEnv): Promise<DoctorCheck> {
  const base = { id: spec.id, title: spec.title };
  const key = spec.keyNames.find((name) => (env[name] ?? '') !== '');
  let sdk: string;
  let loaded = false;
  try {
    const module = await loadSdk<Record<string, unknown>>(spec.id, spec.packageName);
    loaded = typeof module[spec.export] === 'function';
    sdk = loaded ? `${spec.packageName} loads` : `${spec.packageName} loads but has no ${spec.export}`;
  } catch (error) {
    sdk = messageOf(error).split(';')[0]!;
  }
  const credentials = key ? `${key} is set` : `${spec.keyNames.join(' / ')} not set`;
  if (loaded && key)
    return { ...base, status: 'ok', detail: `${sdk}; ${credentials} (not tried: doctor creates nothing)` };
  if (!loaded && !key) {
    return {
      ...base,
      status: 'skip',
      detail: `not set up: ${sdk}; ${credentials}`,
      fix: `to use it: \`npm install ${spec.packageName}\` next to berth and set ${spec.keyNames[0]}`,
    };
  }
  return {
    ...base,
    status: 'warn',
    detail: `${sdk}; ${credentials}`,
    fix: loaded
      ? `set ${spec.keyNames[0]} to an API key of your ${spec.id === 'e2b' ? 'E2B' : 'Daytona'} account`
      : `\`npm install ${spec.packageName}\` next to berth (it is an optional peer dependency)`,
  };
}

/** One finding per remote provider. */
export function checkRemoteContexts(env: NodeJS.ProcessEnv): Promise<DoctorCheck[]> {
  return Promise.all(SPECS.map((spec) => checkOne(spec, env)));
}
