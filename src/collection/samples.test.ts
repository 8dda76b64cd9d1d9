import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, createAccount, errorBody, setTeam, startTestApp, type Account, type TestApp } from '../../test/helpers.js';
import { stableUuid } from '../lib/crypto.js';
import { creditState } from './credits.js';
import { runRefresh } from './refresh.js';
import { expectConsistentRollups } from '../../test/rollup-invariants.js';

// Repeated samples (issue "Numbers you can trust", section 1): a project asks each prompt of
// each provider samples_per_run times a run; each sample is one response and one credit.

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ providersMode: 'simulated', role: 'api' });
});
afterAll(async () => t?.stop());

const PROVIDERS = ['chatgpt', 'perplexity', 'google_ai_overview', 'gemini', 'claude'];

/** A completed project of `plan` with `n` active prompts, made straight in the store (no bootstrap). */
async function projectWithPrompts(plan: string, n: number): Promise<{ acct: Account; projectId: string }> {
  const acct = await createAccount(t.app);
  await setTeam(t, acct.teamId, { plan });
  const { store } = t.runtime.ctx;
  const p = await store.query<{ id: string }>(
    `insert into projects (team_id, name, brand_name, website_url, domain, status)
     values ($1, 'Acme CRM', 'Acme CRM', 'https://acmecrm.com/', 'acmecrm.com', 'completed') returning id`,
    [acct.teamId],
  );
  for (let i = 0; i < n; i++) {
    await store.query(`insert into prompts (project_id, team_id, content, content_key) values ($1, $2, $3, $3)`, [
      p.rows[0].id,
      acct.teamId,
      `which crm is best for a team of ${i + 2}`,
    ]);
  }
  return { acct, projectId: p.rows[0].id };
}

const refresh = (projectId: string, day: string) =>
  runRefresh(t.runtime.ctx, { projectId, day, runId: stableUuid('samples-test', projectId, day), kind: 'manual' });

const count = async (sql: string, params: unknown[]) => (await t.runtime.ctx.store.query<{ n: number }>(sql, params)).rows[0].n;

describe('PATCH /projects/{id} samples_per_run', () => {
  it('is 1 by default and shown by GET', async () => {
    const { acct, projectId } = await projectWithPrompts('skip_trial', 0);
    const res = await client(t.app, acct.key).get(`/projects/${projectId}`);
    expect(res.json().data.samples_per_run).toBe(1);
  });

  it.each([
    ['skip_trial', 2, 1],
    ['basic', 3, 2],
    ['pro', 4, 3],
  ])('on %s, %i is a 400 naming the plan limit', async (plan, asked, max) => {
    const { acct, projectId } = await projectWithPrompts(plan, 0);
    const res = await client(t.app, acct.key).patch(`/projects/${projectId}`, { samples_per_run: asked });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(errorBody(`samples_per_run must be at most ${max} on the ${plan} plan`, 'invalid_request'));
    expect((await client(t.app, acct.key).get(`/projects/${projectId}`)).json().data.samples_per_run).toBe(1);
  });

  it.each([0, 6, 2.5, '3', null])('%j is a 400 naming the field', async (value) => {
    const { acct, projectId } = await projectWithPrompts('enterprise', 0);
    const res = await client(t.app, acct.key).patch(`/projects/${projectId}`, { samples_per_run: value });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toMatch(/^samples_per_run /);
  });

  it('up to the plan maximum is accepted; the same value again changes nothing (400)', async () => {
    const { acct, projectId } = await projectWithPrompts('enterprise', 0);
    const api = client(t.app, acct.key);
    const res = await api.patch(`/projects/${projectId}`, { samples_per_run: 5 });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.samples_per_run).toBe(5);
    expect((await api.get(`/projects/${projectId}`)).json().data.samples_per_run).toBe(5);
    expect((await api.patch(`/projects/${projectId}`, { samples_per_run: 5 })).statusCode).toBe(400);
  });
});

describe('a run with samples_per_run', () => {
  it('on enterprise with 3 samples stores 3 responses per prompt, provider and day, charged 3 credits; a repeated run stores none', async () => {
    const { acct, projectId } = await projectWithPrompts('enterprise', 2);
    expect((await client(t.app, acct.key).patch(`/projects/${projectId}`, { samples_per_run: 3 })).statusCode).toBe(200);
    const day = '2026-11-20';
    const first = await refresh(projectId, day);
    expect(first).toMatchObject({ planned: 2 * 5 * 3, stored: 2 * 5 * 3, failed: 0, skippedNoCredits: 0 });
    const perKey = await t.runtime.ctx.store.query<{ n: number; samples: number[] }>(
      `select count(*)::int as n, array_agg(sample order by sample) as samples from responses
        where project_id = $1 and day = $2 group by prompt_id, provider`,
      [projectId, day],
    );
    expect(perKey.rows).toHaveLength(2 * 5);
    for (const r of perKey.rows) expect(r).toEqual({ n: 3, samples: [1, 2, 3] });
    expect(await creditState(t.runtime.ctx.store, acct.teamId)).toMatchObject({ used: 30, held: 0 });

    const again = await refresh(projectId, day);
    expect(again).toMatchObject({ stored: 0, alreadyStored: 30 });
    expect(await count(`select count(*)::int as n from responses where project_id = $1`, [projectId])).toBe(30);
    expect(await creditState(t.runtime.ctx.store, acct.teamId)).toMatchObject({ used: 30, held: 0 });
    await expectConsistentRollups(t.runtime.ctx.store, projectId);
  });

  it('samples are separate answers: counted in volume and responses, listed with their index in chats', async () => {
    const { acct, projectId } = await projectWithPrompts('pro', 1);
    const api = client(t.app, acct.key);
    expect((await api.patch(`/projects/${projectId}`, { samples_per_run: 3 })).statusCode).toBe(200);
    const day = new Date().toISOString().slice(0, 10);
    await refresh(projectId, day);
    const prompt = (await api.get(`/projects/${projectId}/prompts?duration_days=7`)).json().data.prompts[0];
    expect(prompt.volume).toBe(5 * 3);
    expect(prompt.responses).toBe(5 * 3);
    const chats = (await api.get(`/projects/${projectId}/prompts/${prompt.id}/chats?duration_days=7&providers=chatgpt`)).json().data.items;
    expect(chats.map((c: { sample: number }) => c.sample).sort()).toEqual([1, 2, 3]);
    // The simulated engine answers each sample afresh, as a real one would.
    expect(new Set(chats.map((c: { full_content: string }) => c.full_content)).size).toBe(3);
  });

  it('asks no more samples than the plan in force allows (a team moved to a smaller plan)', async () => {
    const { acct, projectId } = await projectWithPrompts('pro', 1);
    expect((await client(t.app, acct.key).patch(`/projects/${projectId}`, { samples_per_run: 3 })).statusCode).toBe(200);
    await setTeam(t, acct.teamId, { plan: 'basic' });
    const tally = await refresh(projectId, '2026-11-21');
    expect(tally).toMatchObject({ planned: 5 * 2, stored: 5 * 2 });
    expect(await count(`select max(sample)::int as n from responses where project_id = $1`, [projectId])).toBe(2);
  });

  it('when credits run short, every prompt and provider gets its first sample before any gets a second', async () => {
    const { acct, projectId } = await projectWithPrompts('basic', 1);
    expect((await client(t.app, acct.key).patch(`/projects/${projectId}`, { samples_per_run: 2 })).statusCode).toBe(200);
    await t.runtime.ctx.store.query(
      `insert into credit_usage (team_id, month, used) values ($1, to_char(now() at time zone 'UTC', 'YYYY-MM'), 194)`,
      [acct.teamId],
    );
    const tally = await refresh(projectId, '2026-11-22');
    expect(tally).toMatchObject({ planned: 10, stored: 6, skippedNoCredits: 4 });
    expect(await creditState(t.runtime.ctx.store, acct.teamId)).toMatchObject({ used: 200, held: 0, available: 0 });
    const firsts = await t.runtime.ctx.store.query<{ provider: string }>(
      `select provider from responses where project_id = $1 and sample = 1 order by provider`,
      [projectId],
    );
    expect(firsts.rows.map((r) => r.provider)).toEqual([...PROVIDERS].sort());
    expect(await count(`select count(*)::int as n from responses where project_id = $1 and sample = 2`, [projectId])).toBe(1);
  });
});

describe('adaptive sampling', () => {
  it("PATCH sampling: 'fixed' by default, 'adaptive' accepted and shown, anything else a 400", async () => {
    const { acct, projectId } = await projectWithPrompts('pro', 0);
    const api = client(t.app, acct.key);
    expect((await api.get(`/projects/${projectId}`)).json().data.sampling).toBe('fixed');
    const res = await api.patch(`/projects/${projectId}`, { sampling: 'adaptive' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.sampling).toBe('adaptive');
    expect((await api.patch(`/projects/${projectId}`, { sampling: 'adaptive' })).statusCode).toBe(400);
    const bad = await api.patch(`/projects/${projectId}`, { sampling: 'smart' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().detail).toMatch(/sampling must be 'fixed' or 'adaptive'/);
  });

  it('PATCH sampling_margin: 5 points by default, 1 to 25 with one decimal accepted and shown, anything else a 400', async () => {
    const { acct, projectId } = await projectWithPrompts('pro', 0);
    const api = client(t.app, acct.key);
    expect((await api.get(`/projects/${projectId}`)).json().data.sampling_margin).toBe(5);
    const res = await api.patch(`/projects/${projectId}`, { sampling_margin: 2.5 });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.sampling_margin).toBe(2.5);
    expect((await api.get(`/projects/${projectId}`)).json().data.sampling_margin).toBe(2.5);
    const { rows } = await t.runtime.ctx.store.query<{ sampling_margin: number }>(`select sampling_margin from projects where id = $1`, [projectId]);
    expect(rows[0].sampling_margin).toBe(2.5);
    expect((await api.patch(`/projects/${projectId}`, { sampling_margin: 2.5 })).json().detail).toMatch(/No field changed/);
    for (const bad of [0.5, 26, 2.55, '3', null]) {
      const refused = await api.patch(`/projects/${projectId}`, { sampling_margin: bad });
      expect(refused.statusCode, String(bad)).toBe(400);
      expect(refused.json().detail).toMatch(/sampling_margin must/);
    }
    expect((await api.get(`/projects/${projectId}`)).json().data.sampling_margin).toBe(2.5);
  });

  it('spends the credits of a fixed run where intervals are short of the margin', async () => {
    const { acct, projectId } = await projectWithPrompts('pro', 2);
    const api = client(t.app, acct.key);
    expect((await api.patch(`/projects/${projectId}`, { samples_per_run: 2 })).statusCode).toBe(200);
    const samplesPerPrompt = async (day: string) =>
      (
        await t.runtime.ctx.store.query<{ n: number }>(
          `select count(*)::int as n from responses r join prompts p on p.id = r.prompt_id
            where r.project_id = $1 and r.day = $2 group by p.created_at, p.id order by p.created_at, p.id`,
          [projectId, day],
        )
      ).rows.map((r) => r.n / 5);
    // Day one, fixed: 2 samples of each engine for both prompts.
    await refresh(projectId, '2026-11-20');
    expect(await samplesPerPrompt('2026-11-20')).toEqual([2, 2]);
    // A third prompt, unmeasured, and adaptive sampling: the same 3 × 5 × 2 credits, every
    // prompt one sample per engine, and the 3 spare to the measured prompts, closer to ±5 points
    // than the new one (planned at 50%, 381 answers).
    const { store } = t.runtime.ctx;
    await store.query(
      `insert into prompts (project_id, team_id, content, content_key) select id, team_id, 'which crm is easiest', 'which crm is easiest' from projects where id = $1`,
      [projectId],
    );
    expect((await api.patch(`/projects/${projectId}`, { sampling: 'adaptive' })).statusCode).toBe(200);
    const second = await refresh(projectId, '2026-11-21');
    expect(second).toMatchObject({ planned: 3 * 5 * 2, stored: 30 });
    const perPrompt = await samplesPerPrompt('2026-11-21');
    expect(perPrompt[2]).toBe(1);
    expect(perPrompt[0] + perPrompt[1]).toBe(5);
    expect(Math.max(perPrompt[0], perPrompt[1])).toBe(3);
    expect(await creditState(store, acct.teamId)).toMatchObject({ used: 50, held: 0 });
    await expectConsistentRollups(t.runtime.ctx.store, projectId);
  });
});
