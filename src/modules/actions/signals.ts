import { loadBrandNumbers, loadBrandSpecs } from '../projects/brands.js';
import type { ProjectRow } from '../projects/project-row.js';
import { CATEGORY_IDS, URL_TYPES } from '../../analysis/types.js';
import { utcDay } from '../../lib/time.js';
import type { BrandFacts } from '../../ports/writer/types.js';
import type { Tx } from '../../store/index.js';
import { domainWindow } from '../rollups/domain-window.js';
import { brandSums, projectTotals } from '../rollups/project-reads.js';
import { activePromptTotals, promptCompetitorMentions } from '../rollups/prompt-reads.js';
import { addDays } from '../analytics/window.js';
import * as metrics from '../analytics/metrics.js';

/** What the recommendation rules read: the last 30 days of a project's rollups and citations. */
export const WINDOW_DAYS = 30;
/** The second half of the window: a page "loses ground" when cited less here than in the first. */
export const HALF_DAYS = 15;

export type Counts = Map<string, number>;

export interface PromptSignal {
  id: string;
  content: string;
  responses: number;
  /** Own visibility on the prompt, 0..100. */
  visibility: number;
  /** Competitors named in the prompt's answers, most visible first. */
  competitors: Array<{ name: string; visibility: number }>;
  /** Best competitor's visibility minus own, in points, never below 0. */
  gap: number;
}

export interface CitedUrl {
  url: string;
  title: string;
  /** Citations in the whole window, its first half and its second half. */
  total: number;
  previous: number;
  recent: number;
  /** Citations in answers that do not name the brand. */
  unmentioned: number;
  /** Citations per prompt, all and in answers that do not name the brand. */
  byPrompt: Counts;
  unmentionedByPrompt: Counts;
}

export interface DomainSignal {
  domain: string;
  category: number;
  citations: number;
  unmentioned: number;
  byPrompt: Counts;
}

export interface Signals {
  window: { from: string; to: string; split: string };
  brand: BrandFacts;
  competitorDomains: Set<string>;
  prompts: PromptSignal[];
  ownPages: CitedUrl[];
  threads: CitedUrl[];
  domains: DomainSignal[];
  project: {
    responses: number;
    visibility: number | null;
    /** Percent of answers citing the own site (docs/analytics.md, cvr). */
    cvr: number | null;
    /** The competitor site cited in the most answers, with that share in percent. */
    bestSite: { name: string; domain: string; rate: number } | null;
    /** Active competitors by visibility over the window, most visible first. */
    competitors: Array<{ name: string; visibility: number }>;
  };
}

/** What the rules need of a project (a ProjectRow, with or without the plan). */
export type ProjectRef = Pick<ProjectRow, 'id' | 'name' | 'brand_name' | 'website_url' | 'domain' | 'brand_aliases'>;

export function signalWindow(today = utcDay()) {
  return { from: addDays(today, -(WINDOW_DAYS - 1)), to: today, split: addDays(today, -(HALF_DAYS - 1)) };
}

const bump = (map: Counts, key: string, n: number) => map.set(key, (map.get(key) ?? 0) + n);

export async function loadSignals(tx: Tx, project: ProjectRef, today = utcDay()): Promise<Signals> {
  const w = signalWindow(today);
  const brands = await loadBrandSpecs(tx, project);
  const own = brands[0];
  const names = new Map(brands.slice(1).map((b) => [b.id, b.name]));
  const competitorDomains = new Set(brands.slice(1).flatMap((b) => (b.domain ? [b.domain] : [])));

  const promptRows = await activePromptTotals(tx, project.id, w.from, w.to);
  // responses naming each competitor (brand number > 0) per prompt, from the per-brand arrays
  const brandRows = await promptCompetitorMentions(tx, project.id, w.from, w.to);
  const idOf = new Map([...(await loadBrandNumbers(tx, project.id))].map(([id, no]) => [no, id]));
  const named = new Map<string, Array<{ brand_id: string; mentions: number }>>();
  for (const b of brandRows) {
    const brandId = idOf.get(b.brandNo);
    if (brandId) named.set(b.promptId, [...(named.get(b.promptId) ?? []), { brand_id: brandId, mentions: b.mentions }]);
  }
  const prompts: PromptSignal[] = promptRows
    .filter((p) => p.responses > 0)
    .map((p) => {
      const visibility = metrics.visibility(p) ?? 0;
      const competitors = (named.get(p.id) ?? [])
        .filter((b) => names.has(b.brand_id) && b.mentions > 0)
        .map((b) => ({ name: names.get(b.brand_id)!, visibility: metrics.visibility({ responses: p.responses, mentioned: b.mentions }) ?? 0 }))
        .sort((a, b) => b.visibility - a.visibility || a.name.localeCompare(b.name));
      const gap = Math.max(0, (competitors[0]?.visibility ?? 0) - visibility);
      return { id: p.id, content: p.content, responses: p.responses, visibility, competitors, gap: Math.round(gap * 100) / 100 };
    });
  const promptIds = promptRows.map((p) => p.id);

  // Citations are read from the answers of the project's prompts in the window (through the
  // responses' (prompt_id, provider, day) key) and their pages.
  const urls = async (where: string, extra: unknown[]) => {
    const { rows } = await tx.query<{ url: string; title: string; prompt_id: string; n: number; prev: number; un: number }>(
      `select p.url, min(p.title) as title, r.prompt_id, count(*)::int as n,
              (count(*) filter (where r.day < $4::date))::int as prev, (count(*) filter (where not r.mentioned))::int as un
         from responses r cross join unnest(r.cited) as k(id) join cited_pages p on p.id = k.id
        where r.prompt_id = any($1::uuid[]) and r.day between $2::date and $3::date and ${where}
        group by p.url, r.prompt_id`,
      [promptIds, w.from, w.to, w.split, ...extra],
    );
    const byUrl = new Map<string, CitedUrl>();
    for (const r of rows) {
      const u = byUrl.get(r.url) ?? {
        url: r.url,
        title: r.title,
        total: 0,
        previous: 0,
        recent: 0,
        unmentioned: 0,
        byPrompt: new Map(),
        unmentionedByPrompt: new Map(),
      };
      u.total += r.n;
      u.previous += r.prev;
      u.recent += r.n - r.prev;
      u.unmentioned += r.un;
      bump(u.byPrompt, r.prompt_id, r.n);
      if (r.un) bump(u.unmentionedByPrompt, r.prompt_id, r.un);
      byUrl.set(r.url, u);
    }
    return [...byUrl.values()];
  };
  const ownPages = own.domain ? await urls(`p.domain = $5`, [own.domain]) : [];
  const threads = await urls(`p.category = $5 and p.url_type = $6`, [CATEGORY_IDS.ugc, URL_TYPES.indexOf('forum_thread')]);

  const { domains: domainRows } = await domainWindow(tx, project.id, ['*'], w.from, w.to);
  const { rows: domainPrompts } = await tx.query<{ domain: string; prompt_id: string; un: number }>(
    `select p.domain, r.prompt_id, count(*)::int as un
       from responses r cross join unnest(r.cited) as k(id) join cited_pages p on p.id = k.id
      where r.prompt_id = any($1::uuid[]) and r.day between $2::date and $3::date and not r.mentioned
      group by p.domain, r.prompt_id`,
    [promptIds, w.from, w.to],
  );
  const domainByPrompt = new Map<string, Counts>();
  for (const r of domainPrompts) {
    if (!domainByPrompt.has(r.domain)) domainByPrompt.set(r.domain, new Map());
    bump(domainByPrompt.get(r.domain)!, r.prompt_id, r.un);
  }

  const totals = await projectTotals(tx, project.id, w.from, w.to);
  // responses naming each competitor (brand number > 0) over the window, all providers
  const { brands: byNumber } = await brandSums(tx, project.id, { from: w.from, to: w.to, providers: null });
  const brandTotals = [...byNumber].flatMap(([no, b]) => (no > 0 && idOf.has(no) ? [{ brand_id: idOf.get(no)!, mentions: b.mentions }] : []));
  const siteNames = new Map(brands.slice(1).flatMap((b) => (b.domain ? [[b.domain, b.name] as const] : [])));
  const best = domainRows
    .filter((d) => siteNames.has(d.domain))
    .sort((a, b) => b.responses - a.responses || a.domain.localeCompare(b.domain))[0];
  return {
    window: w,
    brand: { name: own.name, domain: own.domain, aliases: own.aliases },
    competitorDomains,
    prompts,
    ownPages,
    threads,
    domains: domainRows.map((d) => ({
      domain: d.domain,
      category: d.category,
      citations: d.citations,
      unmentioned: d.unmentioned,
      byPrompt: domainByPrompt.get(d.domain) ?? new Map(),
    })),
    project: {
      responses: totals.responses,
      visibility: metrics.visibility(totals),
      cvr: metrics.cvr(totals),
      bestSite: best && totals.responses > 0 ? { name: siteNames.get(best.domain)!, domain: best.domain, rate: metrics.share(best.responses, totals.responses) } : null,
      competitors: brandTotals
        .filter((b) => names.has(b.brand_id) && b.mentions > 0)
        .map((b) => ({ name: names.get(b.brand_id)!, visibility: metrics.share(b.mentions, totals.responses) }))
        .sort((a, b) => b.visibility - a.visibility || a.name.localeCompare(b.name)),
    },
  };
}
