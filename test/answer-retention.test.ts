// RETENTION_MONTHS: the daily job drops the month partitions of the answers wholly before
// the first retained day. Every figure (rollups) over any window stays byte for byte; the
// reads of raw answers over a window reaching past it name the first retained day; a
// re-analysis that would lose figures is refused.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { seedProject } from '../src/collection/seed.js';
import { reanalyseProject } from '../src/collection/reanalyse.js';
import { answerMonths, dropPastRetention, firstRetainedDay } from '../src/modules/answers/retention.js';
import { utcDay } from '../src/lib/time.js';
import { PROVIDERS } from '../src/ports/providers/types.js';
import { client, startTestApp, type TestApp } from './helpers.js';
import { bodiesOf } from './undo-migrations.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ role: 'api', retentionMonths: 2 });
});
afterAll(async () => t?.stop());

it('the first retained day is the 1st of the month N months back', () => {
  expect(firstRetainedDay(0, new Date('2026-11-27T10:00:00Z'))).toBeNull();
  expect(firstRetainedDay(2, new Date('2026-11-27T10:00:00Z'))).toBe('2026-09-01');
  expect(firstRetainedDay(13, new Date('2026-01-31T23:59:59Z'))).toBe('2024-12-01');
});

it('drops the months past the retention: partitions gone, figures unchanged, chats say so, re-analysis refused', async () => {
  const today = utcDay();
  const first = firstRetainedDay(2, t.runtime.ctx.clock.now()) as string;
  const seeded = await seedProject(t.runtime.ctx, { prompts: 2, providers: [...PROVIDERS], days: 120, competitors: 2, endDay: today });
  const store = t.runtime.ctx.store;
  const from = (await store.query<{ d: string }>(`select to_char(min(day), 'YYYY-MM-DD') as d from responses where project_id = $1`, [seeded.projectId])).rows[0].d;
  expect(from < first).toBe(true);
  const window = `date_from=${from}&date_to=${today}`;
  const figures = ['competitors', 'visibility', 'overview', 'prompts', 'sources/analytics'].map((p) => `/projects/${seeded.projectId}/${p}?${window}`);
  const api = client(t.app, seeded.apiKey);
  const before = await bodiesOf(api, figures);
  const sums = async () =>
    (await store.query(`select provider, to_char(day, 'YYYY-MM-DD') as day, responses, mentioned from project_daily where project_id = $1 order by 1, 2`, [seeded.projectId])).rows;
  const sumsBefore = await sums();
  const oldMonths = (await answerMonths(store)).filter((m) => m.month < first).map((m) => m.month.slice(0, 7));
  expect(oldMonths.length).toBeGreaterThan(0);

  const version = async () => (await store.query<{ v: string }>(`select version::text as v from analytics_versions where project_id = $1`, [seeded.projectId])).rows[0].v;
  const versionBefore = await version();
  const dropped = await dropPastRetention(t.runtime.ctx);
  expect(await version()).not.toBe(versionBefore); // no cached read of the dropped answers outlives them
  expect(dropped).toEqual(oldMonths);
  expect((await answerMonths(store)).every((m) => m.month >= first)).toBe(true);
  for (const month of dropped) {
    const gone = await store.query<{ r: string | null }>(`select to_regclass($1)::text as r`, [`responses_p${month.replace('-', '')}`]);
    expect(gone.rows[0].r).toBeNull();
  }
  expect((await store.query<{ n: number }>(`select count(*)::int as n from responses where day < $1::date`, [first])).rows[0].n).toBe(0);
  expect(await dropPastRetention(t.runtime.ctx)).toEqual([]);
  // the writers of this process forget the dropped months (they were known: seeded here)
  for (const month of dropped) expect(store.answerMonths?.has(`${month}-01`)).toBe(false);
  expect(store.answerMonths?.has(`${today.slice(0, 7)}-01`)).toBe(true);

  // every figure as before: the rollups are not touched
  expect(await sums()).toEqual(sumsBefore);
  expect(await bodiesOf(api, figures)).toEqual(before);

  // a read of answers over a window reaching past the retention names the first retained day
  const chats = await api.get(`/projects/${seeded.projectId}/chats?${window}`);
  expect(chats.statusCode).toBe(200);
  expect(chats.headers['x-retained-from']).toBe(first);
  const { rows: prompts } = await store.query<{ id: string }>(`select id from prompts where project_id = $1 limit 1`, [seeded.projectId]);
  for (const path of ['chats', 'domains', 'urls', 'search-queries']) {
    const res = await api.get(`/projects/${seeded.projectId}/prompts/${prompts[0].id}/${path}?${window}`);
    expect(res.statusCode, path).toBe(200);
    expect(res.headers['x-retained-from'], path).toBe(first);
  }
  const recent = await api.get(`/projects/${seeded.projectId}/chats?date_from=${first}&date_to=${today}`);
  expect(recent.statusCode).toBe(200);
  expect(recent.headers['x-retained-from']).toBeUndefined();

  // re-analysis would empty the dropped months' figures: refused, the figures kept
  await expect(reanalyseProject(t.runtime.ctx, seeded.projectId)).rejects.toThrow(/RETENTION_MONTHS/);
  expect(await sums()).toEqual(sumsBefore);
});
