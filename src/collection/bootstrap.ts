import type { ServiceContext } from '../context.js';
import { detectCompetitors } from '../analysis/index.js';
import { bootstrapCallbackId, enqueueDelivery } from '../modules/webhooks/outbox.js';
import { stableUuid } from '../lib/crypto.js';
import { utcDay } from '../lib/time.js';
import { normalizeWebsite } from '../lib/url.js';
import { readSite } from '../ports/pages/extract.js';
import { fetchPage } from '../ports/pages/fetcher.js';
import type { ProviderName } from '../ports/providers/types.js';
import { readAnswerBodies } from '../modules/answers/cited-pages.js';
import { textKey } from '../modules/common.js';
import { classifyIntent } from '../modules/prompts/intent.js';
import { activePromptQuota } from '../modules/prompts/service.js';
import { loadBrandSpecs } from '../modules/projects/brands.js';
import { forgetProject, loadProjectWithPlan, type ProjectWithPlan } from '../modules/projects/project-row.js';
import { trackedProviders } from '../modules/projects/service.js';
import { collectAnswers, seriesOf } from './collect.js';
import type { Market } from '../lib/markets.js';
import { reanalyseProject } from './reanalyse.js';
import { Conflict } from '../lib/errors.js';

/** docs/decisions.md: full bootstrap 5 prompts × these 3 providers; skip_trial 3 prompts. */
export const BOOTSTRAP_PROVIDERS: ProviderName[] = ['chatgpt', 'perplexity', 'google_ai_overview'];
export const DETECTED_COMPETITORS = 5;

/**
 * The engines the bootstrap asks: those of BOOTSTRAP_PROVIDERS the project tracks, then its
 * other engines, three at most (the budget of docs/decisions.md): a project that chose other
 * engines is never asked of one it does not track.
 */
export function bootstrapProviders(stored: readonly string[] | null | undefined): ProviderName[] {
  const tracked = trackedProviders(stored ? [...stored] : null);
  const first = BOOTSTRAP_PROVIDERS.filter((p) => tracked.includes(p));
  return [...first, ...tracked.filter((p) => !first.includes(p))].slice(0, BOOTSTRAP_PROVIDERS.length);
}

/**
 * The bootstrap pipeline of a new project: read the brand's site, write topics and
 * prompts, ask the providers within the plan's credits, detect competitors, compute the
 * metrics, then call back. Every step is idempotent, so a retried job picks up where the
 * last attempt stopped. The callback reports `error` only when the last retry fails.
 */
export async function runBootstrap(ctx: ServiceContext, projectId: string, isLastAttempt: boolean): Promise<void> {
  const project = await loadProjectWithPlan(ctx.store, projectId);
  if (project?.status !== 'initializing') return;
  try {
    const { rows: team } = await ctx.store.query<{ plan: string }>(`select plan from teams where id = $1`, [project.team_id]);
    const promptCount = team[0]?.plan === 'skip_trial' ? 3 : 5;
    await writePrompts(ctx, project, promptCount);
    const { rows: prompts } = await ctx.store.query<{ id: string; country: string | null; markets: Market[] | null }>(
      `select id, country, markets from prompts where project_id = $1 and prompt_type = 'active' order by created_at, id limit $2`,
      [projectId, promptCount],
    );
    const day = utcDay();
    const runId = stableUuid('bootstrap', projectId);
    await ctx.store.query(
      `insert into collection_runs (id, project_id, kind, day) values ($1, $2, 'bootstrap', $3) on conflict do nothing`,
      [runId, projectId, day],
    );
    const providers = bootstrapProviders(project.providers).filter((p) => p in ctx.ports.providers);
    // One sample each, whatever samples_per_run says: the bootstrap's budget is fixed
    // (docs/decisions.md: 15 credits, 9 on skip_trial); the daily runs take the repeats.
    const keys = seriesOf(prompts, project).flatMap((s) => providers.map((provider) => ({ promptId: s.promptId, market: s.market, provider, day, sample: 1 })));
    const tally = await collectAnswers(ctx, project, keys, runId);
    if (tally.stored + tally.alreadyStored === 0 && tally.failed > 0) {
      const error = new Error(`No AI provider answered: ${tally.errors.slice(0, 3).join('; ')}`);
      // Retrying cannot fix refused keys or bad requests: report at once.
      if (tally.retryableFailures === 0) return finish(ctx, project, 'error', error.message);
      throw error;
    }
    await addDetectedCompetitors(ctx, project);
    await reanalyseProject(ctx, projectId).catch((err) => {
      // a project with figures past RETENTION_MONTHS keeps them as they are (docs/retention.md)
      if (!(err instanceof Conflict)) throw err;
      ctx.log.warn({ project: projectId, err: err.message }, 're-analysis refused');
    });
    await finish(ctx, project, 'completed', null);
  } catch (err) {
    if (!isLastAttempt) throw err;
    ctx.log.error({ err, project: projectId }, 'bootstrap failed');
    await finish(ctx, project, 'error', (err as Error).message || 'Bootstrap failed');
  }
}

/** Topics and prompts from the brand's site (or its name alone when the site is unreachable). */
async function writePrompts(ctx: ServiceContext, project: ProjectWithPlan, count: number): Promise<void> {
  const existing = await ctx.store.query(`select 1 from prompts where project_id = $1 limit 1`, [project.id]);
  if (existing.rows.length) return;
  let site = null;
  if (project.website_url) {
    try {
      const page = await fetchPage(project.website_url, { allowPrivate: ctx.config.allowPrivateUrls, timeoutMs: 10_000 });
      if (page.status >= 200 && page.status < 300) site = readSite(page.html, page.url);
    } catch (err) {
      ctx.log.info({ err: (err as Error).message, project: project.id }, 'brand site unreachable; writing prompts from the name');
    }
  }
  const brandName = project.brand_name ?? project.name;
  const written = await ctx.ports.writer.suggestTopicsAndPrompts({
    brandName,
    site,
    language: project.language,
    location: project.location,
    count,
  });
  await ctx.store.tx(async (tx) => {
    const quota = await activePromptQuota(tx, project.team_id, project.id);
    let room = quota.limit - quota.inUse;
    const topicIds = new Map<string, string>();
    for (const t of written.topics) {
      const ins = await tx.query<{ id: string }>(
        `insert into topics (project_id, name, name_key, description) values ($1, $2, $3, $4)
         on conflict (project_id, name_key) do update set name = topics.name returning id`,
        [project.id, t.name, textKey(t.name), t.description],
      );
      topicIds.set(textKey(t.name), ins.rows[0].id);
    }
    for (const p of written.prompts) {
      const type = room > 0 ? 'active' : 'suggested';
      const ins = await tx.query(
        `insert into prompts (project_id, team_id, topic_id, content, content_key, prompt_type, country, intent)
         values ($1, $2, $3, $4, $5, $6, $7, $8) on conflict do nothing`,
        [project.id, project.team_id, topicIds.get(textKey(p.topic)) ?? null, p.content, textKey(p.content), type, project.location, classifyIntent(p.content)],
      );
      if (ins.rowCount && type === 'active') room -= 1;
    }
  });
}

/** Adds the brands that recur in the answers as competitors, when the project has none yet. */
async function addDetectedCompetitors(ctx: ServiceContext, project: ProjectWithPlan): Promise<void> {
  const brands = await loadBrandSpecs(ctx.store, project);
  if (brands.length > 1) return;
  const { rows } = await ctx.store.query<{ body: Uint8Array; cited: number[] }>(`select body, cited from responses where project_id = $1`, [project.id]);
  const found = detectCompetitors(await readAnswerBodies(ctx.store, rows), brands[0], [], DETECTED_COMPETITORS);
  for (const c of found) {
    const site = c.domain ? normalizeWebsite(c.domain) : null;
    if (!site) continue;
    await ctx.store.query(
      `insert into competitors (project_id, name, website, domain, state, is_own_brand)
       values ($1, $2, $3, $4, 'active', false) on conflict do nothing`,
      [project.id, c.name, site.website, site.domain],
    );
  }
}

async function finish(ctx: ServiceContext, project: ProjectWithPlan, status: 'completed' | 'error', error: string | null) {
  try {
    await finishInStore(ctx, project, status, error);
  } finally {
    forgetProject(ctx, project.id);
  }
}

async function finishInStore(ctx: ServiceContext, project: ProjectWithPlan, status: 'completed' | 'error', error: string | null) {
  await ctx.store.tx(async (tx) => {
    const moved = await tx.query(
      `update projects set status = $2, status_error = $3 where id = $1 and status = 'initializing'`,
      [project.id, status, error],
    );
    if (!moved.rowCount || !project.webhook_url) return;
    await enqueueDelivery(ctx, tx, {
      id: bootstrapCallbackId(project.id),
      kind: 'callback',
      teamId: project.team_id,
      url: project.webhook_url,
      event: 'project.bootstrap',
      body: { event: 'project.bootstrap', project_id: project.id, status, error, timestamp: new Date().toISOString() },
    });
  });
}
