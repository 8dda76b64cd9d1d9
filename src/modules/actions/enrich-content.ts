import type { RequestContext } from '../../context.js';
import { AppError, Invalid, NotFound } from '../../lib/errors.js';
import { OutboundError } from '../../ports/http/safe-request.js';
import { readArticle, type ArticleInfo } from '../../ports/pages/extract.js';
import { fetchPage, PageFetchError } from '../../ports/pages/fetcher.js';
import { countWords, WriterError, type BrandFacts, type EditSuggestion } from '../../ports/writer/index.js';
import { requireProject, type ProjectRow } from '../projects/service.js';
import { activePromptsByMentionRate, competitorsNamedWhereBrandMissing } from '../rollups/prompt-reads.js';

// POST /actions/{id}/enrich-content and /enrich-forum: read the action's target page
// through the page fetcher (SSRF-guarded, size and time bounded) and ask the writer for
// edits grounded in the page and the project's data, or for a forum reply. The action
// row is read here directly, so these endpoints depend on the actions table only.

export const PAGE_TIMEOUT_MS = 15_000;
export const PAGE_MAX_BYTES = 2_000_000;
const MAX_PROMPTS = 20;
const MAX_COMPETITORS = 5;
/** How far back the rollups are read for competitors named where the brand is missing. */
const GAP_DAYS = 90;

interface ActionTarget {
  type: string;
  value: string;
}

export interface EnrichActionRow {
  id: string;
  category: string;
  title: string;
  description: string;
  targets: ActionTarget[] | null;
}

export class PageUnavailable extends AppError {
  constructor(reason: string) {
    super(422, `Could not fetch the target page: ${reason}`);
  }
}

async function loadAction(ctx: RequestContext, projectId: string, actionId: string): Promise<EnrichActionRow> {
  const { rows } = await ctx.store.query<EnrichActionRow>(
    `select id, category, title, description, targets from actions where id = $1 and project_id = $2`,
    [actionId, projectId],
  );
  if (!rows[0]) throw new NotFound('Action not found');
  return rows[0];
}

/** The first url target that is an http(s) URL. */
export function targetUrlOf(row: EnrichActionRow): string | null {
  for (const t of row.targets ?? []) {
    if (t?.type !== 'url' || typeof t.value !== 'string') continue;
    try {
      const u = new URL(t.value.trim());
      if (u.protocol === 'http:' || u.protocol === 'https:') return u.href;
    } catch {
      /* not a URL: try the next target */
    }
  }
  return null;
}

const keywordsOf = (row: EnrichActionRow) =>
  (row.targets ?? []).filter((t) => t?.type === 'keyword' && typeof t.value === 'string' && t.value.trim()).map((t) => t.value.trim());

export function brandOf(project: ProjectRow): BrandFacts {
  return { name: project.brand_name ?? project.name, domain: project.domain, aliases: project.brand_aliases ?? [] };
}

/** The page's main text, or PageUnavailable naming what went wrong (never a 500). */
export async function readTargetPage(ctx: RequestContext, url: string): Promise<ArticleInfo & { url: string }> {
  try {
    const page = await fetchPage(url, { allowPrivate: ctx.config.allowPrivateUrls, timeoutMs: PAGE_TIMEOUT_MS, maxBytes: PAGE_MAX_BYTES });
    return { ...readArticle(page.html, page.url), url: page.url };
  } catch (err) {
    if (err instanceof OutboundError || err instanceof PageFetchError) throw new PageUnavailable(err.message);
    throw new PageUnavailable(err instanceof Error ? err.message : String(err));
  }
}

/** The project's active prompts, those where the brand is seen least first. */
async function promptsOf(ctx: RequestContext, projectId: string): Promise<string[]> {
  return activePromptsByMentionRate(ctx.store, projectId, GAP_DAYS, MAX_PROMPTS);
}

/**
 * Competitors the engines name on prompts where the brand is missing from some answers
 * (daily rollups of the last 90 days), most mentioned first; without data yet, the
 * project's active competitors.
 */
async function competitorsOf(ctx: RequestContext, projectId: string): Promise<string[]> {
  const named = await competitorsNamedWhereBrandMissing(ctx.store, projectId, GAP_DAYS, MAX_COMPETITORS);
  if (named.length) return named;
  const active = await ctx.store.query<{ name: string }>(
    `select name from competitors where project_id = $1 and state = 'active' and not is_own_brand order by created_at, id limit $2`,
    [projectId, MAX_COMPETITORS],
  );
  return active.rows.map((r) => r.name);
}

/** Writer failures (the model's API down or refusing the key) are a 502, with the cause. */
async function written<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof WriterError) throw new AppError(502, `The writer model failed: ${err.message}`);
    throw err;
  }
}

export async function enrichContent(ctx: RequestContext, projectId: string, actionId: string): Promise<EditSuggestion[]> {
  const project = await requireProject(ctx, projectId);
  const action = await loadAction(ctx, projectId, actionId);
  if (action.category !== 'content_update') {
    throw new Invalid(`Action ${action.id} is a ${action.category} action; enrich-content needs a content_update action`);
  }
  const url = targetUrlOf(action);
  if (!url) throw new Invalid(`Action ${action.id} has no target URL (a target of type url)`);
  const page = await readTargetPage(ctx, url);
  const [prompts, competitors] = await Promise.all([promptsOf(ctx, projectId), competitorsOf(ctx, projectId)]);
  const edits = await written(() =>
    ctx.ports.writer.suggestEdits({
      brand: brandOf(project),
      page: { url: page.url, title: page.title, paragraphs: page.paragraphs },
      prompts,
      competitors,
      keywords: keywordsOf(action),
    }),
  );
  return edits.map((e) => ({ section: e.section, type: e.type, before: e.before, after: e.after, signal: e.signal, reason: e.reason }));
}

async function citedTitle(ctx: RequestContext, projectId: string, url: string): Promise<string | null> {
  const { rows } = await ctx.store.query<{ title: string }>(
    // The newest answer citing the page with a title: its pages' ids first (a few rows of
    // cited_pages), then the project's answers holding one of them.
    `with pages as (select id, title from cited_pages where project_id = $1 and url = $2 and title <> '')
     select p.title from responses r cross join unnest(r.cited) as k(id) join pages p on p.id = k.id
      where r.project_id = $1 and r.cited && (select coalesce(array_agg(id), '{}') from pages)
      order by r.day desc, r.collected_at desc, r.prompt_id, r.provider, r.sample limit 1`,
    [projectId, url],
  );
  return rows[0]?.title ?? null;
}

export interface ForumDraft {
  comment: string;
  comment_word_count: number;
  thread_title: string;
  thread_url: string;
}

export async function enrichForum(ctx: RequestContext, projectId: string, actionId: string): Promise<ForumDraft> {
  const project = await requireProject(ctx, projectId);
  const action = await loadAction(ctx, projectId, actionId);
  if (action.category !== 'forum_engagement') {
    throw new Invalid(`Action ${action.id} is a ${action.category} action; enrich-forum needs a forum_engagement action`);
  }
  const url = targetUrlOf(action);
  if (!url) throw new Invalid(`Action ${action.id} has no thread URL (a target of type url)`);
  // The thread's own title when the page can be read; else the title it was cited under.
  const page = await readTargetPage(ctx, url).catch((err) => {
    ctx.log.info({ err, url }, 'enrich-forum: thread page not readable; using the cited title');
    return null;
  });
  const title = page?.title?.trim() || (await citedTitle(ctx, projectId, url)) || url;
  const text = page ? page.paragraphs.slice(0, 8).join('\n\n').slice(0, 4_000) : null;
  const { comment } = await written(() =>
    ctx.ports.writer.forumComment({ brand: brandOf(project), thread: { url, title, text }, keywords: keywordsOf(action) }),
  );
  return { comment, comment_word_count: countWords(comment), thread_title: title, thread_url: url };
}
