import { OWN_BRAND_ID, brandNumbersOf, brandSpecsOf, type BrandProject } from '../projects/brands.js';
import { faviconUrls } from '../../lib/url.js';
import type { Tx } from '../../store/index.js';

export interface BrandInfo {
  id: string;
  name: string;
  icon_url: string | null;
  icon_urls: string[];
}

interface BrandRow extends BrandProject {
  /** The competitor record's columns, null on the one row of a project without any. */
  competitor_id: string | null;
  competitor_name: string;
  competitor_domain: string;
  aliases: string[] | null;
  is_own_brand: boolean;
  active: boolean;
  brand_no: number;
}

/**
 * Names and icons of a project's tracked brands by id (the own brand under the all-zero id),
 * and the same by brand number (competitors.brand_no, own brand 0): how an answer names the
 * brands it names (responses.brand_nos). One statement (the project's own brand
 * and its competitor records side by side): every analytics read asks for these first, and
 * each round trip more is one more wait on a busy host.
 */
export async function brandInfoByNumber(
  tx: Tx,
  projectId: string,
): Promise<{ byId: Map<string, BrandInfo>; byNumber: Map<number, BrandInfo>; numbers: Map<string, number> }> {
  const { rows } = await tx.query<BrandRow>(
    `select p.name, p.brand_name, p.website_url, p.domain, p.brand_aliases,
            c.id as competitor_id, c.name as competitor_name, c.domain as competitor_domain, c.aliases,
            c.is_own_brand, c.state = 'active' as active, c.brand_no
       from projects p left join competitors c on c.project_id = p.id
      where p.id = $1
      order by c.created_at, c.id`,
    [projectId],
  );
  const records = rows.flatMap((r) =>
    r.competitor_id === null
      ? []
      : [{ id: r.competitor_id, name: r.competitor_name, domain: r.competitor_domain, aliases: r.aliases, is_own_brand: r.is_own_brand, active: r.active, brand_no: r.brand_no }],
  );
  const numbers = brandNumbersOf(records);
  const active = records.filter((r) => r.active);
  const byId = new Map<string, BrandInfo>();
  // no row: no such project, and no brands
  for (const b of rows[0] ? brandSpecsOf(rows[0], active) : []) {
    const icons = b.domain ? faviconUrls(b.domain) : [];
    byId.set(b.id, { id: b.id, name: b.name, icon_url: icons[0] ?? null, icon_urls: icons });
  }
  const byNumber = new Map<number, BrandInfo>();
  for (const [id, no] of numbers) {
    const info = byId.get(id);
    if (info) byNumber.set(no, info);
  }
  return { byId, byNumber, numbers };
}

export const publicBrand = (b: BrandInfo) => ({ name: b.name, icon_url: b.icon_url ?? '', icon_urls: b.icon_urls });
export { OWN_BRAND_ID };
