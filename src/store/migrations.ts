import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const MIGRATIONS_FOLDER = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../migrations');

/** Advisory lock key that serialises migrations when several processes start at once. */
export const MIGRATION_LOCK_KEY = 7_403_112_901;
