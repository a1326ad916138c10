export const VIRTUAL_ROOT: string;
export const HELPERS: string[];
export interface OilsFile {
  readonly data: Uint8Array;
  readonly mode: number;
}
export function specFiles(root: string): Record<string, OilsFile>;
export interface OilsEnv {
  createKernel(options: unknown): unknown;
  encodeText(text: string): Uint8Array;
  createFs(seed: Record<string, unknown>): unknown;
  files: Record<string, OilsFile>;
}
export interface OilsOutcome {
  readonly stdout: string;
  readonly stderr: string;
  readonly status: number;
}
export function runOilsCase(
  env: OilsEnv,
  kase: unknown,
  options?: { timeoutMs?: number },
): Promise<{ outcome: OilsOutcome; result: { pass: boolean; problems: string[] } }>;
