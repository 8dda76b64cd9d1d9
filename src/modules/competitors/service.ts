import type { RequestContext } from '../../context.js';
import { Conflict, Invalid, LimitReached, NotFound } from '../../lib/errors.js';
import type { Interval } from '../../lib/statistics.js';
import { faviconUrls, normalizeWebsite, registrableDomain } from '../../lib/url.js';
import type { Tx } from '../../store/index.js';
import { isUniqueViolation } from '../common.js';
import { requireProject, uniqueNames, type ProjectRow } from '../projects/service.js';
import { reanalyseJob } from '../../jobs/catalog.js';

/** The tracked brands changed: analyse the project's answers again (one queued run per project). */
async function queueReanalysis(ctx: RequestContext, tx: Tx, projectId: string): Promise<void> {
  await ctx.jobs.send(reanalyseJob, { projectId }, { tx, singletonKey: projectId });
}

export const OWN_BRAND_ID = '00000000-0000-0000-0000-000000000000';
export const MAX_ACTIVE_COMPETITORS = 10;

export interface CompetitorRow {
  id: string;
  project_id: string;
  name: string;
  website: string;
  domain: string;
  aliases: string[];
  state: string;
  is_own_brand: boolean;
  /** The brand's index in the per-brand rollup arrays (the own brand's is 0: brandNo). */
  brand_no: number;
  created_at: Date;
}

/** A brand's index in the per-brand rollup arrays: 0 for the own brand, whether or not it is a record. */
export const brandNo = (c: Pick<CompetitorRow, 'is_own_brand' | 'brand_no'>): number => (c.is_own_brand ? 0 : c.brand_no);

export type CompetitorMetrics = {
  visibility: number | null;
  sentiment: number | null;
  position: number | null;
  mention_count: number | null;
  days_with_data: number | null;
  period: string;
  responses: number;
  visibility_ci: Interval | null;
  position_ci: Interval | null;
  sentiment_ci: Interval | null;
  share_of_voice: number;
  share_of_voice_ci: Interval | null;
};

const COLUMNS = 'id, project_id, name, website, domain, aliases, state, is_own_brand, brand_no, created_at';

export function presentCompetitor(r: CompetitorRow, metrics: CompetitorMetrics | null = null) {
  const icons = faviconUrls(r.domain);
  return {
    competitor_id: r.id,
    project_id: r.project_id,
    name: r.name,
    website: r.website,
    icon_url: icons[0] ?? null,
    icon_urls: icons,
    state: r.state,
    is_own_brand: r.is_own_brand,
    aliases: r.aliases ?? [],
    metrics,
  };
}

/** The own brand as a competitor row: the record marked is_own_brand, or one made up from the project. */
export function ownBrandRow(project: ProjectRow, rows: CompetitorRow[]): CompetitorRow {
  const own = rows.find((r) => r.is_own_brand);
  if (own) return own;
  const site = project.website_url ? normalizeWebsite(project.website_url) : null;
  return {
    id: OWN_BRAND_ID,
    project_id: project.id,
    name: project.brand_name ?? project.name,
    website: site?.website ?? project.website_url ?? '',
    domain: site?.domain ?? project.domain ?? registrableDomain(project.website_url ?? '') ?? '',
    aliases: project.brand_aliases ?? [],
    state: 'active',
    is_own_brand: true,
    brand_no: 0,
    created_at: project.created_at,
  };
}

/** Own brand first, then the active competitors by creation. */
export async function activeCompetitors(tx: Tx, project: ProjectRow): Promise<CompetitorRow[]> {
  const { rows } = await tx.query<CompetitorRow>(
    `select ${COLUMNS} from competitors where project_id = $1 and state = 'active' order by created_at, id`,
    [project.id],
  );
  return [ownBrandRow(project, rows), ...rows.filter((r) => !r.is_own_brand)];
}

async function loadCompetitor(tx: Tx, projectId: string, competitorId: string): Promise<CompetitorRow> {
  const { rows } = await tx.query<CompetitorRow>(`select ${COLUMNS} from competitors where id = $1 and project_id = $2`, [
    competitorId,
    projectId,
  ]);
  if (!rows[0]) throw new NotFound('Competitor not found');
  return rows[0];
}

const duplicateDomain = (domain: string) => new Conflict(`A competitor with the domain ${domain} already exists in this project`);

export async function createCompetitors(
  ctx: RequestContext,
  projectId: string,
  input: { competitors: Array<{ name: string; website: string; aliases?: string[] }> },
) {
  const items = input.competitors.map((c) => ({ name: c.name, aliases: uniqueNames(c.aliases ?? []), ...normalizeWebsite(c.website)! }));
  const seen = new Set<string>();
  for (const c of items) {
    if (seen.has(c.domain)) throw new Invalid(`competitors contains the domain ${c.domain} twice`);
    seen.add(c.domain);
  }
  const project = await requireProject(ctx, projectId);
  return ctx.store.tx(async (tx) => {
    await tx.query(`select id from projects where id = $1 for update`, [projectId]);
    const existing = await tx.query<CompetitorRow>(`select ${COLUMNS} from competitors where project_id = $1`, [projectId]);
    const taken = existing.rows.find((r) => seen.has(r.domain));
    if (taken) throw duplicateDomain(taken.domain);
    const hasOwn = existing.rows.some((r) => r.is_own_brand);
    const ownDomain = project.domain;
    const rows = items.map((c) => ({ ...c, own: !hasOwn && !!ownDomain && c.domain === ownDomain }));
    const active = existing.rows.filter((r) => r.state === 'active' && !r.is_own_brand).length;
    const adding = rows.filter((r) => !r.own).length;
    if (active + adding > MAX_ACTIVE_COMPETITORS) {
      throw new LimitReached(
        `Active competitor limit of ${MAX_ACTIVE_COMPETITORS} reached: ${active} active, ${adding} more requested`,
        // Not a rate limit: waiting does not help, so no Retry-After, and a code of its own.
        'competitor_limit_reached',
      );
    }
    const created: CompetitorRow[] = [];
    for (const [i, r] of rows.entries()) {
      try {
        // One transaction has one now(): a microsecond per position keeps "by creation" in request order.
        const { rows: ins } = await tx.query<CompetitorRow>(
          `insert into competitors (project_id, name, website, domain, aliases, state, is_own_brand, created_at)
           values ($1, $2, $3, $4, $5::jsonb, 'active', $6, now() + $7::int * interval '1 microsecond') returning ${COLUMNS}`,
          [projectId, r.name, r.website, r.domain, JSON.stringify(r.aliases), r.own, i],
        );
        created.push(ins[0]);
      } catch (err) {
        if (isUniqueViolation(err, 'competitors_project_domain_key')) throw duplicateDomain(r.domain);
        throw err;
      }
    }
    await queueReanalysis(ctx, tx, projectId);
    return {
      projectId,
      created: created.length,
      competitors: created.map((r) => {
        const p = presentCompetitor(r);
        return {
          competitorId: p.competitor_id,
          projectId: p.project_id,
          name: p.name,
          website: p.website,
          iconUrl: p.icon_url,
          iconUrls: p.icon_urls,
          state: r.state,
          isOwnBrand: p.is_own_brand,
          aliases: p.aliases,
          metrics: null,
        };
      }),
    };
  });
}

export async function updateCompetitor(
  ctx: RequestContext,
  projectId: string,
  competitorId: string,
  input: { name?: string; website?: string; aliases?: string[] },
) {
  if (input.name === undefined && input.website === undefined && input.aliases === undefined) {
    throw new Invalid('Request body must contain name, website or aliases');
  }
  await requireProject(ctx, projectId);
  return ctx.store.tx(async (tx) => {
    const current = await loadCompetitor(tx, projectId, competitorId);
    const site = input.website !== undefined ? normalizeWebsite(input.website)! : { website: current.website, domain: current.domain };
    const name = input.name ?? current.name;
    const aliases = input.aliases !== undefined ? uniqueNames(input.aliases) : (current.aliases ?? []);
    const sameAliases = JSON.stringify(aliases) === JSON.stringify(current.aliases ?? []);
    if (name === current.name && site.website === current.website && sameAliases) {
      throw new Invalid('No field changed: every value sent equals the current one');
    }
    try {
      const { rows } = await tx.query<CompetitorRow>(
        `update competitors set name = $3, website = $4, domain = $5, aliases = $6::jsonb where id = $1 and project_id = $2 returning ${COLUMNS}`,
        [competitorId, projectId, name, site.website, site.domain, JSON.stringify(aliases)],
      );
      await queueReanalysis(ctx, tx, projectId);
      return presentCompetitor(rows[0]);
    } catch (err) {
      if (isUniqueViolation(err, 'competitors_project_domain_key')) throw duplicateDomain(site.domain);
      throw err;
    }
  });
}

export async function deleteCompetitor(ctx: RequestContext, projectId: string, competitorId: string) {
  await requireProject(ctx, projectId);
  return ctx.store.tx(async (tx) => {
    const { rowCount } = await tx.query(`delete from competitors where id = $1 and project_id = $2`, [competitorId, projectId]);
    if (!rowCount) throw new NotFound('Competitor not found');
    await queueReanalysis(ctx, tx, projectId);
    return { competitorId, message: 'Competitor deleted' };
  });
}
