import fs from 'node:fs';
import { BENCH_README } from './suite.js';

export function table(headers: string[], rows: (string | number)[][]): string {
  const align = headers.map((_, i) => (rows.every((r) => typeof r[i] === 'number' || /^[\d.,×%-]+( ms)?$/.test(String(r[i]))) ? '---:' : '---'));
  return [
    `| ${headers.join(' | ')} |`,
    `| ${align.join(' | ')} |`,
    ...rows.map((r) => `| ${r.map(String).join(' | ')} |`),
  ].join('\n');
}

export const fmt = {
  int: (n: number) => Math.round(n).toLocaleString('en-US'),
  ms: (n: number) => (Number.isFinite(n) ? `${n.toFixed(2)} ms` : '–'),
  pct: (n: number) => `${(n * 100).toFixed(1)}%`,
  us: (n: number) => (Number.isFinite(n) ? `${Math.round(n)} µs` : '–'),
  cpu: (c: { server: number; loadGen: number; machine: number } | null) =>
    c ? `${Math.round(c.server)}% / ${Math.round(c.loadGen)}% / ${Math.round(c.machine)}%` : '–',
};

/** Replaces the text between `<!-- bench:ID:start -->` and `<!-- bench:ID:end -->` (appends the section when missing). */
export function updateReadmeSection(id: string, content: string, file = BENCH_README): void {
  const start = `<!-- bench:${id}:start -->`;
  const end = `<!-- bench:${id}:end -->`;
  const block = `${start}\n${content.trim()}\n${end}`;
  const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '# Benchmarks\n';
  const i = text.indexOf(start);
  const j = text.indexOf(end);
  const next = i >= 0 && j > i ? text.slice(0, i) + block + text.slice(j + end.length) : `${text.trimEnd()}\n\n${block}\n`;
  fs.writeFileSync(file, next);
}
