import type { RequestContext } from '../../context.js';
import { listProjectMarkets } from '../prompts/service.js';
import { PROVIDER_ENV, PROVIDERS, providerModes } from '../../ports/providers/index.js';
import { competitorsWithMetrics } from '../competitors/metrics.js';
import { resolveWindow, type Window } from '../analytics/window.js';
import { requireProject, trackedProviders } from '../projects/service.js';
import { modelChangeItems } from '../analytics/model-changes.js';
import { overviewChanges } from './changes.js';

// The dashboard overview's figures in one read (an extension): the competitors table of
// the window and of the one before it, and the own brand per engine. It calls the same
// service as GET /competitors, once per table, so every figure is the one that route
// gives; the point is the number of requests a page makes, not new arithmetic. `changes`
// (changes.ts) says which of those differences are significant and lists the movers.

/** Every engine: asked for real or simulated here, and the variable that makes it live. */
export function engineModes(config: RequestContext['config']) {
  const modes = providerModes(config);
  return PROVIDERS.map((p) => ({ provider: p, mode: modes[p], live_with: PROVIDER_ENV[p].key }));
}

/** The project's engines and whether each is asked for real (PROVIDERS_MODE and its key). */
export async function projectEngines(ctx: RequestContext, projectId: string) {
  const { rows } = await ctx.reads.query<{ providers: string[] | null }>(`select providers from projects where id = $1`, [projectId]);
  const modes = providerModes(ctx.config);
  return trackedProviders(rows[0]?.providers).map((p) => ({ provider: p, mode: modes[p], live_with: PROVIDER_ENV[p].key }));
}

export async function overviewSummary(ctx: RequestContext, projectId: string, w: Window) {
  const project = await requireProject(ctx, projectId);
  const engines = await projectEngines(ctx, projectId);
  const perProvider = w.providers ?? engines.map((e) => e.provider);
  // Resolved as GET /competitors?date_from&date_to would resolve it (its own trend window
  // included), in the same engines and market as the window.
  const previous = resolveWindow({
    date_from: w.prevFrom,
    date_to: w.prevTo,
    ...(w.providers ? { providers: w.providers.join(',') } : {}),
    ...(w.market ? { market: w.market } : {}),
  });
  const [changes, modelChanges, markets, current, before, ...byProvider] = await Promise.all([
    overviewChanges(ctx, project, w, previous),
    modelChangeItems(ctx, projectId, w),
    listProjectMarkets(ctx, projectId),
    competitorsWithMetrics(ctx, projectId, w),
    competitorsWithMetrics(ctx, projectId, previous),
    ...perProvider.map((p) => competitorsWithMetrics(ctx, projectId, { ...w, providers: [p] })),
  ]);
  const own = (t: Awaited<ReturnType<typeof competitorsWithMetrics>>) => t.active_competitors.find((c) => c.is_own_brand)?.metrics ?? null;
  return {
    current: { date_from: w.from, date_to: w.to, ...current },
    previous: { date_from: previous.from, date_to: previous.to, ...before },
    by_provider: perProvider.map((provider, i) => ({ provider, own_brand: own(byProvider[i]!) })),
    engines,
    changes,
    model_changes: modelChanges,
    markets,
  };
}
