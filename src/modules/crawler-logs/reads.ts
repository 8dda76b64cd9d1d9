import type { RequestContext } from '../../context.js';
import { requireProject } from '../projects/service.js';
import { aiReferrals, crawlerHits } from '../rollups/crawler.js';
import { agentInfo } from './agents.js';

export interface DayRange {
  from: string;
  to: string;
}

/** Pages listed at most (the most crawled first; cited pages never crawled come after them). */
const MAX_PAGES = 500;

/** A cited URL's path as the logs write it: no query, no trailing `/` but the root's. */
export function citedPath(url: string): string | null {
  try {
    const p = new URL(url).pathname;
    return p.length > 1 && p.endsWith('/') ? p.slice(0, -1) : p;
  } catch {
    return null;
  }
}
const sameKey = (path: string) => (path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path);

/**
 * The window's answers citing each page of the project's own site: answers read through
 * their `cited` page ids and the cited_pages dictionary, as the analytics read citations.
 */
async function citedCounts(ctx: RequestContext, projectId: string, domain: string | null, w: DayRange): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  if (!domain) return out;
  const d = domain.toLowerCase().replace(/^www\./, '');
  const { rows } = await ctx.store.query<{ url: string; n: number }>(
    `select p.url, count(distinct r.id)::int as n
       from responses r cross join unnest(r.cited) as k(id) join cited_pages p on p.id = k.id
      where r.project_id = $1 and r.day between $2::date and $3::date
        and (p.domain = $4 or p.domain like '%.' || $4)
      group by p.url`,
    [projectId, w.from, w.to, d],
  );
  for (const r of rows) {
    const path = citedPath(r.url);
    if (path !== null) out.set(path, (out.get(path) ?? 0) + r.n);
  }
  return out;
}

export async function crawlerReport(ctx: RequestContext, projectId: string, w: DayRange) {
  const project = await requireProject(ctx, projectId);
  const rows = await crawlerHits(ctx.store, projectId, w.from, w.to);
  const bots = new Map<string, { hits: number; verified: number; pages: number }>();
  const pages = new Map<string, { path: string; hits: number; by_agent: Record<string, number>; cited: number }>();
  for (const r of rows) {
    const b = bots.get(r.agent) ?? { hits: 0, verified: 0, pages: 0 };
    b.hits += r.hits;
    b.verified += r.verified;
    b.pages++;
    bots.set(r.agent, b);
    const key = sameKey(r.path);
    const p = pages.get(key) ?? { path: r.path, hits: 0, by_agent: {}, cited: 0 };
    p.hits += r.hits;
    p.by_agent[r.agent] = (p.by_agent[r.agent] ?? 0) + r.hits;
    pages.set(key, p);
  }
  const cited = await citedCounts(ctx, projectId, project.domain, w);
  for (const [path, n] of cited) {
    const p = pages.get(path) ?? { path, hits: 0, by_agent: {}, cited: 0 };
    p.cited += n;
    pages.set(path, p);
  }
  return {
    bots: [...bots]
      .map(([agent, b]) => ({ agent, operator: agentInfo.get(agent)?.operator ?? '', purpose: agentInfo.get(agent)?.purpose ?? 'training', hits: b.hits, verified_hits: b.verified, pages: b.pages }))
      .sort((x, y) => y.hits - x.hits || x.agent.localeCompare(y.agent)),
    pages: [...pages.values()].sort((x, y) => y.hits - x.hits || y.cited - x.cited || x.path.localeCompare(y.path)).slice(0, MAX_PAGES),
  };
}

export async function aiTrafficReport(ctx: RequestContext, projectId: string, w: DayRange) {
  await requireProject(ctx, projectId);
  const rows = await aiReferrals(ctx.store, projectId, w.from, w.to);
  const engines = new Map<string, number>();
  const pages = new Map<string, { path: string; visits: number; by_engine: Record<string, number> }>();
  for (const r of rows) {
    engines.set(r.engine, (engines.get(r.engine) ?? 0) + r.visits);
    const p = pages.get(r.path) ?? { path: r.path, visits: 0, by_engine: {} };
    p.visits += r.visits;
    p.by_engine[r.engine] = (p.by_engine[r.engine] ?? 0) + r.visits;
    pages.set(r.path, p);
  }
  return {
    engines: [...engines].map(([engine, visits]) => ({ engine, visits })).sort((x, y) => y.visits - x.visits || x.engine.localeCompare(y.engine)),
    pages: [...pages.values()].sort((x, y) => y.visits - x.visits || x.path.localeCompare(y.path)).slice(0, MAX_PAGES),
  };
}
