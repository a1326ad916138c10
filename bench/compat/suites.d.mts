export interface CompatCase {
  readonly id: string;
  readonly argv: string[];
  readonly stdin: string;
  /** Files the case needs in its working directory, by name. */
  readonly files?: Readonly<Record<string, string>>;
}
export interface CompatOutcome {
  readonly status: number;
  readonly stdout: string;
}
export function compatDir(repoRoot: string): string;
export function loadGrepCases(dir: string): CompatCase[];
export function gradeGrep(c: CompatCase, outcome: CompatOutcome): boolean;
export function loadSedCases(dir: string): CompatCase[];
export function gradeSed(c: CompatCase, outcome: CompatOutcome): boolean;
export function readRatchet(path: string): string[];
