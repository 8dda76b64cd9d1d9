import type { Tx } from '../../store/index.js';
import { DOMAIN_FIELDS, parseInts } from './codec.js';
import { rollupMarketSql } from './market-totals.js';

/** A cited domain's figures over a window. */
export interface DomainTotal {
  domain: string;
  /** The lowest category id of its rows in the window. */
  category: number;
  citations: number;
  responses: number;
  unmentioned: number;
}

/** A day's row: the day (offset from the window's first) and its ints, DOMAIN_FIELDS per domain (codec.ts). */
export interface DomainDayRow {
  dayOffset: number;
  ints: number[];
}

export interface DomainWindow {
  /** Every domain cited in the window, most cited first, then by domain in the store's order (as `order by n desc, domain`). */
  domains: DomainTotal[];
  /** By domain number: its index in `domains` (a plain array: the per-day loops look up every entry). */
  indexOf: number[];
  /** The rows read, parsed: for figures per day (dailyCitations). */
  days: DomainDayRow[];
}

/**
 * The domain rollup of a project over a window, for the given provider rows ('*' for all)
 * and market (one; '*' the market totals, rollupMarket; null every market's rows but the
 * totals): the day rows (one per provider, day and market) and the domain names in one read
 * each, summed here.
 * The names come in a second statement, which may see a later state than the first: safe
 * as a domain's number never changes (project_domains only grows, re-analysis included).
 */
export async function domainWindow(
  tx: Tx,
  projectId: string,
  providers: string[],
  from: string,
  to: string,
  market: string | null = null,
): Promise<DomainWindow> {
  const { rows } = await tx.query<{ day_offset: number; domains: string }>(
    `select day - $3::date as day_offset, domains
       from project_domain_daily
      where project_id = $1 and provider = any($2::text[]) and day between $3::date and $4::date and ${rollupMarketSql(market, 5)}`,
    [projectId, providers, from, to, market],
  );
  const days: DomainDayRow[] = rows.map((r) => ({ dayOffset: r.day_offset, ints: parseInts(r.domains) }));
  // by domain number: index into `found`
  const at: number[] = [];
  const found: Array<{ no: number; category: number; citations: number; responses: number; unmentioned: number }> = [];
  for (const { ints } of days) {
    for (let j = 0; j < ints.length; j += DOMAIN_FIELDS) {
      const no = ints[j];
      let k = at[no];
      if (k === undefined) {
        k = found.length;
        at[no] = k;
        found.push({ no, category: ints[j + 1], citations: 0, responses: 0, unmentioned: 0 });
      }
      const f = found[k];
      if (ints[j + 1] < f.category) f.category = ints[j + 1];
      f.citations += ints[j + 2];
      f.responses += ints[j + 3];
      f.unmentioned += ints[j + 4];
    }
  }
  if (found.length === 0) return { domains: [], indexOf: [], days };
  // the names, in the store's order of text (its collation, as `order by domain` sorted them)
  const names = await tx.query<{ no: number; domain: string }>(
    `select no, domain from project_domains where project_id = $1 and no = any($2::int[]) order by domain`,
    [projectId, found.map((f) => f.no)],
  );
  const rank = new Map<number, number>();
  const nameOf = new Map<number, string>();
  names.rows.forEach((r, i) => {
    rank.set(r.no, i);
    nameOf.set(r.no, r.domain);
  });
  found.sort((a, b) => b.citations - a.citations || rank.get(a.no)! - rank.get(b.no)!);
  const indexOf: number[] = [];
  const domains = found.map((f, i) => {
    indexOf[f.no] = i;
    const domain = nameOf.get(f.no);
    if (domain === undefined) throw new Error(`domain number ${f.no} of project ${projectId} has no name`);
    return { domain, category: f.category, citations: f.citations, responses: f.responses, unmentioned: f.unmentioned };
  });
  return { domains, indexOf, days };
}

/**
 * Per day of the window (`dayCount` days from its first), the citations of all domains and
 * of each of the `top` most cited ones (their index in `window.domains`), from the rows
 * domainWindow read: a chart's series without a second read.
 */
export function dailyCitations(window: DomainWindow, dayCount: number, top: number): { totals: number[]; perDomain: number[][] } {
  const shown = Math.min(top, window.domains.length);
  const totals = new Array<number>(dayCount).fill(0);
  const perDomain = Array.from({ length: shown }, () => new Array<number>(dayCount).fill(0));
  for (const { dayOffset, ints } of window.days) {
    for (let j = 0; j < ints.length; j += DOMAIN_FIELDS) {
      const citations = ints[j + 2];
      totals[dayOffset] += citations;
      const index = window.indexOf[ints[j]];
      if (index < shown) perDomain[index][dayOffset] += citations;
    }
  }
  return { totals, perDomain };
}
