import type { ServiceContext } from '../../context.js';
import { loadProjectWithPlan, type ProjectWithPlan } from '../projects/project-row.js';
import { systemContext } from '../projects/system-caller.js';
import { decideFigure, decideNewThings, type Decision } from './decide.js';
import { FigureReader } from './figures.js';
import type { AlertNotice } from './messages.js';
import { enqueueAlertDeliveries } from './notify.js';
import { ALERT_COLUMNS, type AlertRow } from './service.js';
import { NEW_THING_METRICS } from './schema.js';

export interface EvaluationResult {
  evaluated: number;
  fired: number;
  unmeasured: number;
}

export const alertsUrl = (ctx: ServiceContext, projectId: string) => `${ctx.config.publicUrl}/projects/${projectId}/alerts`;

/**
 * Evaluates a project's active rules on the windows ending on `day` (the day of the
 * collection run just finished). A rule fires when its condition holds and did not at its
 * last measured evaluation; an unmeasured window changes nothing. Each fired event is
 * written with its deliveries and the rule's new state in one transaction; `runId` makes a
 * second evaluation of the same run (a retried job) fire nothing twice.
 */
export async function evaluateProjectAlerts(ctx: ServiceContext, input: { projectId: string; day: string; runId?: string | null }): Promise<EvaluationResult> {
  const result: EvaluationResult = { evaluated: 0, fired: 0, unmeasured: 0 };
  const { rows: rules } = await ctx.store.query<AlertRow>(
    `select ${ALERT_COLUMNS} from alert_rules where project_id = $1 and is_active order by created_at, id`,
    [input.projectId],
  );
  if (!rules.length) return result;
  const project = await loadProjectWithPlan(ctx.store, input.projectId);
  if (!project) return result;
  const reader = new FigureReader(ctx, project, input.day);
  const rctx = systemContext(ctx, project);
  const decisions = await Promise.all(
    rules.map(async (rule) => ({ rule, d: NEW_THING_METRICS.includes(rule.metric) ? await decideNewThings(rctx, rule, reader) : await decideFigure(rule, reader) })),
  );
  result.evaluated = rules.length;
  result.unmeasured = decisions.filter((x) => x.d.holds === null).length;
  // The rules that do not fire: their states in one statement.
  const quiet = decisions.filter((x) => !x.d.fire);
  if (quiet.length) {
    await ctx.store.query(
      `update alert_rules r set state = x.state, evaluated_at = now()
         from jsonb_to_recordset($1::jsonb) as x(id uuid, state jsonb)
        where r.id = x.id`,
      [JSON.stringify(quiet.map((x) => ({ id: x.rule.id, state: x.d.state })))],
    );
  }
  for (const { rule, d } of decisions.filter((x) => x.d.fire)) {
    if (await fire(ctx, project, rule, d, input.runId ?? null)) result.fired += 1;
  }
  return result;
}

async function fire(ctx: ServiceContext, project: ProjectWithPlan, rule: AlertRow, d: Decision, runId: string | null): Promise<boolean> {
  return ctx.store.tx(async (tx) => {
    // Guarded on the state read: a concurrent evaluation that fired first wins, once.
    const moved = await tx.query(
      `update alert_rules set state = $2::jsonb, evaluated_at = now() where id = $1 and state is not distinct from $3::jsonb`,
      [rule.id, JSON.stringify(d.state), rule.state === null ? null : JSON.stringify(rule.state)],
    );
    if (!moved.rowCount) return false;
    const { rows } = await tx.query<{ id: string; fired_at: Date }>(
      `insert into alert_events (alert_id, project_id, team_id, run_id, metric, condition, value, previous, p_value, "window", detail)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb, $11::jsonb)
       on conflict (alert_id, run_id) do nothing returning id, fired_at`,
      [rule.id, project.id, project.team_id, runId, rule.metric, rule.condition, d.value, d.previous, d.pValue, JSON.stringify(d.window), JSON.stringify({ names: d.names ?? null, interval: d.interval })],
    );
    if (!rows[0]) return false;
    const notice: AlertNotice = {
      event_id: rows[0].id,
      alert_id: rule.id,
      alert_name: rule.name,
      project_id: project.id,
      brand: project.brand_name ?? project.name,
      metric: rule.metric,
      condition: rule.condition,
      threshold: rule.threshold,
      value: d.value,
      previous: d.previous,
      p_value: d.pValue,
      interval: d.interval,
      window: d.window,
      ...(d.names ? { names: d.names } : {}),
      fired_at: rows[0].fired_at.toISOString(),
      url: alertsUrl(ctx, project.id),
    };
    await enqueueAlertDeliveries(ctx, tx, project.team_id, rule.channels, notice);
    return true;
  });
}
