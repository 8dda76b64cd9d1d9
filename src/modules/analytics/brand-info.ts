import { OWN_BRAND_ID, loadBrandSpecs } from '../projects/brands.js';
import { loadProjectWithPlan } from '../projects/project-row.js';
import { faviconUrls } from '../../lib/url.js';
import type { Tx } from '../../store/index.js';

export interface BrandInfo {
  id: string;
  name: string;
  icon_url: string | null;
  icon_urls: string[];
}

/** Names and icons of a project's tracked brands by id (own brand under the all-zero id). */
export async function brandInfo(tx: Tx, projectId: string): Promise<Map<string, BrandInfo>> {
  const project = await loadProjectWithPlan(tx, projectId);
  const out = new Map<string, BrandInfo>();
  if (!project) return out;
  for (const b of await loadBrandSpecs(tx, project)) {
    const icons = b.domain ? faviconUrls(b.domain) : [];
    out.set(b.id, { id: b.id, name: b.name, icon_url: icons[0] ?? null, icon_urls: icons });
  }
  return out;
}

export const publicBrand = (b: BrandInfo) => ({ name: b.name, icon_url: b.icon_url ?? '', icon_urls: b.icon_urls });
export { OWN_BRAND_ID };
