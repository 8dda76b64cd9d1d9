import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The drizzle migrations folder (`migrations/` at the project root). Found by walking up from
 * this module, so the same code works from src/store/ (tests, tsx), from dist/store/ (the
 * build) and from any other depth a layout change might give it.
 */
export function findMigrationsFolder(from = path.dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'migrations');
    if (fs.existsSync(path.join(candidate, 'meta', '_journal.json'))) return candidate;
    if (path.dirname(dir) === dir) throw new Error(`no migrations/meta/_journal.json above ${from}`);
  }
}

export const MIGRATIONS_FOLDER = findMigrationsFolder();

/** Advisory lock key that serialises migrations when several processes start at once. */
export const MIGRATION_LOCK_KEY = 7_403_112_901;
