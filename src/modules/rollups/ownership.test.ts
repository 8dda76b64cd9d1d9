import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The rollups have one owner: src/modules/rollups writes and reads every rollup table, and
// no other runtime file names one (README.md beside this file). The store's schema declares
// them; tests and benchmarks may fill and inspect them directly.

const SRC = path.resolve(import.meta.dirname, '../..');
const OWNER = path.join(SRC, 'modules', 'rollups');
const SCHEMA = path.join(SRC, 'store', 'schema.ts');

/** Every rollup table the schema declares: the per-day, -week and -month sums and the domain dictionary. */
function rollupTables(): string[] {
  const schema = readFileSync(SCHEMA, 'utf8');
  const tables = [...schema.matchAll(/pgTable\(\s*'([a-z_]+)'/g)].map((m) => m[1]);
  return tables.filter((t) => /_(daily|weekly|monthly)$/.test(t) || t === 'project_domains');
}

function runtimeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return runtimeFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

/** The rollup tables a file's text names, as whole words (SQL, comments and strings alike). */
function tablesNamed(text: string, tables: string[]): string[] {
  return tables.filter((t) => new RegExp(`\\b${t}\\b`).test(text));
}

describe('the rollups have one owner', () => {
  const tables = rollupTables();

  it('finds the rollup tables in the schema', () => {
    expect(tables).toEqual(expect.arrayContaining(['prompt_daily', 'project_daily', 'project_weekly', 'project_domain_daily', 'project_domains', 'theme_daily', 'crawler_hits_daily']));
  });

  it('no file outside src/modules/rollups names a rollup table', () => {
    const offenders = runtimeFiles(SRC)
      .filter((file) => !file.startsWith(OWNER + path.sep) && file !== SCHEMA)
      .flatMap((file) => tablesNamed(readFileSync(file, 'utf8'), tables).map((t) => `${path.relative(SRC, file)}: ${t}`));
    expect(offenders).toEqual([]);
  });

  it('catches a table named in SQL or in a comment, and not a longer name', () => {
    expect(tablesNamed('select * from prompt_daily where', tables)).toEqual(['prompt_daily']);
    expect(tablesNamed('// summed from project_theme_daily', tables)).toEqual(['project_theme_daily']);
    expect(tablesNamed('prompt_daily_view', tables)).toEqual([]);
  });
});
