import { THEMES, type Analysis } from '../../analysis/types.js';
import type { Tx } from '../../store/index.js';
import { marketSql } from '../../lib/markets.js';
import { OWN_BRAND_ID } from '../projects/brands.js';

// The theme rollups (migration 0021): theme_daily per prompt (what a prompt's deletion
// takes out, deleted with it) and project_theme_daily per project (what GET /themes reads),
// both written in the transaction that stores or re-analyses the answers. theme_daily is a
// row per prompt, day and market (migration 0032): entry i is `counts[i]` = {brand number
// (competitors.brand_no, own brand 0: migration 0034), theme number (its index in THEMES),
// positive, neutral, negative}, in (brand, theme) order. The counts are smallint: a prompt has
// at most 5 samples of 9 engines a day and market, and an answer counts a brand's theme once.

/** Examples kept per project row: a window's examples are the newest rows'. */
export const EXAMPLES_PER_ROW = 3;

/** One example as stored in project_theme_daily.examples (short keys: a row keeps them as jsonb): chat id, prompt id (to drop it with its prompt), band, excerpt. */
interface StoredExample {
  c: string;
  p: string;
  b: 'positive' | 'neutral' | 'negative';
  e: string;
}

export interface ThemeInput {
  responseId: string;
  promptId: string;
  day: string;
  market: string;
  analysis: Pick<Analysis, 'themes'>;
}

interface Counts {
  keys: string[];
  counts: [positive: number, neutral: number, negative: number];
  examples: StoredExample[];
}

const BAND_INDEX = { positive: 0, neutral: 1, negative: 2 } as const;

function bump(map: Map<string, Counts>, keys: string[], band: keyof typeof BAND_INDEX): Counts {
  const k = keys.join('|');
  let row = map.get(k);
  if (!row) map.set(k, (row = { keys, counts: [0, 0, 0], examples: [] }));
  row.counts[BAND_INDEX[band]]++;
  return row;
}

/** A theme's number in theme_daily.counts: its index in THEMES. */
const THEME_NUMBER = new Map<string, number>(THEMES.map((theme, i) => [theme, i]));
export function themeNumber(theme: string): number {
  const n = THEME_NUMBER.get(theme);
  if (n === undefined) throw new Error(`unknown theme ${theme}`);
  return n;
}

/**
 * theme_daily's entries of rows `r` (a prompt's, or a batch's as `excluded`): brand number,
 * theme number and the three counts, one row per entry.
 */
const entriesOf = (r: string) =>
  `select ${r}.counts[i][1] as b, ${r}.counts[i][2] as n, ${r}.counts[i][3] as po, ${r}.counts[i][4] as ne, ${r}.counts[i][5] as ng
     from generate_subscripts(${r}.counts, 1) as i`;

/**
 * Adds the themes of analysed answers to both rollups: one statement per table and batch.
 * `numbers`: the project's brand numbers by id (loadBrandNumbers); a brand without one (a
 * competitor deleted since the analysis) has nobody to show it and is left out.
 */
export async function addThemes(tx: Tx, projectId: string, items: readonly ThemeInput[], numbers: Map<string, number>): Promise<void> {
  const perPrompt = new Map<string, Counts>();
  const perProject = new Map<string, Counts>();
  for (const item of items) {
    for (const t of item.analysis.themes ?? []) {
      const no = numbers.get(t.brandId);
      if (no === undefined) continue;
      bump(perPrompt, [item.promptId, item.day, item.market, String(no), String(themeNumber(t.theme))], t.band);
      const row = bump(perProject, [t.brandId, t.theme, item.day, item.market], t.band);
      if (row.examples.length < EXAMPLES_PER_ROW) row.examples.push({ c: item.responseId, p: item.promptId, b: t.band, e: t.excerpt });
    }
  }
  if (perPrompt.size === 0) return;
  const prompt = [...perPrompt.values()];
  // the batch's entries grouped into a row per prompt, day and market; a row already there
  // gets the entries of both, summed per brand and theme (entries kept in brand, theme order)
  await tx.query(
    `insert into theme_daily (project_id, prompt_id, day, market, counts)
     select $1, p, d::date, m, array_agg(array[b, n, po, ne, ng]::smallint[] order by b, n)
       from unnest($2::uuid[], $3::text[], $4::text[], $5::int[], $6::int[], $7::int[], $8::int[], $9::int[]) as u(p, d, m, b, n, po, ne, ng)
      group by p, d, m
     on conflict (prompt_id, day, market) do update set counts = (
       select array_agg(array[b, n, po, ne, ng]::smallint[] order by b, n)
         from (select b, n, sum(po) as po, sum(ne) as ne, sum(ng) as ng
                 from (${entriesOf('theme_daily')} union all ${entriesOf('excluded')}) e
                group by b, n) s)`,
    [
      projectId,
      ...[0, 1, 2].map((i) => prompt.map((r) => r.keys[i])),
      ...[3, 4].map((i) => prompt.map((r) => Number(r.keys[i]))),
      ...[0, 1, 2].map((i) => prompt.map((r) => r.counts[i])),
    ],
  );
  const project = [...perProject.values()];
  // the newest examples first, at most EXAMPLES_PER_ROW: a later batch's replace an earlier one's
  await tx.query(
    `insert into project_theme_daily (project_id, brand_id, theme, day, market, positive, neutral, negative, examples)
     select $1, b, t, d::date, m, po, ne, ng, ex::jsonb
       from unnest($2::uuid[], $3::text[], $4::text[], $5::text[], $6::int[], $7::int[], $8::int[], $9::text[]) as u(b, t, d, m, po, ne, ng, ex)
     on conflict (project_id, brand_id, day, theme, market) do update set
       positive = project_theme_daily.positive + excluded.positive, neutral = project_theme_daily.neutral + excluded.neutral,
       negative = project_theme_daily.negative + excluded.negative,
       examples = (select coalesce(jsonb_agg(e), '[]'::jsonb) from (
                     select e from jsonb_array_elements(excluded.examples || project_theme_daily.examples) with ordinality as x(e, o)
                      order by o limit ${EXAMPLES_PER_ROW}) k)`,
    [
      projectId,
      ...[0, 1, 2, 3].map((i) => project.map((r) => r.keys[i])),
      ...[0, 1, 2].map((i) => project.map((r) => r.counts[i])),
      project.map((r) => JSON.stringify(r.examples)),
    ],
  );
}

/**
 * Takes a prompt's answers out of project_theme_daily (counts and examples), before the
 * prompt is deleted; its theme_daily rows go with it (foreign key). An entry's brand number
 * names the brand's row by the competitor holding it (the own brand 0); a competitor deleted
 * has no rows to show, and its queued re-analysis rebuilds them.
 */
export async function removePromptThemes(tx: Tx, projectId: string, promptId: string): Promise<void> {
  await tx.query(
    `update project_theme_daily d set positive = d.positive - p.positive, neutral = d.neutral - p.neutral, negative = d.negative - p.negative,
            examples = (select coalesce(jsonb_agg(e), '[]'::jsonb) from jsonb_array_elements(d.examples) as x(e) where e->>'p' <> $2::text)
       from (select t.day, t.market, case when e.b = 0 then $4::uuid else c.id end as brand_id, ($3::text[])[e.n + 1] as theme,
                    e.po as positive, e.ne as neutral, e.ng as negative
               from theme_daily t cross join lateral (${entriesOf('t')}) e
                    left join competitors c on c.project_id = t.project_id and c.brand_no = e.b and not c.is_own_brand and e.b > 0
              where t.prompt_id = $2) p
      where d.project_id = $1 and d.brand_id = p.brand_id and d.theme = p.theme and d.day = p.day and d.market = p.market`,
    [projectId, promptId, THEMES, OWN_BRAND_ID],
  );
  await tx.query(`delete from project_theme_daily where project_id = $1 and positive + neutral + negative <= 0`, [projectId]);
}

/** Both theme rollups of a project, emptied before its answers are analysed again. */
export const THEME_TABLES = ['theme_daily', 'project_theme_daily'];

/** Per theme, the counts by band of one brand's mentions over a window (project_theme_daily). */
export async function themeCounts(
  tx: Tx,
  projectId: string,
  brandId: string,
  from: string,
  to: string,
  market: string | null = null,
): Promise<Array<{ theme: string; positive: number; neutral: number; negative: number }>> {
  // integers summed over at most 10 themes × the window's days
  const { rows } = await tx.query<{ theme: string; positive: number; neutral: number; negative: number }>(
    `select theme, sum(positive)::int as positive, sum(neutral)::int as neutral, sum(negative)::int as negative
       from project_theme_daily
      where project_id = $1 and brand_id = $2 and day between $3::date and $4::date and ${marketSql(market, 5)}
      group by theme`,
    [projectId, brandId, from, to, market],
  );
  return rows;
}

/** A theme's example: the answer, its prompt, the band of the sentence and the sentence. */
export interface ThemeExample {
  chatId: string;
  promptId: string;
  band: 'positive' | 'neutral' | 'negative';
  excerpt: string;
}

/**
 * Per theme asked for, the examples of its newest row in the window that has some, newest
 * first: one index probe per theme (no jsonb aggregated).
 */
export async function newestThemeExamples(
  tx: Tx,
  projectId: string,
  brandId: string,
  from: string,
  to: string,
  themes: string[],
  market: string | null = null,
): Promise<Map<string, ThemeExample[]>> {
  const out = new Map<string, ThemeExample[]>();
  if (themes.length === 0) return out;
  const { rows } = await tx.query<{ theme: string; examples: StoredExample[] }>(
    `select t.theme, x.examples
       from unnest($5::text[]) as t(theme)
            cross join lateral (
              select examples from project_theme_daily
               where project_id = $1 and brand_id = $2 and theme = t.theme and day between $3::date and $4::date and examples <> '[]'::jsonb
                 and ${marketSql(market, 6)}
               order by day desc limit 1) x`,
    [projectId, brandId, from, to, themes, market],
  );
  for (const row of rows) out.set(row.theme, row.examples.map((e) => ({ chatId: e.c, promptId: e.p, band: e.b, excerpt: e.e })));
  return out;
}
