import { z } from 'zod';

/** Shapes shared by several modules' schemas. */
export const Uuid = z.uuid({ error: 'must be a UUID' });
export const ProjectParams = z.strictObject({ project_id: Uuid });
export const IsoDate = z.string().meta({ format: 'date-time' });

export const iso = (d: Date | string): string => (d instanceof Date ? d : new Date(d)).toISOString();
export const isoOrNull = (d: Date | string | null | undefined): string | null => (d ? iso(d) : null);

/** Lower-case, trimmed, inner white space folded: the key two texts are "the same" by. */
export const textKey = (s: string): string => s.trim().replace(/\s+/g, ' ').toLowerCase();

/** PostgreSQL unique-violation on a named constraint. */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const e = err as { code?: string; constraint?: string; message?: string; cause?: unknown };
  if (e?.cause && isUniqueViolation(e.cause, constraint)) return true;
  if (e?.code !== '23505') return false;
  return !constraint || e.constraint === constraint || (e.message ?? '').includes(constraint);
}
