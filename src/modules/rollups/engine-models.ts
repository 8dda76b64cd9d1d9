import type { Tx } from '../../store/index.js';

/** A day on which an engine answered with another model than on its previous day with answers. */
export interface ModelChange {
  provider: string;
  /** The first day (UTC) with the new model. */
  day: string;
  /** The model of the engine's previous day with answers. */
  fromModel: string;
  toModel: string;
}

/**
 * Counts stored answers into engine_model_daily (one row per project, engine, day and
 * model), in the caller's transaction: the record of which model each engine answered with.
 */
export async function addEngineModels(tx: Tx, projectId: string, answers: Array<{ provider: string; day: string; model: string }>): Promise<void> {
  if (answers.length === 0) return;
  const counts = new Map<string, { provider: string; day: string; model: string; answers: number }>();
  for (const answer of answers) {
    const key = `${answer.provider}|${answer.day}|${answer.model}`;
    const row = counts.get(key);
    if (row) row.answers += 1;
    else counts.set(key, { ...answer, answers: 1 });
  }
  // in one order everywhere: two batches of the same day never wait on each other's rows crosswise
  const rows = [...counts.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
  await tx.query(
    `insert into engine_model_daily (project_id, provider, day, model, answers)
     select $1, provider, day::date, model, answers from unnest($2::text[], $3::text[], $4::text[], $5::int[]) as u(provider, day, model, answers)
     on conflict (project_id, provider, day, model) do update set answers = engine_model_daily.answers + excluded.answers`,
    [projectId, rows.map((r) => r.provider), rows.map((r) => r.day), rows.map((r) => r.model), rows.map((r) => r.answers)],
  );
}

/** Takes a deleted prompt's answers out of engine_model_daily (before they are deleted). */
export async function removePromptEngineModels(tx: Tx, projectId: string, promptId: string): Promise<void> {
  await tx.query(
    `with gone as (select provider, day, model, count(*)::int as answers from responses where prompt_id = $2 group by 1, 2, 3)
     update engine_model_daily e set answers = e.answers - g.answers
       from gone g where e.project_id = $1 and e.provider = g.provider and e.day = g.day and e.model = g.model`,
    [projectId, promptId],
  );
  await tx.query(`delete from engine_model_daily where project_id = $1 and answers <= 0`, [projectId]);
}

/**
 * The days in [from, to] on which an engine's model changed: its model of the day (the one
 * that gave most of the day's answers, the alphabetically first on a tie) differs from its
 * model on its previous day with answers, that day possibly before the window. Engines
 * limited to `providers` when given. Oldest first, then by engine.
 */
export async function modelChanges(tx: Tx, projectId: string, from: string, to: string, providers?: string[]): Promise<ModelChange[]> {
  const { rows } = await tx.query<{ provider: string; day: string; model: string }>(
    `with prior as (
       select distinct on (provider) provider, day
         from engine_model_daily
        where project_id = $1 and day < $2::date and ($4::text[] is null or provider = any($4::text[]))
        order by provider, day desc),
     days as (
       select distinct on (e.provider, e.day) e.provider, e.day, e.model
         from engine_model_daily e left join prior p on p.provider = e.provider
        where e.project_id = $1 and e.day >= coalesce(p.day, $2::date) and e.day <= $3::date
          and ($4::text[] is null or e.provider = any($4::text[]))
        order by e.provider, e.day, e.answers desc, e.model)
     select provider, to_char(day, 'YYYY-MM-DD') as day, model from days order by provider, day`,
    [projectId, from, to, providers?.length ? providers : null],
  );
  const changes: ModelChange[] = [];
  for (let i = 1; i < rows.length; i++) {
    const before = rows[i - 1];
    const row = rows[i];
    if (row.provider === before.provider && row.model !== before.model && row.day >= from) {
      changes.push({ provider: row.provider, day: row.day, fromModel: before.model, toModel: row.model });
    }
  }
  return changes.sort((a, b) => a.day.localeCompare(b.day) || a.provider.localeCompare(b.provider));
}
