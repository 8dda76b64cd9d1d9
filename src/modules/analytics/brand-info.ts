import { OWN_BRAND_ID, loadBrandNumbers, loadBrandSpecs } from '../projects/brands.js';
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

/**
 * brandInfo, and the same by brand number (competitors.brand_no, own brand 0): how an answer
 * names the brands it names (responses.brand_nos).
 */
export async function brandInfoByNumber(
  tx: Tx,
  projectId: string,
): Promise<{ byId: Map<string, BrandInfo>; byNumber: Map<number, BrandInfo>; numbers: Map<string, number> }> {
  const [byId, numbers] = await Promise.all([brandInfo(tx, projectId), loadBrandNumbers(tx, projectId)]);
  const byNumber = new Map<number, BrandInfo>();
  for (const [id, no] of numbers) {
    const info = byId.get(id);
    if (info) byNumber.set(no, info);
  }
  return { byId, byNumber, numbers };
}

export const publicBrand = (b: BrandInfo) => ({ name: b.name, icon_url: b.icon_url ?? '', icon_urls: b.icon_urls });
export { OWN_BRAND_ID };
