import type { RequestContext } from '../../context.js';
import { NotFound } from '../../lib/errors.js';
import { requireProject } from '../projects/service.js';
import { brandInfoByNumber } from './brand-info.js';
import { chatItem, chatPages, type ChatRow } from './chat-item.js';
import { realProviders } from './prompt-analytics.js';
import type { Window } from './window.js';
import { marketSql } from '../../lib/markets.js';

/** The answers feed's filters beside the window (every one optional). */
export interface ChatFilters {
  promptId?: string;
  topicId?: string;
  /** A tracked brand (a competitor_id as /competitors lists it, the own brand's all-zero id included). */
  brandId?: string;
  /** With brandId: true keeps the answers naming the brand, false those that do not. */
  brandNamed: boolean;
}

interface FeedRow extends ChatRow {
  prompt_id: string;
  prompt_content: string;
  topic_id: string | null;
  topic_name: string | null;
}

/** Checks that a filter's id belongs to the project: an id of another project is a 404, not an empty feed. */
async function requireOwned(ctx: RequestContext, table: 'prompts' | 'topics', id: string, projectId: string, what: string) {
  const { rows } = await ctx.reads.query(`select 1 from ${table} where id = $1 and project_id = $2`, [id, projectId]);
  if (!rows[0]) throw new NotFound(`${what} not found`);
}

/**
 * Every answer of the project in the window, newest first, a page at a time, across its
 * prompts: the dashboard's answers feed. The item is the per-prompt chats' ChatItem plus the
 * prompt and topic it answers; one more row than the page is read to say whether another
 * page follows.
 */
export async function projectChats(ctx: RequestContext, projectId: string, w: Window, filters: ChatFilters, page: number, pageSize: number) {
  await requireProject(ctx, projectId);
  const brands = await brandInfoByNumber(ctx.reads, projectId);
  if (filters.brandId && !brands.byId.has(filters.brandId)) throw new NotFound('Brand not found: brand_id must be a competitor_id of the project (GET /competitors)');
  if (filters.promptId) await requireOwned(ctx, 'prompts', filters.promptId, projectId, 'Prompt');
  if (filters.topicId) await requireOwned(ctx, 'topics', filters.topicId, projectId, 'Topic');
  const { rows } = await ctx.reads.query<FeedRow>(
    // `at` as in the per-prompt chats: an answer stored after its (UTC) day shows at the day's start.
    `select r.id, r.prompt_id, p.content as prompt_content, p.topic_id, t.name as topic_name,
            r.provider, r.sample, r.market, r.model, r.body, r.mentioned, r.position, r.sentiment,
            array_to_string(r.brand_nos, ',') as brand_nos, array_to_string(r.brand_stats, ',') as brand_stats,
            array_to_string(r.cited, ',') as cited, r.model_judgement->>'by' as analyser,
            case when (r.collected_at at time zone 'UTC')::date = r.day then r.collected_at
                 else r.day::timestamp at time zone 'UTC' end as at
       from responses r
       join prompts p on p.id = r.prompt_id
       left join topics t on t.id = p.topic_id
      where r.project_id = $1 and r.provider = any($2::text[]) and r.day between $3::date and $4::date
        and ($5::uuid is null or r.prompt_id = $5::uuid)
        and ($6::uuid is null or p.topic_id = $6::uuid)
        and ($7::int is null or ($7::int = any(r.brand_nos)) = $8::boolean)
        and ${marketSql(w.market, 11, 'r.market')}
      order by r.day desc, at desc, r.prompt_id, r.provider, r.sample, r.id
      limit $9 offset $10`,
    [
      projectId,
      realProviders(w),
      w.from,
      w.to,
      filters.promptId ?? null,
      filters.topicId ?? null,
      filters.brandId ? (brands.numbers.get(filters.brandId) ?? -1) : null,
      filters.brandNamed,
      pageSize + 1,
      (page - 1) * pageSize,
      w.market,
    ],
  );
  const shown = rows.slice(0, pageSize);
  const pages = await chatPages(ctx, shown);
  const items = shown.map((r) => ({
    ...chatItem(r, brands.byNumber, r.prompt_content, pages),
    prompt_id: r.prompt_id,
    topic_id: r.topic_id,
    topic_name: r.topic_name,
  }));
  return { items, page, page_size: pageSize, has_more: rows.length > pageSize };
}
