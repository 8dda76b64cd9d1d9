// Migration 0028 partitions the answers by month. This stores answers of three months,
// turns the store back into the 0027 format (one plain table), and starts again: every
// analytics body byte for byte as before, each answer in its month's partition, the
// analytics triggers still on the table. Then the first answers of a new month, from two
// transactions at once: one partition made, both answers stored.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { seedProject } from '../src/collection/seed.js';
import { ensureMonthPartitions, storeAnswers } from '../src/modules/answers/store-answers.js';
import { createAnalyzer } from '../src/analysis/index.js';
import { decodeAnswerBody, encodeAnswerBody } from '../src/modules/answers/answer-body.js';
import { PROVIDERS } from '../src/ports/providers/types.js';
import { client, startRestartableTestApp, type TestApp } from './helpers.js';
import { expectConsistentRollups } from './rollup-invariants.js';
import { bodiesOf, undoThrough } from './undo-migrations.js';

let t: TestApp;
beforeAll(async () => {
  t = await startRestartableTestApp({ role: 'api' });
});
afterAll(async () => t?.stop());

const WINDOW = 'date_from=2025-03-01&date_to=2025-05-20';
let seeded: { projectId: string; apiKey: string };

it('a store of the 0027 format migrates to monthly partitions: every body the same, rows in their months', async () => {
  seeded = await seedProject(t.runtime.ctx, { prompts: 2, providers: [...PROVIDERS], days: 80, competitors: 3, endDay: '2025-05-20' });
  const paths = ['competitors', 'visibility', 'overview', 'prompts', 'sources/analytics', 'chats?page_size=50'].map((p) => `/projects/${seeded.projectId}/${p}${p.includes('?') ? '&' : '?'}${WINDOW}`);
  const before = await bodiesOf(client(t.app, seeded.apiKey), paths);
  const rowsBefore = await t.runtime.ctx.store.query(`select * from responses order by id`);

  await undoThrough(t.runtime.ctx.store, '0028_responses_partitions');
  const plain = await t.runtime.ctx.store.query<{ relkind: string }>(`select relkind from pg_class where relname = 'responses'`);
  expect(plain.rows[0].relkind).toBe('r');
  await t.restart();
  const store = t.runtime.ctx.store;

  const kind = await store.query<{ relkind: string }>(`select relkind from pg_class where relname = 'responses'`);
  expect(kind.rows[0].relkind).toBe('p');
  expect((await store.query(`select * from responses order by id`)).rows).toEqual(rowsBefore.rows);
  const placed = await store.query<{ part: string; first: string; last: string }>(
    `select tableoid::regclass::text as part, to_char(min(day), 'YYYY-MM-DD') as first, to_char(max(day), 'YYYY-MM-DD') as last
       from responses group by 1 order by 1`,
  );
  expect(placed.rows.map((r) => r.part)).toEqual(['responses_p202503', 'responses_p202504', 'responses_p202505']);
  for (const r of placed.rows) {
    expect(r.first.slice(0, 7).replace('-', '')).toBe(r.part.slice(-6));
    expect(r.last.slice(0, 7).replace('-', '')).toBe(r.part.slice(-6));
  }
  expect(await bodiesOf(client(t.app, seeded.apiKey), paths)).toEqual(before);
  await expectConsistentRollups(store, seeded.projectId);

  // every index, key and trigger of the plain table, on the partitioned one
  const indexes = await store.query<{ indexname: string }>(`select indexname from pg_indexes where tablename = 'responses' order by 1`);
  expect(indexes.rows.map((r) => r.indexname)).toEqual([
    'responses_pkey',
    'responses_plain_body_idx',
    'responses_project_day_idx',
    'responses_prompt_provider_day_sample_key',
  ]);
  const keys = await store.query<{ def: string }>(
    `select pg_get_constraintdef(oid) as def from pg_constraint where conrelid = 'responses'::regclass and contype in ('p', 'f') order by 1`,
  );
  expect(keys.rows.map((r) => r.def)).toEqual([
    'FOREIGN KEY (project_id) REFERENCES projects(id) ON DELETE CASCADE',
    'FOREIGN KEY (prompt_id) REFERENCES prompts(id) ON DELETE CASCADE',
    'PRIMARY KEY (id, day)',
  ]);
  const triggers = await store.query<{ tgname: string }>(`select tgname from pg_trigger where tgrelid = 'responses'::regclass and not tgisinternal order by 1`);
  expect(triggers.rows.map((r) => r.tgname)).toEqual(['responses_deleted', 'responses_inserted', 'responses_updated']);
});

it('the first answers of a new month, from two transactions at once: one partition, both stored, the version raised', async () => {
  const store = t.runtime.ctx.store;
  const { rows: prompts } = await store.query<{ id: string }>(`select id from prompts where project_id = $1 order by id`, [seeded.projectId]);
  const version = async () => (await store.query<{ v: string }>(`select version::text as v from analytics_versions where project_id = $1`, [seeded.projectId])).rows[0]?.v;
  const versionBefore = await version();
  const body = encodeAnswerBody({ text: 'answer', references: [], searchQueries: [], raw: null }).toString('base64');
  let made!: () => void;
  const aMade = new Promise<void>((resolve) => {
    made = resolve;
  });
  const insert = (tx: { query: (sql: string, params: unknown[]) => Promise<unknown> }, promptId: string) =>
    tx.query(
      `insert into responses (project_id, prompt_id, provider, day, market, model, simulated, body, mentioned, cites_own, citation_count)
       values ($1, $2, 'openai', '2031-03-05', 'US-en', 'm', true, decode($3, 'base64'), false, false, 0)`,
      [seeded.projectId, promptId, body],
    );
  const a = store.tx(async (tx) => {
    await ensureMonthPartitions(tx, ['2031-03-05']);
    made();
    await new Promise((resolve) => setTimeout(resolve, 300)); // B asks for the month meanwhile
    await insert(tx, prompts[0].id);
  });
  const b = (async () => {
    await aMade;
    await store.tx(async (tx) => {
      await ensureMonthPartitions(tx, ['2031-03-17']);
      await insert(tx, prompts[1].id);
    });
  })();
  await Promise.all([a, b]);
  const parts = await store.query<{ part: string; n: number }>(
    `select tableoid::regclass::text as part, count(*)::int as n from responses where day >= '2031-01-01' group by 1`,
  );
  expect(parts.rows).toEqual([{ part: 'responses_p203103', n: 2 }]);
  expect(await version()).not.toBe(versionBefore);
  // a month without its partition is refused, as the write path never leaves it
  await expect(
    store.query(
      `insert into responses (project_id, prompt_id, provider, day, market, model, simulated, body, mentioned, cites_own, citation_count)
       values ($1, $2, 'openai', '2032-07-01', 'US-en', 'm', true, decode($3, 'base64'), false, false, 0)`,
      [seeded.projectId, prompts[0].id, body],
    ),
  ).rejects.toThrow(/no partition/);
});

it('known months skip the lookup; a month dropped by another process is looked up again after the refused batch', async () => {
  const store = t.runtime.ctx.store;
  const { rows: prompts } = await store.query<{ id: string }>(`select id from prompts where project_id = $1 order by id`, [seeded.projectId]);
  const analyse = createAnalyzer([{ id: '00000000-0000-0000-0000-000000000000', name: 'Acme CRM', domain: 'acmecrm.com', aliases: [], isOwn: true }]);
  const answer = (day: string) => ({
    promptId: prompts[0].id,
    provider: 'chatgpt',
    day,
    market: 'US-en',
    answer: { provider: 'chatgpt' as const, model: 'm', text: 'Acme CRM is fine.', references: [], raw: null, simulated: true },
    analysis: analyse('Acme CRM is fine.', []),
  });
  // made in this transaction: not remembered (it could roll back); found committed: remembered
  await store.tx((tx) => storeAnswers(tx, seeded.projectId, [answer('2033-02-03')]));
  expect(store.answerMonths?.has('2033-02-01')).toBe(false);
  // a batch of several: each body cut from the one bytea parameter is its own
  const other = { ...answer('2033-02-04'), provider: 'claude', answer: { ...answer('2033-02-04').answer, text: 'Another answer, longer than the first one.' } };
  await store.tx((tx) => storeAnswers(tx, seeded.projectId, [answer('2033-02-04'), other]));
  expect(store.answerMonths?.has('2033-02-01')).toBe(true);
  const bodies = await store.query<{ provider: string; body: Uint8Array }>(`select provider, body from responses where day = '2033-02-04' order by provider`);
  expect(bodies.rows.map((r) => [r.provider, decodeAnswerBody(r.body, [], r.provider).text])).toEqual([
    ['chatgpt', 'Acme CRM is fine.'],
    ['claude', 'Another answer, longer than the first one.'],
  ]);
  // another process drops the month (its retention job): this one still believes it there
  await store.query(`drop table responses_p203302`);
  await expect(store.tx((tx) => storeAnswers(tx, seeded.projectId, [answer('2033-02-05')]))).rejects.toThrow(/no partition/);
  expect(store.answerMonths?.size).toBe(0);
  // the retried batch looks it up again and makes the partition
  const stored = await store.tx((tx) => storeAnswers(tx, seeded.projectId, [answer('2033-02-05')]));
  expect(stored).toHaveLength(1);
  const part = await store.query<{ part: string }>(`select tableoid::regclass::text as part from responses where day = '2033-02-05'`);
  expect(part.rows).toEqual([{ part: 'responses_p203302' }]);
});

