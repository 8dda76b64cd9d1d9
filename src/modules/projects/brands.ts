import type { BrandSpec } from '../../analysis/types.js';
import { normalizeWebsite } from '../../lib/url.js';
import type { Tx } from '../../store/index.js';
import type { ProjectRow } from './project-row.js';

/** The own brand's id in analyses and rollups, whether or not it is a competitor record. */
export const OWN_BRAND_ID = '00000000-0000-0000-0000-000000000000';

/**
 * The tracked brands of a project: the own brand (always OWN_BRAND_ID, with its aliases
 * and those of an own-brand competitor record) and the active competitors.
 */
export async function loadBrandSpecs(tx: Tx, project: BrandProject & Pick<ProjectRow, 'id'>): Promise<BrandSpec[]> {
  const { rows } = await tx.query<CompetitorBrand>(
    `select id, name, domain, aliases, is_own_brand from competitors
      where project_id = $1 and state = 'active' order by created_at, id`,
    [project.id],
  );
  return brandSpecsOf(project, rows);
}

/** The project's fields that its own brand is made of. */
export type BrandProject = Pick<ProjectRow, 'name' | 'brand_name' | 'website_url' | 'domain' | 'brand_aliases'>;

/** A competitor record as a tracked brand: its name, domain and aliases. */
export interface CompetitorBrand {
  id: string;
  name: string;
  domain: string;
  aliases: string[] | null;
  is_own_brand: boolean;
}

/** loadBrandSpecs of rows already read: `active`, the project's active competitor records in (created_at, id) order. */
export function brandSpecsOf(project: BrandProject, active: readonly CompetitorBrand[]): BrandSpec[] {
  const ownRecord = active.find((r) => r.is_own_brand);
  const ownName = project.brand_name ?? project.name;
  const ownAliases = new Set<string>([...(project.brand_aliases ?? []), ...(ownRecord?.aliases ?? [])]);
  if (ownRecord && ownRecord.name.toLowerCase() !== ownName.toLowerCase()) ownAliases.add(ownRecord.name);
  const own: BrandSpec = {
    id: OWN_BRAND_ID,
    name: ownName,
    aliases: [...ownAliases],
    domain: project.domain ?? (project.website_url ? (normalizeWebsite(project.website_url)?.domain ?? null) : null),
    isOwn: true,
  };
  return [
    own,
    ...active
      .filter((r) => !r.is_own_brand)
      .map((r) => ({ id: r.id, name: r.name, aliases: r.aliases ?? [], domain: r.domain, isOwn: false })),
  ];
}

/**
 * Brand numbers by brand id (the own brand 0, each competitor record its brand_no): the
 * index of a brand in the per-brand arrays of the prompt rollups. Deleted competitors have
 * none; an own-brand competitor record is counted under 0, as the analysis names it.
 */
export async function loadBrandNumbers(tx: Tx, projectId: string): Promise<Map<string, number>> {
  const { rows } = await tx.query<{ id: string; brand_no: number; is_own_brand: boolean }>(
    `select id, brand_no, is_own_brand from competitors where project_id = $1`,
    [projectId],
  );
  return brandNumbersOf(rows);
}

/** loadBrandNumbers of the project's competitor records already read (any state, the own-brand one included or not). */
export function brandNumbersOf(records: ReadonlyArray<{ id: string; brand_no: number; is_own_brand: boolean }>): Map<string, number> {
  const numbers = new Map<string, number>([[OWN_BRAND_ID, 0]]);
  for (const r of records) if (!r.is_own_brand) numbers.set(r.id, r.brand_no);
  return numbers;
}
