export interface ReportFile {
  name: string;
  status?: string;
  message?: string;
  assertionResults?: { status: string; title?: string; fullName?: string; failureMessages?: string[] }[];
}
export interface Report {
  testResults?: ReportFile[];
  [key: string]: unknown;
}
export const V8_WASM_CRASH: RegExp;
export function countTests(files: ReportFile[]): { passed: number; failed: number; skipped: number };
export function unfinishedFiles(report: Report): string[];
export function replaceFiles(report: Report, files: string[], rerun: Report): Report;
