import type { BrandFacts } from '../../ports/writer/types.js';
import type { Tx } from '../../store/index.js';
import { textKey } from '../common.js';
import { opportunityDomains } from './recommend.js';
import { loadSignals, WINDOW_DAYS, type ProjectRef } from './signals.js';

/**
 * Brand facts and figures the writer may ground an enriched action in. Keys the writer
 * reads as the action's subject (prompt, url, domain, keywords, title) are left to the
 * caller's request: the facts only add what the data says about that subject.
 */
export async function projectFacts(tx: Tx, project: ProjectRef, subject: { target_url?: string; keywords?: string[] } = {}) {
  const s = await loadSignals(tx, project);
  const brand: BrandFacts = s.brand;
  const facts: Record<string, unknown> = {
    window_days: WINDOW_DAYS,
    brand_visibility_pct: s.project.visibility ?? 0,
    cvr_pct: s.project.cvr ?? 0,
    answers: s.project.responses,
    competitors: s.project.competitors.slice(0, 3).map((c) => c.name),
    // structured detail for a model writer (the built-in one reads only the plain figures)
    prompts_with_gaps: [...s.prompts]
      .sort((a, b) => b.gap - a.gap)
      .slice(0, 5)
      .map((p) => ({ prompt: p.content, visibility_pct: p.visibility, gap_points: p.gap, competitors: p.competitors.slice(0, 3).map((c) => c.name) })),
    opportunity_domains: opportunityDomains(s)
      .slice(0, 5)
      .map((d) => ({ domain: d.domain, citations_without_brand: d.unmentioned })),
  };
  const sameUrl = (a: string, b: string) => a.replace(/\/+$/, '').toLowerCase() === b.replace(/\/+$/, '').toLowerCase();
  const page = subject.target_url ? s.ownPages.find((u) => sameUrl(u.url, subject.target_url!)) : undefined;
  if (page) {
    facts.target_url_citations_previous_15_days = page.previous;
    facts.target_url_citations_last_15_days = page.recent;
  }
  const keys = new Set((subject.keywords ?? []).map(textKey));
  const tracked = s.prompts.find((p) => keys.has(textKey(p.content)));
  if (tracked) {
    facts.keyword_visibility_pct = tracked.visibility;
    facts.keyword_visibility_gap_points = tracked.gap;
  }
  return { brand, facts };
}
