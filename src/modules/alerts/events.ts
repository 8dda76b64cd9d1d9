import type { RequestContext } from '../../context.js';
import { iso } from '../common.js';
import { requireProject } from '../projects/service.js';
import { alertsUrl } from './evaluate.js';
import type { RuleWindow } from './figures.js';
import type { AlertNotice } from './messages.js';
import type { ChannelInput, Condition, Metric } from './schema.js';
import { loadAlert } from './service.js';

interface EventRow {
  id: string;
  alert_id: string;
  metric: Metric;
  condition: Condition;
  value: number;
  previous: number | null;
  p_value: number | null;
  window: RuleWindow;
  detail: { names?: string[] | null } | null;
  fired_at: Date;
  deliveries: Array<{ kind: string; status: 'pending' | 'delivered' | 'failed'; attempts: number; last_error: string | null }> | null;
}

/** Fired events of a project, newest first, each with its deliveries' status (failures visible). */
export async function listAlertEvents(ctx: RequestContext, projectId: string, q: { limit?: number; alert_id?: string }) {
  await requireProject(ctx, projectId);
  const { rows } = await ctx.store.query<EventRow>(
    `select e.id, e.alert_id, e.metric, e.condition, e.value, e.previous, e.p_value, e."window", e.detail, e.fired_at,
            (select jsonb_agg(jsonb_build_object('kind', d.kind, 'status', d.status, 'attempts', d.attempts, 'last_error', d.last_error)
                              order by d.created_at, d.id)
               from deliveries d where d.alert_event_id = e.id) as deliveries
       from alert_events e
      where e.project_id = $1 and ($2::uuid is null or e.alert_id = $2)
      order by e.fired_at desc, e.id desc limit $3`,
    [projectId, q.alert_id ?? null, q.limit ?? 50],
  );
  return rows.map((r) => ({
    event_id: r.id,
    alert_id: r.alert_id,
    metric: r.metric,
    condition: r.condition,
    value: r.value,
    previous: r.previous,
    p_value: r.p_value,
    window: r.window,
    ...(r.detail?.names ? { names: r.detail.names } : {}),
    deliveries: (r.deliveries ?? []).map((d) => ({ type: d.kind as 'email' | 'slack' | 'webhook', status: d.status, attempts: d.attempts, last_error: d.last_error })),
    fired_at: iso(r.fired_at),
  }));
}

/**
 * What the test endpoint sends: the rule's channels and a sample notice, marked as a test,
 * about the project's brand (plausible figures of today's window; nothing is stored).
 */
export async function alertTestSample(ctx: RequestContext, projectId: string, alertId: string): Promise<{ teamId: string; channels: ChannelInput[]; notice: AlertNotice }> {
  const rule = await loadAlert(ctx, projectId, alertId);
  const project = await requireProject(ctx, projectId);
  const today = ctx.clock.now().toISOString().slice(0, 10);
  const isNew = rule.metric === 'new_competitor' || rule.metric === 'new_cited_domain';
  return {
    teamId: project.team_id,
    channels: rule.channels,
    notice: {
      event_id: '00000000-0000-4000-8000-000000000000',
      alert_id: rule.id,
      alert_name: rule.name,
      project_id: projectId,
      brand: project.brand_name ?? project.name,
      metric: rule.metric,
      condition: rule.condition,
      threshold: rule.threshold,
      value: isNew ? 1 : 42,
      previous: isNew ? null : 55,
      p_value: isNew ? null : 0.012,
      interval: isNew ? null : [35.1, 49.2],
      window: { start_date: today, end_date: today, previous_start_date: today, previous_end_date: today, responses: 120, previous_responses: 118 },
      ...(isNew ? { names: [rule.metric === 'new_competitor' ? 'Example Brand' : 'example.org'] } : {}),
      fired_at: ctx.clock.now().toISOString(),
      url: alertsUrl(ctx, projectId),
      test: true,
    },
  };
}
