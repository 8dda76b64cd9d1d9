import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerOf, fixtureProject, OWN, type FixtureProject } from './analytics-fixture.js';
import { createAccount, STORE, startTestApp, until, type TestApp } from './helpers.js';
import { settleCredits } from '../src/collection/credits.js';
import { storeAnswers } from '../src/modules/answers/store-answers.js';
import { activePromptQuota } from '../src/modules/prompts/service.js';
import type { Tx } from '../src/store/index.js';

// Prompts written while a collection stores an answer of the same project, on
// PostgreSQL, where transactions run side by side. Storing an answer takes the project
// (key share), the analytics version, then the team (the credit spent). A prompt written
// under the quota's lock used to take the team first and the version after (its insert's
// trigger): each waited for the other, and the server aborted one, a 500 to the user or a
// lost answer. Here the collection's transaction is held open between the two, the
// prompt's request is sent and seen waiting, then the collection finishes: both must
// succeed. docs/architecture.md, "Lock order".
//
// The embedded store runs one transaction at a time: nothing to interleave there.

let t: TestApp;
let f: FixtureProject;
let teamId: string;

beforeAll(async () => {
  if (STORE !== 'postgres') return;
  t = await startTestApp({ role: 'api' });
  const account = await createAccount(t.app);
  teamId = account.teamId;
  f = await fixtureProject(t, { brand: 'Globex', url: 'https://globex.com', prompts: ['Which CRM should I pick?'], account });
});
afterAll(async () => {
  await t?.stop();
});

/** Backends of this database waiting for a lock (the request's transaction, once blocked). */
async function waitingOnLocks(): Promise<number> {
  const { rows } = await t.runtime.ctx.store.query<{ n: number }>(
    `select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
  );
  return rows[0].n;
}

/**
 * Runs `held` in a transaction that stops where it calls `pause()`, keeping the locks it has
 * taken; then starts `write`, and once a backend of this database is seen waiting for a lock
 * (the write, blocked), lets `held` go on and commit. Both results.
 */
async function interleave<H, W>(held: (tx: Tx, pause: () => Promise<void>) => Promise<H>, write: () => Promise<W>): Promise<[H, W]> {
  let paused!: () => void;
  let release!: () => void;
  const pausing = new Promise<void>((resolve) => (paused = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  const holding = t.runtime.ctx.store.tx((tx) =>
    held(tx, () => {
      paused();
      return released;
    }),
  );
  await Promise.race([pausing, holding]); // a failure before the pause is reported, not waited on
  const writing = write();
  try {
    await until(async () => (await waitingOnLocks()) > 0, 10_000, 20);
  } finally {
    release();
  }
  return Promise.all([holding, writing]);
}

/**
 * Runs `write` while a collection's transaction holds the locks of an answer stored (the
 * project shared, the version raised) and has not yet spent its credit; lets it spend and
 * commit once the write is seen waiting. Returns the write's response.
 */
async function whileCollectionHoldsAnswer<T>(day: string, write: () => Promise<T>): Promise<T> {
  // the month's first credit spent is the one that shares the team row (its usage row
  // inserted, the foreign key checked); later ones update that row without the check
  await t.runtime.ctx.store.query(`delete from credit_usage where team_id = $1`, [teamId]);
  const [storedCount, response] = await interleave(async (tx, pause) => {
    const stored = await storeAnswers(tx, f.projectId, [answerOf({ prompt: f.promptIds[0], provider: 'chatgpt', day, named: { [OWN]: [1, 1, 50] } }, 'globex.com')]);
    await pause();
    await settleCredits(tx, teamId, [], stored.length);
    return stored.length;
  }, write);
  expect(storedCount).toBe(1);
  return response;
}

describe.skipIf(STORE !== 'postgres')('lock order: prompts written while a collection stores answers', () => {
  it('new prompts wait for the answer being stored, then are created (no deadlock)', async () => {
    const res = await whileCollectionHoldsAnswer('2026-10-01', () => f.api.post(`/projects/${f.projectId}/prompts`, { prompts: ['Best CRM for a small team?'], topicId: f.topicId }));
    expect(res.statusCode, res.body).toBe(200);
    const { rows } = await t.runtime.ctx.store.query<{ n: number }>(`select count(*)::int as n from responses where project_id = $1`, [f.projectId]);
    expect(rows[0].n).toBe(1);
  });

  it('a prompt made active again (the quota checked) waits, then is updated', async () => {
    const made = await f.api.post(`/projects/${f.projectId}/prompts`, { prompts: ['Is Globex worth it?'], topicId: f.topicId });
    expect(made.statusCode, made.body).toBe(200);
    const promptId = made.json().data.prompts[0].id as string;
    const paused = await f.api.patch(`/projects/${f.projectId}/prompts/${promptId}`, { promptType: 'Inactive' });
    expect(paused.statusCode, paused.body).toBe(200);
    const res = await whileCollectionHoldsAnswer('2026-10-02', () => f.api.patch(`/projects/${f.projectId}/prompts/${promptId}`, { promptType: 'Active' }));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.prompt_type).toBe('active');
  });

  it('the first prompt in several markets (market totals begun) waits, then is created', async () => {
    const res = await whileCollectionHoldsAnswer('2026-10-03', () =>
      f.api.post(`/projects/${f.projectId}/prompts`, {
        prompts: ['Which CRM do agencies use?'],
        topicId: f.topicId,
        markets: [
          { country: 'US', language: 'en' },
          { country: 'DE', language: 'de' },
        ],
      }),
    );
    expect(res.statusCode, res.body).toBe(200);
    const { rows } = await t.runtime.ctx.store.query<{ market_totals: boolean }>(`select market_totals from projects where id = $1`, [f.projectId]);
    expect(rows[0].market_totals).toBe(true);
  });

  it('a topic deleted (its prompts moved) while a prompt is being added to it: the delete waits, then moves it too', async () => {
    const made = await f.api.post(`/projects/${f.projectId}/topics`, { name: 'Pricing' });
    expect(made.statusCode, made.body).toBe(201);
    const topicId = made.json().data.topic_id as string;
    // a prompt's transaction between the quota (project, version, team locked) and its insert
    const [, res] = await interleave(
      async (tx, pause) => {
        await activePromptQuota(tx, teamId, f.projectId);
        await pause();
        await tx.query(
          `insert into prompts (project_id, team_id, topic_id, content, content_key, prompt_type) values ($1, $2, $3, 'How much is Globex?', 'how much is globex?', 'active')`,
          [f.projectId, teamId, topicId],
        );
      },
      () => f.api.delete(`/projects/${f.projectId}/topics/${topicId}?move_to=${f.topicId}`),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.moved_prompts).toBe(1);
  });
});
