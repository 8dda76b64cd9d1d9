import { chatPreview } from '../../analysis/preview.js';
import { PROVIDER_SURFACE, type ProviderName } from '../../ports/providers/types.js';
import { decodeShownAnswer } from '../answers/answer-body.js';
import { brandsOfColumns } from '../answers/answer-brands.js';
import { citedList, citedPagesById, pagesOf, type CitedPage } from '../answers/cited-pages.js';
import type { RequestContext } from '../../context.js';
import { iso } from '../common.js';
import { publicBrand, type BrandInfo } from './brand-info.js';

/** The columns of a stored answer that a ChatItem is made of. */
export interface ChatRow {
  id: string;
  at: Date;
  provider: string;
  sample: number;
  market: string;
  model: string;
  body: Uint8Array;
  mentioned: boolean;
  position: number | null;
  sentiment: number | null;
  /** brand_nos and brand_stats joined by commas: pg's array parser builds them a character at a time (~220 KB of garbage a page). */
  brand_nos: string;
  brand_stats: string;
  /** The answer's cited page ids joined by commas: its references name them (answers/answer-body.ts). */
  cited: string;
  /** `<provider>:<model>` of the analysis model whose judgement the figures carry (responses.model_judgement); null: the lexicon's. */
  analyser: string | null;
}

/** The SQL select list of a ChatRow (`responses` columns). */
export const CHAT_COLUMNS = `id, provider, sample, market, model, body, mentioned, position, sentiment,
              array_to_string(brand_nos, ',') as brand_nos, array_to_string(brand_stats, ',') as brand_stats,
              array_to_string(cited, ',') as cited, model_judgement->>'by' as analyser`;

const listOf = (joined: string): string[] => (joined ? joined.split(',') : []);

/** The cited pages of a page of chats (the process's cache, answers/cited-pages.ts): what chatItem names their references by. */
export function chatPages(ctx: RequestContext, rows: ReadonlyArray<Pick<ChatRow, 'cited'>>): Promise<Map<number, CitedPage>> {
  return citedPagesById(ctx.reads, rows.flatMap((r) => citedList(r.cited)), ctx.store);
}

/**
 * One stored answer as the contract's ChatItem (with its extension fields), its keys in the
 * schema's order: the per-prompt chats are serialized with plain JSON.stringify. `brands`:
 * the project's by number (brandInfoByNumber); `pages`: chatPages of the rows.
 */
export function chatItem(r: ChatRow, brands: Map<number, BrandInfo>, promptContent: string, pages: Map<number, CitedPage>) {
  const { text, references, searchQueries } = decodeShownAnswer(r.body, pagesOf(r.cited, pages), r.provider);
  const provider = r.provider as ProviderName;
  const named = [...brandsOfColumns(listOf(r.brand_nos).map(Number), listOf(r.brand_stats).map(Number))]
    .map(([no, b]) => ({ info: brands.get(no), ...b }))
    .filter((b): b is typeof b & { info: BrandInfo } => !!b.info)
    .sort((a, b) => a.position - b.position);
  return {
    id: r.id,
    date: iso(r.at),
    mentioned: r.mentioned,
    position: r.position,
    all_mentions: named.map((b) => publicBrand(b.info)),
    chat_preview: chatPreview(text),
    platform: r.provider,
    sample: r.sample,
    model: r.model,
    full_content: text,
    prompt_content: promptContent,
    // in the contract's key order (stored in jsonb's: answer-body.ts), for the plain serializer
    references: references.map((ref) => ({ title: ref.title, link: ref.link, snippet: ref.snippet, reference_index: ref.reference_index })),
    brands_mentioned: Object.fromEntries(named.map((b) => [b.info.name, { position: b.position, count: b.count }])),
    sentiment: r.sentiment,
    sentiment_by_brands: Object.fromEntries(named.map((b) => [b.info.name, b.sentiment])),
    search_queries: searchQueries,
    surface: PROVIDER_SURFACE[provider],
    market: r.market,
    // only where a model judged: without ANALYSIS_MODEL every chat is as it always was
    ...(r.analyser ? { analyser: r.analyser } : {}),
  };
}
