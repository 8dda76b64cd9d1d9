import type { RequestContext } from '../../context.js';
import { Invalid, NotFound } from '../../lib/errors.js';
import { utcDay } from '../../lib/time.js';
import { requireProject } from '../projects/service.js';
import { OWN_BRAND_ID } from '../projects/brands.js';
import { addDays, resolveMarket } from '../analytics/window.js';
import { newestThemeExamples, themeCounts } from '../rollups/themes.js';
import type { ThemeItemOut, ThemesQueryInput } from './schema.js';

/** Without start_date: the 30 days ending at end_date (themes need more answers than a week gives). */
export const DEFAULT_DAYS = 30;
export const MAX_DAYS = 366;
const EXAMPLES = 3;

export interface ThemesWindow {
  brandId: string;
  from: string;
  to: string;
  /** Null: every market. */
  market: string | null;
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
  return { brandId: (q.brand_id ?? OWN_BRAND_ID).toLowerCase(), from, to, market: resolveMarket(q.market) };
}

/**
 * What the window's answers say of one brand, by theme: the counts by band summed from
 * the theme rollup and the newest examples, most spoken-of theme first.
 */
export async function listThemes(ctx: RequestContext, projectId: string, w: ThemesWindow): Promise<ThemeItemOut[]> {
  await requireProject(ctx, projectId);
  if (w.brandId !== OWN_BRAND_ID) {
    const { rows } = await ctx.reads.query(
      `select 1 from competitors where id = $1 and project_id = $2 and state = 'active' and not is_own_brand`,
      [w.brandId, projectId],
    );
    if (rows.length === 0) throw new NotFound('Competitor not found in this project');
  }
  const found = (await themeCounts(ctx.reads, projectId, w.brandId, w.from, w.to, w.market)).filter((r) => r.positive + r.neutral + r.negative > 0);
  const examples = await newestThemeExamples(
    ctx.reads,
    projectId,
    w.brandId,
    w.from,
    w.to,
    found.map((r) => r.theme),
    w.market,
  );
  return found
    .map((r) => ({
      theme: r.theme as ThemeItemOut['theme'],
      mentions: r.positive + r.neutral + r.negative,
      positive: r.positive,
      neutral: r.neutral,
      negative: r.negative,
      examples: (examples.get(r.theme) ?? []).slice(0, EXAMPLES).map((e) => ({ chat_id: e.chatId, prompt_id: e.promptId, sentiment: e.band, excerpt: e.excerpt })),
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
  const { rows } = await ctx.reads.query<{ id: string; name: string }>(
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
