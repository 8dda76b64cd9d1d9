import { z } from 'zod';
import { Invalid } from '../../lib/errors.js';
import { marketCode, parseMarketCode } from '../../lib/markets.js';
import { DAY_MS, dayMs, dayOf, utcDay } from '../../lib/time.js';
import { PROVIDER_SURFACE, PROVIDERS, SURFACES, type ProviderName, type Surface } from '../../ports/providers/types.js';

/** The `market` query parameter of every analytics read (lib/markets.ts). */
export const MarketParam = z
  .string()
  .optional()
  .meta({
    description:
      'Extension: only the answers asked in this market, written COUNTRY-language (`US-en`, `DE-de`): a prompt in several markets is a series per market. Absent: every market.',
  });

/** A `market` parameter as its code (`us-EN` → `US-en`); null when absent; a 400 when it is not a market. */
export function resolveMarket(value: string | undefined): string | null {
  if (value === undefined) return null;
  const parsed = parseMarketCode(value);
  if (!parsed) throw new Invalid('market must be a country code and a language code, such as US-en');
  return marketCode(parsed);
}

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
  surface: z
    .string()
    .optional()
    .meta({
      description: `Extension: only the engines answering through these surfaces, comma-separated: ${SURFACES.join(', ')} (api_search: search-grounded APIs; serp: search-result pages through SerpApi). Combined with providers, the engines in both.`,
    }),
  market: MarketParam,
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
  /** The market asked for (`US-en`); null: every market. */
  market: string | null;
  /** `<date> to <date>`. */
  period: string;
}

function parseDay(value: string, name: string): number {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) throw new Invalid(`${name} must be a date in the form YYYY-MM-DD`);
  const t = Date.parse(`${value}T00:00:00Z`);
  if (Number.isNaN(t) || new Date(t).toISOString().slice(0, 10) !== value) {
    throw new Invalid(`${name} must be a valid calendar date (YYYY-MM-DD)`);
  }
  return t;
}

export const addDays = (day: string, n: number) => dayOf(dayMs(day) + n * DAY_MS);

const twoDigits = (n: number) => (n < 10 ? `0${n}` : `${n}`);

/**
 * Every day of the window, oldest first: dayOf's text of each, written from the calendar
 * fields of the day before rather than by toISOString (a year's charts name 365 days).
 */
export function daysOf(w: Pick<Window, 'from' | 'days'>): string[] {
  const out = new Array<string>(w.days);
  const day = new Date(dayMs(w.from));
  for (let i = 0; i < w.days; i++) {
    out[i] = `${String(day.getUTCFullYear()).padStart(4, '0')}-${twoDigits(day.getUTCMonth() + 1)}-${twoDigits(day.getUTCDate())}`;
    day.setUTCDate(day.getUTCDate() + 1);
  }
  return out;
}

/**
 * docs/analytics.md: date_from/date_to (inclusive, UTC) override duration_days; the
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
  if (q.surface !== undefined) {
    const surfaces = parseSurfaces(q.surface);
    providers = (providers ?? PROVIDERS).filter((p) => surfaces.has(PROVIDER_SURFACE[p]));
  }
  const market = resolveMarket(q.market);
  const f = dayOf(from);
  const t = dayOf(to);
  return {
    market,
    from: f,
    to: t,
    days,
    prevFrom: dayOf(from - days * DAY_MS),
    prevTo: dayOf(from - DAY_MS),
    providers,
    period: `${f} to ${t}`,
  };
}

function parseSurfaces(value: string): Set<Surface> {
  const names = value.split(',').map((p) => p.trim().toLowerCase()).filter(Boolean);
  const unknown = names.filter((n) => !(SURFACES as readonly string[]).includes(n));
  if (unknown.length) throw new Invalid(`Unknown surface: ${unknown.join(', ')}. Known surfaces: ${SURFACES.join(', ')}`);
  if (names.length === 0) throw new Invalid('surface must name at least one surface');
  return new Set(names as Surface[]);
}

/** SQL provider filter for rollup tables: the '*' rows unless a filter is given. */
export function providerFilter(w: Pick<Window, 'providers'>): string[] {
  return w.providers ?? ['*'];
}
