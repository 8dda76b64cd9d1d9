import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { startFakeProvider, type FakeProvider } from '../../test/fakes/index.js';
import { startReceiver, type Receiver } from '../../test/fakes/receiver.js';
import { startFixtureServer, type FixtureServer } from '../../test/fixtures/page-fixtures.js';
import { client, createAccount, setTeam, startTestApp, until, type TestApp } from '../../test/helpers.js';
import { loadProjectWithPlan } from '../modules/projects/project-row.js';
import { collectAnswers, projectProviders } from './collect.js';
import { creditState } from './credits.js';
import { scheduleDailyRefreshes } from './refresh.js';
import { utcDay } from '../lib/time.js';
import { expectConsistentRollups } from '../../test/rollup-invariants.js';
import { providerUsage } from '../modules/admin/usage.js';

const BOOTSTRAP = ['chatgpt', 'perplexity', 'google_ai_overview'] as const;

describe('bootstrap end to end over HTTP', () => {
  let t: TestApp;
  let fakes: FakeProvider[];
  let site: FixtureServer;
  let receiver: Receiver;

  beforeAll(async () => {
    fakes = await Promise.all(BOOTSTRAP.map((k) => startFakeProvider(k)));
    site = await startFixtureServer();
    receiver = await startReceiver();
    const env = Object.assign({}, ...fakes.map((f) => f.env));
    t = await startTestApp({ allowPrivateUrls: true }, env);
  });
  afterAll(async () => {
    await t?.stop();
    await Promise.all([...fakes.map((f) => f.close()), site.close(), receiver.close()]);
  });

  it('reads the site, writes prompts, asks the three providers, detects competitors and calls back signed', async () => {
    const acct = await createAccount(t.app);
    const res = await client(t.app, acct.key).post('/account/projects', {
      brand_name: 'Acme CRM',
      brand_url: `${site.base}/crm-vendor.html`,
      webhook_url: receiver.url,
    });
    expect(res.statusCode).toBe(202);
    const projectId = res.json().data.project_id;

    const [callback] = await receiver.waitFor(1, 45_000);
    // Standard Webhooks: verify with the official package and the server's signing secret.
    const wh = new Webhook(t.runtime.ctx.callbackSecret.replace(/^whsec_/, ''));
    const payload = wh.verify(callback.body, callback.headers) as Record<string, unknown>;
    expect(callback.headers['webhook-id']).toMatch(/^msg_[0-9a-f-]{36}$/);
    expect(payload).toMatchObject({ event: 'project.bootstrap', project_id: projectId, status: 'completed', error: null });
    expect(Date.parse(payload.timestamp as string)).not.toBeNaN();
    expect(() => new Webhook(Buffer.from('another-secret-0123456789').toString('base64')).verify(callback.body, callback.headers)).toThrow();

    // skip_trial: the reduced bootstrap, 3 prompts × 3 providers = 9 credits.
    const c = client(t.app, acct.key);
    const prompts = (await c.get(`/projects/${projectId}/prompts`)).json().data;
    expect(prompts.total).toBe(3);
    expect(prompts.prompts.every((p: any) => p.prompt_type === 'active' && p.volume === 3)).toBe(true);
    expect((await c.get(`/projects/${projectId}/topics`)).json().data.length).toBeGreaterThan(0);
    for (const f of fakes) expect(f.apiRequests()).toHaveLength(3);
    // Each live answer records the market sent and the usage its vendor reported (the fakes' bodies).
    const stored = await t.runtime.ctx.store.query<{ provider: string; sent: unknown; usage: unknown }>(
      `select provider, sent, usage from responses where project_id = $1`,
      [projectId],
    );
    expect(stored.rows).toHaveLength(9);
    const by = (p: string) => stored.rows.filter((r) => r.provider === p);
    // A project naming no location or language is tracked in US-en, and the engines are told so.
    for (const r of by('chatgpt')) expect(r.sent).toEqual({ country: 'US', language: null });
    for (const r of by('perplexity')) expect(r.sent).toEqual({ country: 'US', language: null });
    for (const r of by('google_ai_overview')) expect(r.sent).toEqual({ country: 'us', language: 'en' });
    expect(by('chatgpt').map((r) => r.usage)).toEqual(Array(3).fill({ input_tokens: 8213, output_tokens: 312, searches: 1 }));
    expect(by('perplexity').map((r) => r.usage)).toEqual(Array(3).fill({ input_tokens: 12, output_tokens: 180, cost_usd: 0.005 }));
    expect(by('google_ai_overview').map((r) => r.usage)).toEqual(Array(3).fill({ searches: 1 }));
    const usage = await providerUsage(t.runtime.ctx, {});
    expect(usage.map((u) => [u.provider, u.responses, u.reported, u.input_tokens, u.output_tokens, u.searches, u.cost_usd])).toEqual([
      ['chatgpt', 3, 3, 3 * 8213, 3 * 312, 3, null],
      ['google_ai_overview', 3, 3, 0, 0, 3, null],
      ['perplexity', 3, 3, 36, 540, 0, 0.015],
    ]);
    const me = await c.get('/projects');
    expect(me.headers['x-credit-available']).toBe('1');

    // The fakes' answer names HubSpot and Pipedrive and cites their sites: detected.
    const comps = (await c.get(`/projects/${projectId}/competitors`)).json().data.active_competitors;
    expect(comps[0]).toMatchObject({ is_own_brand: true, name: 'Acme CRM' });
    const names = comps.slice(1).map((x: any) => x.name);
    expect(names).toEqual(expect.arrayContaining(['HubSpot']));
    const hub = comps.find((x: any) => x.name === 'HubSpot');
    expect(hub.metrics.mention_count).toBeGreaterThan(0);
    expect(hub.metrics.visibility).toBeGreaterThan(0);

    // The project is done: a second run of the job changes nothing.
    const facts = await loadProjectWithPlan(t.runtime.ctx.store, projectId);
    expect(facts?.status).toBe('completed');
  });

  it('reports error at once when every provider refuses the key', async () => {
    for (const f of fakes) f.behave({ then: 'unauthorized' });
    try {
      const acct = await createAccount(t.app);
      const res = await client(t.app, acct.key).post('/account/projects', {
        brand_name: 'Nobody',
        brand_url: 'http://127.0.0.1:1/',
        webhook_url: receiver.url,
      });
      const projectId = res.json().data.project_id;
      const got = await until(async () => receiver.received.find((r) => JSON.parse(r.body).project_id === projectId), 30_000);
      const body = JSON.parse(got.body);
      expect(body.status).toBe('error');
      expect(body.error).toMatch(/No AI provider answered/);
      // GET /projects/{id} tells the same, and the callback's fate once it is delivered.
      const seen = await until(async () => {
        const d = (await client(t.app, acct.key).get(`/projects/${projectId}`)).json().data;
        return d.callback_status === 'delivered' ? d : null;
      }, 15_000);
      expect(seen).toMatchObject({ bootstrap_status: 'error', bootstrap_error: body.error });
      expect((await creditState(t.runtime.ctx.store, acct.teamId)).used).toBe(0);
    } finally {
      for (const f of fakes) f.behave({});
    }
  });
});

describe('credits and scheduling', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ providersMode: 'simulated' });
  });
  afterAll(async () => t?.stop());

  async function projectWithPrompts(n: number, plan = 'skip_trial') {
    const acct = await createAccount(t.app);
    await setTeam(t, acct.teamId, { plan });
    const { store } = t.runtime.ctx;
    const p = await store.query<{ id: string }>(
      `insert into projects (team_id, name, brand_name, website_url, domain, status) values ($1, 'Acme', 'Acme', 'https://acme.com/', 'acme.com', 'completed') returning id`,
      [acct.teamId],
    );
    const projectId = p.rows[0].id;
    for (let i = 0; i < n; i++) {
      await store.query(
        `insert into prompts (project_id, team_id, content, content_key) values ($1, $2, $3, $3)`,
        [projectId, acct.teamId, `best crm number ${i}`],
      );
    }
    const ids = (await store.query<{ id: string }>(`select id from prompts where project_id = $1 order by content`, [projectId])).rows.map((r) => r.id);
    return { acct, projectId, ids };
  }

  it('never overspends under concurrent runs: credits used equal answers stored', async () => {
    const { acct, projectId, ids } = await projectWithPrompts(5);
    const ctx = t.runtime.ctx;
    const project = (await loadProjectWithPlan(ctx.store, projectId))!;
    const day = utcDay();
    const keys = ids.flatMap((promptId) => ['chatgpt', 'perplexity', 'gemini', 'claude', 'google_ai_overview'].map((provider) => ({ promptId, provider, day, sample: 1, market: 'US-en' })));
    const runs = await Promise.all([0, 1, 2, 3].map((i) => collectAnswers(ctx, project, i % 2 ? [...keys].reverse() : keys, null)));
    const stored = runs.reduce((s, r) => s + r.stored, 0);
    const state = await creditState(ctx.store, acct.teamId);
    const answers = await ctx.store.query<{ n: number }>(`select count(*)::int as n from responses where project_id = $1`, [projectId]);
    expect(stored).toBe(10);
    expect(answers.rows[0].n).toBe(10);
    expect(state).toMatchObject({ allowance: 10, used: 10, held: 0, available: 0 });
    // Every skipped answer is recorded as skipped for lack of credits, none as failed.
    expect(runs.every((r) => r.failed === 0)).toBe(true);
    expect(runs.reduce((s, r) => s + r.skippedNoCredits + r.alreadyStored + r.stored, 0)).toBe(4 * keys.length);
    // Rollups count each stored answer once.
    const rolled = await ctx.store.query<{ n: number }>(`select sum(responses)::int as n from project_daily where project_id = $1 and provider = '*'`, [projectId]);
    expect(rolled.rows[0].n).toBe(10);
  });

  it('stores answers that arrive together in one transaction; one the store refuses fails alone', async () => {
    const { acct, projectId, ids } = await projectWithPrompts(4, 'pro');
    const ctx = t.runtime.ctx;
    const project = (await loadProjectWithPlan(ctx.store, projectId))!;
    const providers = ['chatgpt', 'perplexity', 'gemini', 'claude', 'google_ai_overview'];
    const keysOf = (day: string) => ids.flatMap((promptId) => providers.map((provider) => ({ promptId, provider, day, sample: 1, market: 'US-en' })));
    // group commits: the simulated engines answer at once, so far fewer transactions than
    // answers (one reserves the credits; a transaction per answer would make 21)
    const transactions = vi.spyOn(ctx.store, 'tx');
    try {
      expect(await collectAnswers(ctx, project, keysOf('2031-04-01'), null)).toMatchObject({ stored: 20, failed: 0 });
      expect(transactions.mock.calls.length).toBeLessThanOrEqual(10);
    } finally {
      transactions.mockRestore();
    }
    // the store refuses the answers of one prompt: they fail, every other answer is kept
    await ctx.store.query(
      `create function refuse_one_prompt() returns trigger language plpgsql as $$
         begin if new.prompt_id = '${ids[2]}' then raise exception 'refused by the test'; end if; return new; end $$`,
    );
    await ctx.store.query(`create trigger refuse_one_prompt before insert on responses for each row execute function refuse_one_prompt()`);
    try {
      const tally = await collectAnswers(ctx, project, keysOf('2031-04-02'), null);
      expect(tally).toMatchObject({ stored: 15, failed: 5, alreadyStored: 0 });
    } finally {
      await ctx.store.query(`drop trigger refuse_one_prompt on responses`);
      await ctx.store.query(`drop function refuse_one_prompt()`);
    }
    const kept = await ctx.store.query<{ day: string; n: number; refused: number }>(
      `select to_char(day, 'YYYY-MM-DD') as day, count(*)::int as n, count(*) filter (where prompt_id = $2)::int as refused
         from responses where project_id = $1 group by day order by day`,
      [projectId, ids[2]],
    );
    expect(kept.rows).toEqual([
      { day: '2031-04-01', n: 20, refused: 5 },
      { day: '2031-04-02', n: 15, refused: 0 },
    ]);
    // credits: spent on the 35 stored, the 5 refused given back
    expect(await creditState(ctx.store, acct.teamId)).toMatchObject({ used: 35, held: 0 });
    await expectConsistentRollups(ctx.store, projectId);
  });

  it('asks the engines the project tracks: the five of the contract unless it chose others', async () => {
    const { projectId, ids } = await projectWithPrompts(1, 'pro');
    const ctx = t.runtime.ctx;
    const facts = (await loadProjectWithPlan(ctx.store, projectId))!;
    expect(projectProviders(ctx, facts)).toEqual(['chatgpt', 'perplexity', 'google_ai_overview', 'gemini', 'claude']);
    await ctx.store.query(`update projects set providers = '["grok", "copilot", "chatgpt", "google_ai_mode"]'::jsonb where id = $1`, [projectId]);
    const chosen = (await loadProjectWithPlan(ctx.store, projectId))!;
    const providers = projectProviders(ctx, chosen);
    expect(providers).toEqual(['chatgpt', 'google_ai_mode', 'grok', 'copilot']);
    const day = utcDay();
    const tally = await collectAnswers(ctx, chosen, providers.map((provider) => ({ promptId: ids[0], provider, day, sample: 1, market: 'US-en' })), null);
    expect(tally).toMatchObject({ stored: 4, failed: 0 });
    const rows = await ctx.store.query<{ provider: string }>(`select provider from responses where project_id = $1 order by provider`, [projectId]);
    expect(rows.rows.map((r) => r.provider)).toEqual(['chatgpt', 'copilot', 'google_ai_mode', 'grok']);
  });

  it('schedules one daily run per project per day, however many ticks', async () => {
    const { projectId } = await projectWithPrompts(1, 'basic');
    const ctx = t.runtime.ctx;
    const day = '2031-01-01';
    const queued = await Promise.all([scheduleDailyRefreshes(ctx, day), scheduleDailyRefreshes(ctx, day), scheduleDailyRefreshes(ctx, day)]);
    const runs = await ctx.store.query<{ n: number }>(`select count(*)::int as n from collection_runs where project_id = $1 and kind = 'daily' and day = $2`, [projectId, day]);
    expect(runs.rows[0].n).toBe(1);
    expect(queued.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(1);
    const jobs = await ctx.store.query<{ n: number }>(
      `select count(*)::int as n from pgboss.job where name = 'project-refresh' and data->>'projectId' = $1 and data->>'day' = $2`,
      [projectId, day],
    );
    expect(jobs.rows[0].n).toBe(1);
  });

  it('collects new prompts at once', async () => {
    const acct = await createAccount(t.app);
    await setTeam(t, acct.teamId, { plan: 'pro' });
    const { store } = t.runtime.ctx;
    const p = await store.query<{ id: string }>(
      `insert into projects (team_id, name, brand_name, website_url, domain, status) values ($1, 'Acme', 'Acme', 'https://acme.com/', 'acme.com', 'completed') returning id`,
      [acct.teamId],
    );
    const c = client(t.app, acct.key);
    const topic = (await c.post(`/projects/${p.rows[0].id}/topics`, { name: 'CRM' })).json().data.topic_id;
    await c.post(`/projects/${p.rows[0].id}/prompts`, { prompts: ['best crm for startups', 'cheapest crm'], topicId: topic });
    const prompts = await until(async () => {
      const list = (await c.get(`/projects/${p.rows[0].id}/prompts`)).json().data.prompts;
      return list.every((x: any) => x.volume === 5) && list;
    }, 30_000);
    expect(prompts).toHaveLength(2);
  });
});

describe('rollups stay consistent', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ providersMode: 'simulated', role: 'api' });
  });
  afterAll(async () => t?.stop());

  it('after seeding, a prompt deletion and a re-analysis', async () => {
    const { seedProject } = await import('./seed.js');
    const ctx = t.runtime.ctx;
    const seeded = await seedProject(ctx, { prompts: 6, providers: ['chatgpt', 'perplexity', 'claude'], days: 4, competitors: 4 });
    await expectConsistentRollups(ctx.store, seeded.projectId);
    const c = client(t.app, seeded.apiKey);
    const prompts = (await c.get(`/projects/${seeded.projectId}/prompts?duration_days=30`)).json().data.prompts as any[];
    expect(prompts.reduce((s, p) => s + p.volume, 0)).toBe(6 * 3 * 4);
    const del = await c.delete(`/projects/${seeded.projectId}/prompts/${prompts[0].id}`);
    expect(del.statusCode).toBe(200);
    await expectConsistentRollups(ctx.store, seeded.projectId);
    const comps = (await c.get(`/projects/${seeded.projectId}/competitors?duration_days=30`)).json().data;
    const overview = (await c.get(`/projects/${seeded.projectId}/overview?duration_days=30`)).json().data.items as any[];
    expect(overview).toHaveLength(5);
    // own brand: mentions across the remaining prompts, from two different rollups
    const own = comps.active_competitors[0].metrics;
    const mentioned = await ctx.store.query<{ n: number }>(
      `select count(*)::int as n from responses where project_id = $1 and mentioned`,
      [seeded.projectId],
    );
    expect(own.visibility).toBeCloseTo((100 * mentioned.rows[0].n) / (5 * 3 * 4), 2);
    const { reanalyseProject } = await import('./reanalyse.js');
    expect(await reanalyseProject(ctx, seeded.projectId)).toBe(5 * 3 * 4);
    await expectConsistentRollups(ctx.store, seeded.projectId);
    expect((await c.get(`/projects/${seeded.projectId}/competitors?duration_days=30`)).json().data).toEqual(comps);
  });
});
