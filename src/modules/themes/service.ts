import type { RequestContext } from '../../context.js';
import { Invalid, NotFound } from '../../lib/errors.js';
import { utcDay } from '../../lib/time.js';
import { requireProject } from '../projects/service.js';
import { OWN_BRAND_ID } from '../projects/brands.js';
import { addDays } from '../analytics/window.js';
import type { StoredExample } from './rollup.js';
import type { ThemeItemOut, ThemesQueryInput } from './schema.js';

/** Without start_date: the 30 days ending at end_date (themes need more answers than a week gives). */
export const DEFAULT_DAYS = 30;
export const MAX_DAYS = 366;
const EXAMPLES = 3;

export interface ThemesWindow {
  brandId: string;
  from: string;
  to: string;
}

function validDay(value: string, name: string): string {
  const t = Date.parse(`${value}T00:00:00Z`);
  if (Number.isNaN(t) || new Date(t).toISOString().slice(0, 10) !== value) throw new Invalid(`${name} must be a valid calendar date (YYYY-MM-DD)`);
  return value;
}

/** The query's brand and days; a window ending before it starts or longer than 366 days is a 400. */
export function resolveThemesWindow(q: ThemesQueryInput, today = utcDay()): ThemesWindow {
  const to = q.end_date ? validDay(q.end_date, 'end_date') : today;
  const from = q.start_date ? validDay(q.start_date, 'start_date') : addDays(to, 1 - DEFAULT_DAYS);
  if (from > to) throw new Invalid('start_date must not be after end_date');
  if (Date.parse(to) - Date.parse(from) >= MAX_DAYS * 86_400_000) throw new Invalid(`The window may span at most ${MAX_DAYS} days`);
  return { brandId: (q.brand_id ?? OWN_BRAND_ID).toLowerCase(), from, to };
}

/**
 * What the window's answers say of one brand, by theme: the counts by band summed from
 * project_theme_daily and the newest examples, most spoken-of theme first.
 */
export async function listThemes(ctx: RequestContext, projectId: string, w: ThemesWindow): Promise<ThemeItemOut[]> {
  await requireProject(ctx, projectId);
  if (w.brandId !== OWN_BRAND_ID) {
    const { rows } = await ctx.store.query(
      `select 1 from competitors where id = $1 and project_id = $2 and state = 'active' and not is_own_brand`,
      [w.brandId, projectId],
    );
    if (rows.length === 0) throw new NotFound('Competitor not found in this project');
  }
  // the counts: integers summed over at most 10 themes × the window's days; the examples: the
  // newest row of each theme that has some, one index probe per theme (no jsonb aggregated)
  const { rows } = await ctx.store.query<{ theme: string; positive: number; neutral: number; negative: number }>(
    `select theme, sum(positive)::int as positive, sum(neutral)::int as neutral, sum(negative)::int as negative
       from project_theme_daily
      where project_id = $1 and brand_id = $2 and day between $3::date and $4::date
      group by theme`,
    [projectId, w.brandId, w.from, w.to],
  );
  const found = rows.filter((r) => r.positive + r.neutral + r.negative > 0);
  const examples = new Map<string, StoredExample[]>();
  if (found.length) {
    const ex = await ctx.store.query<{ theme: string; examples: StoredExample[] }>(
      `select t.theme, x.examples
         from unnest($5::text[]) as t(theme)
              cross join lateral (
                select examples from project_theme_daily
                 where project_id = $1 and brand_id = $2 and theme = t.theme and day between $3::date and $4::date and examples <> '[]'::jsonb
                 order by day desc limit 1) x`,
      [projectId, w.brandId, w.from, w.to, found.map((r) => r.theme)],
    );
    for (const r of ex.rows) examples.set(r.theme, r.examples);
  }
  return found
    .map((r) => ({
      theme: r.theme as ThemeItemOut['theme'],
      mentions: r.positive + r.neutral + r.negative,
      positive: r.positive,
      neutral: r.neutral,
      negative: r.negative,
      examples: (examples.get(r.theme) ?? []).slice(0, EXAMPLES).map((e) => ({ chat_id: e.c, prompt_id: e.p, sentiment: e.b, excerpt: e.e })),
    }))
    .sort((x, y) => y.mentions - x.mentions || x.theme.localeCompare(y.theme));
}

export interface BrandThemes {
  brand_id: string;
  name: string;
  is_own_brand: boolean;
  themes: ThemeItemOut[];
}

/** The own brand's themes beside each active competitor's, over the same window (own brand first). */
export async function compareThemes(ctx: RequestContext, projectId: string, w: Omit<ThemesWindow, 'brandId'>): Promise<BrandThemes[]> {
  const project = await requireProject(ctx, projectId);
  const { rows } = await ctx.store.query<{ id: string; name: string }>(
    `select id, name from competitors where project_id = $1 and state = 'active' and not is_own_brand order by created_at, id`,
    [projectId],
  );
  const brands = [{ id: OWN_BRAND_ID, name: project.brand_name ?? project.name, own: true }, ...rows.map((r) => ({ id: r.id, name: r.name, own: false }))];
  const out: BrandThemes[] = [];
  for (const b of brands) {
    out.push({ brand_id: b.id, name: b.name, is_own_brand: b.own, themes: await listThemes(ctx, projectId, { ...w, brandId: b.id }) });
  }
  return out;
}
