export interface Expect {
  stdout?: string;
  stderr?: string;
  status?: number;
}
export interface SpecCase {
  readonly name: string;
  readonly line: number;
  readonly code: string;
}
export interface SpecFile {
  readonly file: string;
  readonly cases: SpecCase[];
}
export function parseSpecFile(file: string, text: string): SpecFile;
export function gradedSpecFiles(specDir: string): SpecFile[];
export function caseId(file: string, index: number): string;
export function grade(
  kase: SpecCase,
  outcome: { stdout: string; stderr: string; status: number },
): { pass: boolean; problems: string[]; expected: Expect };
