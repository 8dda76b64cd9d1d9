import { CATEGORY_NAMES } from '../../analysis/types.js';
import type { ActionCategory, ActionFields } from '../../ports/writer/types.js';
import { textKey } from '../common.js';
import { OPPORTUNITY_THRESHOLD } from '../sources/service.js';
import { WINDOW_DAYS, type Counts, type Signals } from './signals.js';

/**
 * The recommendation rules: what the last 30 days of a project's data say it should do.
 * Pure functions of the signals, so each rule is tested without a store. Every figure is
 * in percentage points of visibility (0..100); see RULES and CAPTURE for the thresholds.
 */
export const RULES = {
  /** A prompt needs this many answers in the window before a gap on it counts. */
  minResponses: 5,
  /** new_content: best competitor's visibility minus own, and the competitor's own floor. */
  newContentMinGap: 10,
  newContentMinCompetitor: 20,
  /** content_update: a page "loses ground" with fewer citations in the last 15 days than the 15 before (from at least this many)... */
  declineMinPrevious: 2,
  /** ...and is "rarely cited" with at most this many citations in 30 days. */
  rareMaxCitations: 3,
  /** forum_engagement: threads cited at least this often in answers that do not name the brand. */
  forumMinUnmentioned: 2,
  /** on_page_seo: opportunity domains (docs/analytics.md) and site gaps. */
  opportunityMin: OPPORTUNITY_THRESHOLD,
  siteMinResponses: 20,
  siteCvrGap: 10,
  /** Actions per rule and run, the largest gaps first. */
  maxPerRule: 5,
} as const;

/** Share of a gap one action is expected to win back: [min, max] (expected_impact = share × gap). */
export const CAPTURE = {
  new_content: [0.25, 0.5],
  content_update: [0.1, 0.3],
  forum_engagement: [0.05, 0.15],
  opportunity: [0.1, 0.25],
  site: [0.1, 0.3],
} as const;

export type Priority = 'critical' | 'high' | 'medium' | 'low';

export interface Candidate extends Omit<ActionFields, 'title' | 'description'> {
  /** Category + target: two open actions never share one. */
  fingerprint: string;
  category: ActionCategory;
  priority: Priority;
  group: string;
  /** The gap in points the action addresses. */
  gap: number;
  /** Fingerprints of candidates this one needs done first. */
  dependsOn: string[];
  /** What the writer words the title and description from. */
  facts: Record<string, unknown>;
}

const round1 = (x: number) => Math.round(x * 10) / 10;

/** Expected impact in points: the captured share of the gap; every surfaced action at least 0.5–1. */
export function impactOf(gap: number, [a, b]: readonly [number, number]) {
  const min = Math.min(100, Math.max(0.5, round1(a * gap)));
  return { expected_impact_min: min, expected_impact_max: Math.min(100, Math.max(1, min, round1(b * gap))) };
}

/** Priority from the size of the gap: 40+ critical, 25+ high, 10+ medium, else low. */
export function priorityOf(gap: number): Priority {
  return gap >= 40 ? 'critical' : gap >= 25 ? 'high' : gap >= 10 ? 'medium' : 'low';
}

/** Citation-weighted mean gap of the prompts whose answers cite something. */
function weightedGap(byPrompt: Counts, gaps: Map<string, number>): number {
  let n = 0;
  let sum = 0;
  for (const [id, c] of byPrompt) {
    n += c;
    sum += c * (gaps.get(id) ?? 0);
  }
  return n ? Math.round((sum / n) * 100) / 100 : 0;
}

/** Prompts by how often they cite something, most first. */
const topPrompts = (byPrompt: Counts) => [...byPrompt.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([id]) => id);

export const fingerprintOf = (category: ActionCategory, target: { type: string; value: string }) =>
  `${category}:${target.type}:${target.type === 'keyword' ? textKey(target.value) : target.value.toLowerCase()}`;

/** Domains cited 3+ times where the brand is not named, neither its site nor a tracked competitor's; most first. */
export function opportunityDomains(s: Signals) {
  return s.domains
    .filter((d) => d.unmentioned >= RULES.opportunityMin && d.domain !== s.brand.domain && !s.competitorDomains.has(d.domain))
    .sort((a, b) => b.unmentioned - a.unmentioned || a.domain.localeCompare(b.domain));
}

export function deriveRecommendations(s: Signals): Candidate[] {
  const prompts = new Map(s.prompts.map((p) => [p.id, p]));
  const gaps = new Map(s.prompts.map((p) => [p.id, p.gap]));
  const textsOf = (ids: string[]) => ids.slice(0, 3).flatMap((id) => (prompts.has(id) ? [prompts.get(id)!.content] : []));
  const out: Candidate[] = [];

  // 1. new_content: prompts where competitors are named and the brand is not.
  const articleFor = new Map<string, string>(); // prompt id -> fingerprint of its new_content
  const lost = s.prompts
    .filter((p) => p.responses >= RULES.minResponses && p.gap >= RULES.newContentMinGap)
    .filter((p) => (p.competitors[0]?.visibility ?? 0) >= RULES.newContentMinCompetitor)
    .sort((a, b) => b.gap - a.gap || a.content.localeCompare(b.content))
    .slice(0, RULES.maxPerRule);
  for (const p of lost) {
    const target = { type: 'keyword' as const, value: p.content };
    const competitors = p.competitors.slice(0, 3);
    const fingerprint = fingerprintOf('new_content', target);
    articleFor.set(p.id, fingerprint);
    out.push({
      fingerprint,
      category: 'new_content',
      priority: priorityOf(p.gap),
      effort: 'major',
      ...impactOf(p.gap, CAPTURE.new_content),
      targets: [target],
      execution: { type: 'publishable_content', prompt: null, skill: 'article_writer', params: { keywords: [p.content], competitors: competitors.map((c) => c.name) } },
      group: 'content',
      gap: p.gap,
      dependsOn: [],
      facts: {
        prompt: p.content,
        competitors: competitors.map((c) => c.name),
        visibility_pct: p.visibility,
        best_competitor_visibility_pct: competitors[0]?.visibility ?? 0,
        visibility_gap_points: p.gap,
        answers: p.responses,
        window_days: WINDOW_DAYS,
      },
    });
  }
  // The article a page or thread should point to: that of the prompt citing it most.
  const articleDependency = (byPrompt: Counts) => {
    const id = topPrompts(byPrompt).find((pid) => articleFor.has(pid));
    return id ? [articleFor.get(id)!] : [];
  };

  // 2. content_update: own pages that lose ground, then own pages rarely cited.
  const declining = s.ownPages
    .filter((u) => u.previous >= RULES.declineMinPrevious && u.recent < u.previous)
    .sort((a, b) => b.previous - b.recent - (a.previous - a.recent) || a.url.localeCompare(b.url));
  const rare = s.ownPages
    .filter((u) => u.total <= RULES.rareMaxCitations && !declining.includes(u))
    .sort((a, b) => a.total - b.total || a.url.localeCompare(b.url));
  for (const u of [...declining, ...rare].slice(0, RULES.maxPerRule)) {
    const isDeclining = declining.includes(u);
    const gap = weightedGap(u.byPrompt, gaps);
    // the questions whose answers cite the page without naming the brand
    const questions = textsOf(topPrompts(u.unmentionedByPrompt));
    const rivals = [...new Set(topPrompts(u.byPrompt).flatMap((id) => prompts.get(id)?.competitors.slice(0, 2).map((c) => c.name) ?? []))].slice(0, 3);
    const target = { type: 'url' as const, value: u.url };
    out.push({
      fingerprint: fingerprintOf('content_update', target),
      category: 'content_update',
      priority: priorityOf(gap),
      effort: isDeclining ? 'quick-win' : 'moderate',
      ...impactOf(gap, CAPTURE.content_update),
      targets: [target],
      execution: isDeclining
        ? {
            type: 'prompt',
            prompt: `Revise ${u.url} so AI answers cite it again${questions[0] ? ` for "${questions[0]}"` : ''}: lead with a direct answer, refresh figures and dates${rivals.length ? `, and compare ${s.brand.name} with ${rivals.join(', ')}` : ''}.`,
            skill: 'content_editor',
            params: { url: u.url },
          }
        : { type: 'manual', prompt: null, skill: null, params: { url: u.url } },
      group: 'content',
      gap,
      dependsOn: articleDependency(u.byPrompt),
      // never a `title` or `description` key: the writer takes those as the wording itself
      facts: {
        url: u.url,
        page_title: u.title,
        trend: isDeclining ? 'declining' : 'rarely_cited',
        prompts: questions,
        competitors: rivals,
        citations_previous_15_days: u.previous,
        citations_last_15_days: u.recent,
        visibility_gap_points: gap,
      },
    });
  }

  // 3. forum_engagement: forum and Q&A threads cited in answers that do not name the brand.
  const threads = s.threads
    .filter((t) => t.unmentioned >= RULES.forumMinUnmentioned)
    .sort((a, b) => b.unmentioned - a.unmentioned || a.url.localeCompare(b.url))
    .slice(0, RULES.maxPerRule);
  for (const t of threads) {
    const gap = weightedGap(t.unmentionedByPrompt, gaps);
    const target = { type: 'url' as const, value: t.url };
    out.push({
      fingerprint: fingerprintOf('forum_engagement', target),
      category: 'forum_engagement',
      priority: priorityOf(gap),
      effort: 'quick-win',
      ...impactOf(gap, CAPTURE.forum_engagement),
      targets: [target],
      execution: { type: 'forum_reply', prompt: null, skill: 'forum_reply', params: { thread_url: t.url, thread_title: t.title } },
      group: 'forums',
      gap,
      dependsOn: articleDependency(t.unmentionedByPrompt),
      facts: {
        url: t.url,
        thread_title: t.title,
        prompts: textsOf(topPrompts(t.unmentionedByPrompt)),
        citations_without_brand: t.unmentioned,
        visibility_gap_points: gap,
      },
    });
  }

  // 4a. on_page_seo: opportunity domains (cited 3+ times where the brand is not named),
  // neither the brand's own site nor a tracked competitor's.
  const opportunities = opportunityDomains(s).slice(0, RULES.maxPerRule);
  for (const d of opportunities) {
    const gap = weightedGap(d.byPrompt, gaps);
    const target = { type: 'domain' as const, value: d.domain };
    out.push({
      fingerprint: fingerprintOf('on_page_seo', target),
      category: 'on_page_seo',
      priority: priorityOf(gap),
      effort: 'moderate',
      ...impactOf(gap, CAPTURE.opportunity),
      targets: [target],
      execution: { type: 'manual', prompt: null, skill: null, params: { domain: d.domain, category: CATEGORY_NAMES[d.category] ?? 'other' } },
      group: 'sources',
      gap,
      dependsOn: [],
      facts: {
        domain: d.domain,
        issue: 'opportunity_domain',
        source_category: CATEGORY_NAMES[d.category] ?? 'other',
        prompts: textsOf(topPrompts(d.byPrompt)),
        citations_without_brand: d.unmentioned,
        citations: d.citations,
        visibility_gap_points: gap,
      },
    });
  }

  // 4b. on_page_seo: the brand's site itself: never cited, or cited in far fewer answers
  // than the most cited competitor site.
  const site = siteGap(s);
  if (site) out.push(site);
  return out;
}

function siteGap(s: Signals): Candidate | null {
  const { project, brand } = s;
  if (!brand.domain || project.responses < RULES.siteMinResponses) return null;
  const cvr = project.cvr ?? 0;
  const best = project.bestSite;
  const neverCited = s.ownPages.length === 0;
  const behind = best !== null && best.rate - cvr >= RULES.siteCvrGap;
  if (!neverCited && !behind) return null;
  const gap = Math.round(Math.max(best ? best.rate - cvr : 0, neverCited ? Math.max(...s.prompts.map((p) => p.gap), 0) : 0) * 100) / 100;
  const target = { type: 'domain' as const, value: brand.domain };
  return {
    fingerprint: `on_page_seo:site:${brand.domain}`,
    category: 'on_page_seo',
    priority: priorityOf(gap),
    effort: neverCited ? 'major' : 'moderate',
    ...impactOf(gap, CAPTURE.site),
    targets: [target, { type: 'page_type', value: neverCited ? 'homepage' : 'comparison' }],
    execution: { type: 'manual', prompt: null, skill: null, params: { domain: brand.domain } },
    group: 'site',
    gap,
    dependsOn: [],
    facts: {
      domain: brand.domain,
      issue: neverCited ? 'own_site_never_cited' : 'low_cvr',
      competitors: best ? [best.name] : [],
      cvr_pct: cvr,
      best_competitor_site_citation_pct: best?.rate ?? 0,
      answers: project.responses,
      visibility_gap_points: gap,
    },
  };
}
