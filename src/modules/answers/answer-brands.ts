import type { BrandResult } from '../../analysis/types.js';
import { pgArray } from './cited-pages.js';

/**
 * The tracked brands an answer names, as responses keeps them: brand_ids (uuid[]) by
 * position, and brand_stats (int[]) holding position, count and sentiment of each in turn.
 * Half the bytes of the jsonb object it replaces, and SQL unnests the ids without parsing.
 */
export function brandColumns(brands: Record<string, BrandResult>): { ids: string; stats: string } {
  const named = Object.entries(brands).sort((a, b) => a[1].position - b[1].position || (a[0] < b[0] ? -1 : 1));
  return {
    ids: pgArray(named.map(([id]) => id)),
    stats: pgArray(named.flatMap(([, b]) => [b.position, b.count, b.sentiment])),
  };
}

/** brand id -> {position, count, sentiment}, in position order. */
export function brandsOfColumns(ids: string[], stats: number[]): Record<string, BrandResult> {
  const out: Record<string, BrandResult> = {};
  for (let i = 0; i < ids.length; i++) out[ids[i]] = { position: stats[3 * i], count: stats[3 * i + 1], sentiment: stats[3 * i + 2] };
  return out;
}
