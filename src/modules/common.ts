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

/** A 95% interval [low, high], or null when the figure has too few responses for one. */
export const Ci = (description: string) => z.tuple([z.number(), z.number()]).nullable().meta({ description });

/** The uncertainty beside a window's visibility, position and sentiment (extension fields, docs/analytics.md). */
export const UncertaintyShape = {
  responses: z.number().int().meta({ description: 'Extension: the responses (answers) in the window that visibility is computed over.' }),
  visibility_ci: Ci('Extension: 95% Wilson score interval of visibility, [low, high] in percent, 2 decimals; null when responses is 0.'),
  position_ci: Ci(
    'Extension: 95% t interval of the mean position over the responses that mention the brand, [low, high], 2 decimals (never below 1); null with fewer than 2 such responses.',
  ),
  sentiment_ci: Ci(
    'Extension: 95% t interval of the mean sentiment over the responses that mention the brand, [low, high] within 0..100, 2 decimals; null with fewer than 2 such responses.',
  ),
};

export const TREND_DESCRIPTION =
  "Visibility against the window before: 'up' or 'down' only when the two differ at the 95% level (two-proportion z-test), 'stable' otherwise; null when either window has no responses.";
