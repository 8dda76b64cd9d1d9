import type { RequestContext } from '../../context.js';
import { Invalid, NotFound } from '../../lib/errors.js';
import { iso, isoOrNull } from '../common.js';
import { OWN_BRAND_ID } from '../projects/brands.js';
import { requireProject } from '../projects/service.js';
import type { ProviderName } from '../../ports/providers/types.js';
import { assertDeliverableUrl } from '../webhooks/target.js';
import { NEW_THING_METRICS, type ChannelInput, type Condition, type CreateAlertInput, type Metric, type PatchAlertInput } from './schema.js';

export interface AlertRow {
  id: string;
  team_id: string;
  project_id: string;
  name: string;
  metric: Metric;
  condition: Condition;
  threshold: number | null;
  window_days: number;
  providers: ProviderName[] | null;
  prompt_ids: string[] | null;
  brand_id: string | null;
  channels: ChannelInput[];
  is_active: boolean;
  state: unknown;
  evaluated_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export const ALERT_COLUMNS =
  'id, team_id, project_id, name, metric, condition, threshold, window_days, providers, prompt_ids, brand_id, channels, is_active, state, evaluated_at, created_at, updated_at';

export const presentAlert = (r: AlertRow) => ({
  alert_id: r.id,
  project_id: r.project_id,
  name: r.name,
  metric: r.metric,
  condition: r.condition,
  threshold: r.threshold,
  window_days: r.window_days,
  providers: r.providers,
  prompt_ids: r.prompt_ids,
  brand_id: r.brand_id,
  channels: r.channels,
  is_active: r.is_active,
  evaluated_at: isoOrNull(r.evaluated_at),
  created_at: iso(r.created_at),
  updated_at: iso(r.updated_at),
});

type RuleFields = Omit<Required<CreateAlertInput>, 'is_active'> & { is_active: boolean };

/**
 * The checks between fields a schema cannot make alone, on the rule as it will be stored:
 * what each condition needs, which filters each metric can take, and that every id and
 * URL names something of this project that can be reached.
 */
async function checkRule(ctx: RequestContext, projectId: string, r: RuleFields): Promise<void> {
  const isNewThing = NEW_THING_METRICS.includes(r.metric);
  if (isNewThing && r.condition !== 'above') throw new Invalid(`${r.metric} takes condition above (a count of new ${r.metric === 'new_competitor' ? 'brands' : 'domains'}) or none`);
  if ((r.condition === 'below' || r.condition === 'above') && r.threshold === null) throw new Invalid(`condition ${r.condition} needs a threshold`);
  const ownBrand = r.brand_id === null || r.brand_id === OWN_BRAND_ID;
  if (!ownBrand && (isNewThing || r.metric === 'own_citations')) throw new Invalid(`brand_id does not apply to ${r.metric}`);
  if (r.prompt_ids && (!ownBrand || r.metric === 'share_of_voice' || isNewThing))
    throw new Invalid('prompt_ids can filter only the own brand’s visibility, position, sentiment and own_citations');
  if (!ownBrand) {
    const { rows } = await ctx.store.query(`select 1 from competitors where id = $1 and project_id = $2`, [r.brand_id, projectId]);
    if (!rows.length) throw new Invalid('brand_id is not a competitor of this project');
  }
  if (r.prompt_ids?.length) {
    const { rows } = await ctx.store.query<{ n: number }>(`select count(*)::int as n from prompts where project_id = $1 and id = any($2::uuid[])`, [
      projectId,
      [...new Set(r.prompt_ids)],
    ]);
    if (rows[0].n !== new Set(r.prompt_ids).size) throw new Invalid('prompt_ids names a prompt that is not in this project');
  }
  for (const c of r.channels) if (c.type === 'slack') await assertDeliverableUrl(ctx, 'the Slack url', c.url);
}

function withDefaults(input: CreateAlertInput): RuleFields {
  const isNewThing = NEW_THING_METRICS.includes(input.metric);
  if (!isNewThing && !input.condition) throw new Invalid('condition is required');
  return {
    name: input.name,
    metric: input.metric,
    condition: input.condition ?? 'above',
    threshold: input.threshold ?? (isNewThing ? 0 : null),
    window_days: input.window_days ?? 7,
    providers: input.providers?.length ? [...new Set(input.providers)] : null,
    prompt_ids: input.prompt_ids?.length ? [...new Set(input.prompt_ids)] : null,
    brand_id: input.brand_id ?? null,
    channels: input.channels,
    is_active: input.is_active ?? true,
  };
}

const json = (v: unknown) => (v === null ? null : JSON.stringify(v));

export async function createAlert(ctx: RequestContext, projectId: string, input: CreateAlertInput) {
  const project = await requireProject(ctx, projectId);
  const r = withDefaults(input);
  await checkRule(ctx, projectId, r);
  const { rows } = await ctx.store.query<AlertRow>(
    `insert into alert_rules (team_id, project_id, name, metric, condition, threshold, window_days, providers, prompt_ids, brand_id, channels, is_active)
     values ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9::jsonb, $10, $11::jsonb, $12) returning ${ALERT_COLUMNS}`,
    [project.team_id, projectId, r.name, r.metric, r.condition, r.threshold, r.window_days, json(r.providers), json(r.prompt_ids), r.brand_id, JSON.stringify(r.channels), r.is_active],
  );
  return presentAlert(rows[0]);
}

export async function listAlerts(ctx: RequestContext, projectId: string) {
  await requireProject(ctx, projectId);
  const { rows } = await ctx.store.query<AlertRow>(`select ${ALERT_COLUMNS} from alert_rules where project_id = $1 order by created_at, id`, [projectId]);
  return rows.map(presentAlert);
}

export async function loadAlert(ctx: RequestContext, projectId: string, alertId: string): Promise<AlertRow> {
  await requireProject(ctx, projectId);
  const { rows } = await ctx.store.query<AlertRow>(`select ${ALERT_COLUMNS} from alert_rules where id = $1 and project_id = $2`, [alertId, projectId]);
  if (!rows[0]) throw new NotFound('Alert not found');
  return rows[0];
}

export async function getAlert(ctx: RequestContext, projectId: string, alertId: string) {
  return presentAlert(await loadAlert(ctx, projectId, alertId));
}

/**
 * A change of what the rule watches starts it afresh (its state is cleared: the new
 * condition, if it already holds, fires at the next evaluation); a change of its name or
 * channels keeps what it has already told.
 */
export async function updateAlert(ctx: RequestContext, projectId: string, alertId: string, patch: PatchAlertInput) {
  const cur = await loadAlert(ctx, projectId, alertId);
  const merged = { ...cur, ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) } as AlertRow;
  if (patch.metric && NEW_THING_METRICS.includes(patch.metric) && patch.condition === undefined) merged.condition = 'above';
  if (merged.providers?.length === 0) merged.providers = null;
  if (merged.prompt_ids?.length === 0) merged.prompt_ids = null;
  await checkRule(ctx, projectId, merged);
  const watched = ['metric', 'condition', 'threshold', 'window_days', 'providers', 'prompt_ids', 'brand_id'] as const;
  const reset = watched.some((k) => JSON.stringify(merged[k]) !== JSON.stringify(cur[k]));
  const { rows } = await ctx.store.query<AlertRow>(
    `update alert_rules set name = $3, metric = $4, condition = $5, threshold = $6, window_days = $7, providers = $8::jsonb, prompt_ids = $9::jsonb,
            brand_id = $10, channels = $11::jsonb, is_active = $12, state = case when $13 then null else state end, updated_at = now()
      where id = $1 and project_id = $2 returning ${ALERT_COLUMNS}`,
    [alertId, projectId, merged.name, merged.metric, merged.condition, merged.threshold, merged.window_days, json(merged.providers), json(merged.prompt_ids), merged.brand_id, JSON.stringify(merged.channels), merged.is_active, reset],
  );
  if (!rows[0]) throw new NotFound('Alert not found');
  return presentAlert(rows[0]);
}

export async function deleteAlert(ctx: RequestContext, projectId: string, alertId: string) {
  await requireProject(ctx, projectId);
  const { rowCount } = await ctx.store.query(`delete from alert_rules where id = $1 and project_id = $2`, [alertId, projectId]);
  if (!rowCount) throw new NotFound('Alert not found');
  return { alert_id: alertId, message: 'Alert deleted' };
}
