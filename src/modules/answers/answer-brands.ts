import type { BrandResult } from '../../analysis/types.js';
import { pgArray } from './cited-pages.js';

/** The largest figure a brand_stats entry holds (smallint): a count past it is kept as it. */
const MAX_FIGURE = 32767;

/**
 * The tracked brands an answer names, as responses keeps them (migration 0035): brand_nos
 * (smallint[]) by position, each the brand's number (competitors.brand_no, own brand 0, as
 * every rollup numbers brands), and brand_stats (smallint[]) holding position, count and
 * sentiment of each in turn. `numbers`: the project's brand numbers by id
 * (loadBrandNumbers); a brand without one (a competitor deleted since the analysis) is left
 * out, as the rollups leave it out.
 */
export function brandColumns(brands: Record<string, BrandResult>, numbers: Map<string, number>): { nos: string; stats: string } {
  const named = Object.entries(brands)
    .filter(([id]) => numbers.has(id))
    .sort((a, b) => a[1].position - b[1].position || (a[0] < b[0] ? -1 : 1));
  return {
    nos: pgArray(named.map(([id]) => numbers.get(id)!)),
    stats: pgArray(named.flatMap(([, b]) => [b.position, b.count, b.sentiment].map((v) => Math.min(v, MAX_FIGURE)))),
  };
}

/** brand number -> {position, count, sentiment}, in position order. */
export function brandsOfColumns(nos: number[], stats: number[]): Map<number, BrandResult> {
  const out = new Map<number, BrandResult>();
  for (let i = 0; i < nos.length; i++) out.set(nos[i], { position: stats[3 * i], count: stats[3 * i + 1], sentiment: stats[3 * i + 2] });
  return out;
}
