import Fastify from 'fastify';
import pg from 'pg';

// The snapshot-table yardstick for the visibility trend (issue 16): what a peer that keeps
// one precomputed row per project and day does. A minimal Fastify server (no auth, no
// schemas, no hooks, no logger) answers GET /v1/projects/:project_id/visibility with the
// same JSON as Sightline, from a `SELECT` of the window's snapshot rows, one per day (the
// day's point of every brand, precomputed), on one PostgreSQL connection. The brands'
// names and icons are read once at start. Tables: bench_snapshot_daily (project_id, day,
// points jsonb: per brand [visibility, sentiment, position, responses, visibility_ci,
// position_ci, sentiment_ci]) and bench_snapshot_brands (project_id, brands jsonb), filled
// by the analytics suite from Sightline's own 365-day answer.

const DAY_MS = 86_400_000;
const day = (t: number) => new Date(t).toISOString().slice(0, 10);

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 1 });
const brandRows = await pool.query<{ project_id: string; brands: Array<Record<string, unknown>> }>(`select project_id, brands from bench_snapshot_brands`);
const brands = new Map(brandRows.rows.map((r) => [r.project_id, r.brands]));

const app = Fastify({ logger: false });
app.get('/healthz', async () => ({ status: 'ok' }));
app.get<{ Params: { project_id: string }; Querystring: { duration_days?: string } }>('/v1/projects/:project_id/visibility', async (req, reply) => {
  const meta = brands.get(req.params.project_id);
  if (!meta) return reply.status(404).send({ detail: 'Project not found' });
  const days = Number(req.query.duration_days ?? 7);
  const to = Date.parse(`${day(Date.now())}T00:00:00Z`);
  const from = to - (days - 1) * DAY_MS;
  const { rows } = await pool.query<{ day: string; points: unknown[][] }>(
    `select to_char(day, 'YYYY-MM-DD') as day, points from bench_snapshot_daily
      where project_id = $1 and day between $2::date and $3::date order by day`,
    [req.params.project_id, day(from), day(to)],
  );
  const at = new Map(rows.map((r) => [r.day, r.points]));
  const dates = Array.from({ length: days }, (_, i) => day(from + i * DAY_MS));
  const empty = [null, null, null, 0, null, null, null]; // a day without responses, as Sightline shows it
  return {
    success: true,
    data: {
      dates,
      period: `${dates[0]} to ${dates[dates.length - 1]}`,
      series: meta.map((b, j) => {
        const col = (k: number) => dates.map((d) => (at.get(d)?.[j] ?? empty)[k]);
        // the brand's fields in the contract's order (jsonb keeps object keys in its own order)
        return { competitor_id: b.competitor_id, name: b.name, website: b.website, icon_url: b.icon_url, is_own_brand: b.is_own_brand, visibility: col(0), sentiment: col(1), position: col(2), responses: col(3), visibility_ci: col(4), position_ci: col(5), sentiment_ci: col(6) };
      }),
    },
  };
});

await app.listen({ port: Number(process.env.PORT ?? 0), host: process.env.HOST ?? '127.0.0.1' });

const stop = async () => {
  await app.close();
  await pool.end();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
