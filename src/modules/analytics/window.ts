import { z } from 'zod';
import { Invalid } from '../../http/errors';
import { utcDay } from '../../lib/time';
import { PROVIDERS, type ProviderName } from '../../ports/providers/types';

/** The common query parameters (spec section 1): window and provider filter. */
export const WindowQueryShape = {
  duration_days: z.coerce
    .number({ error: 'duration_days must be an integer from 1 to 365' })
    .int('duration_days must be an integer from 1 to 365')
    .min(1, 'duration_days must be an integer from 1 to 365')
    .max(365, 'duration_days must be an integer from 1 to 365')
    .optional(),
  date_from: z.string().optional().meta({ description: 'YYYY-MM-DD (UTC), inclusive' }),
  date_to: z.string().optional().meta({ description: 'YYYY-MM-DD (UTC), inclusive' }),
  providers: z.string().optional().meta({ description: `Comma-separated: ${PROVIDERS.join(', ')}` }),
};
export const WindowQuery = z.strictObject(WindowQueryShape);
export type WindowQueryInput = z.infer<typeof WindowQuery>;

export const MAX_WINDOW_DAYS = 366;

export interface Window {
  from: string;
  to: string;
  days: number;
  /** The window of the same length just before this one (for trends). */
  prevFrom: string;
  prevTo: string;
  /** Null: all providers. */
  providers: ProviderName[] | null;
  /** `<date> to <date>`. */
  period: string;
}

const DAY_MS = 86_400_000;

function parseDay(value: string, name: string): number {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) throw new Invalid(`${name} must be a date in the form YYYY-MM-DD`);
  const t = Date.parse(`${value}T00:00:00Z`);
  if (Number.isNaN(t) || new Date(t).toISOString().slice(0, 10) !== value) {
    throw new Invalid(`${name} must be a valid calendar date (YYYY-MM-DD)`);
  }
  return t;
}

export const dayOf = (t: number) => new Date(t).toISOString().slice(0, 10);
export const addDays = (day: string, n: number) => dayOf(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS);

/** Every day of the window, oldest first. */
export function daysOf(w: Pick<Window, 'from' | 'days'>): string[] {
  const start = Date.parse(`${w.from}T00:00:00Z`);
  return Array.from({ length: w.days }, (_, i) => dayOf(start + i * DAY_MS));
}

/**
 * DECISIONS section 4: date_from/date_to (inclusive, UTC) override duration_days; the
 * default window is the last 7 days ending today; an unknown provider is a 400.
 */
export function resolveWindow(q: WindowQueryInput, today = utcDay()): Window {
  const duration = q.duration_days ?? 7;
  let to = q.date_to !== undefined ? parseDay(q.date_to, 'date_to') : parseDay(today, 'today');
  let from: number;
  if (q.date_from !== undefined) {
    from = parseDay(q.date_from, 'date_from');
    if (q.date_to === undefined && from > to) to = from;
  } else {
    from = to - (duration - 1) * DAY_MS;
  }
  if (from > to) throw new Invalid('date_from must not be after date_to');
  const days = Math.round((to - from) / DAY_MS) + 1;
  if (days > MAX_WINDOW_DAYS) throw new Invalid(`The window may span at most ${MAX_WINDOW_DAYS} days`);
  let providers: ProviderName[] | null = null;
  if (q.providers !== undefined) {
    const names = q.providers.split(',').map((p) => p.trim().toLowerCase()).filter(Boolean);
    const unknown = names.filter((p) => !(PROVIDERS as readonly string[]).includes(p));
    if (unknown.length) throw new Invalid(`Unknown provider: ${unknown.join(', ')}. Known providers: ${PROVIDERS.join(', ')}`);
    if (names.length === 0) throw new Invalid('providers must name at least one provider');
    providers = [...new Set(names)] as ProviderName[];
  }
  const f = dayOf(from);
  const t = dayOf(to);
  return {
    from: f,
    to: t,
    days,
    prevFrom: dayOf(from - days * DAY_MS),
    prevTo: dayOf(from - DAY_MS),
    providers,
    period: `${f} to ${t}`,
  };
}

/** SQL provider filter for rollup tables: the '*' rows unless a filter is given. */
export function providerFilter(w: Window): string[] {
  return w.providers ?? ['*'];
}
