import type { Tx } from '../../store/index.js';

// The crawler-log rollups (migration 0020): crawler_hits_daily (per project, day, path and
// AI crawler: hits and the hits from the operator's published address ranges) and
// ai_referrals_daily (per project, day, path and answer engine: visits it referred), added to
// in the transaction that records an ingested log file.

/** Rows per insert statement: the aggregates of a large log are written in slices. */
const SLICE = 5_000;

/** Adds a log's bot hits (key: day, path and agent joined by tabs; value: hits, verified hits) to crawler_hits_daily. */
export async function addBotHits(tx: Tx, projectId: string, bots: Map<string, [number, number]>): Promise<void> {
  const entries = [...bots];
  for (let i = 0; i < entries.length; i += SLICE) {
    const slice = entries.slice(i, i + SLICE).map(([k, v]) => [...k.split('\t'), v[0], v[1]] as [string, string, string, number, number]);
    await tx.query(
      `insert into crawler_hits_daily (project_id, day, path, agent, hits, verified_hits)
       select $1, * from unnest($2::date[], $3::text[], $4::text[], $5::int[], $6::int[])
       on conflict (project_id, day, path, agent) do update
         set hits = crawler_hits_daily.hits + excluded.hits, verified_hits = crawler_hits_daily.verified_hits + excluded.verified_hits`,
      [projectId, slice.map((r) => r[0]), slice.map((r) => r[1]), slice.map((r) => r[2]), slice.map((r) => r[3]), slice.map((r) => r[4])],
    );
  }
}

/** Adds a log's AI referrals (key: day, path and engine joined by tabs; value: visits) to ai_referrals_daily. */
export async function addReferrals(tx: Tx, projectId: string, referrals: Map<string, number>): Promise<void> {
  const entries = [...referrals];
  for (let i = 0; i < entries.length; i += SLICE) {
    const slice = entries.slice(i, i + SLICE).map(([k, n]) => [...k.split('\t'), n] as [string, string, string, number]);
    await tx.query(
      `insert into ai_referrals_daily (project_id, day, path, engine, visits)
       select $1, * from unnest($2::date[], $3::text[], $4::text[], $5::int[])
       on conflict (project_id, day, path, engine) do update set visits = ai_referrals_daily.visits + excluded.visits`,
      [projectId, slice.map((r) => r[0]), slice.map((r) => r[1]), slice.map((r) => r[2]), slice.map((r) => r[3])],
    );
  }
}

/** Per path and crawler, its hits and verified hits over a window. */
export async function crawlerHits(tx: Tx, projectId: string, from: string, to: string): Promise<Array<{ path: string; agent: string; hits: number; verified: number }>> {
  const { rows } = await tx.query<{ path: string; agent: string; hits: number; verified: number }>(
    `select path, agent, sum(hits)::int as hits, sum(verified_hits)::int as verified
       from crawler_hits_daily where project_id = $1 and day between $2::date and $3::date
      group by path, agent`,
    [projectId, from, to],
  );
  return rows;
}

/** Per path and answer engine, the visits it referred over a window. */
export async function aiReferrals(tx: Tx, projectId: string, from: string, to: string): Promise<Array<{ path: string; engine: string; visits: number }>> {
  const { rows } = await tx.query<{ path: string; engine: string; visits: number }>(
    `select path, engine, sum(visits)::int as visits
       from ai_referrals_daily where project_id = $1 and day between $2::date and $3::date
      group by path, engine`,
    [projectId, from, to],
  );
  return rows;
}
