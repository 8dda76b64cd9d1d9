import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { seedProject, type SeedResult } from '../collection/seed.js';
import { storeAnswers } from '../modules/answers/store-answers.js';
import { createAnalyzer } from '../analysis/index.js';
import { loadBrandSpecs } from '../modules/projects/brands.js';
import { loadProjectWithPlan } from '../modules/projects/project-row.js';
import { loadConfig } from '../config.js';
import { createRuntime } from '../runtime.js';
import { utcDay } from '../lib/time.js';
import { analyticsVersion } from '../store/analytics-version.js';
import { client, createAccount, startTestApp, STORE, type TestApp, errorBody } from '../../test/helpers.js';
import { ReadCache } from './read-cache.js';

describe('ReadCache', () => {
  it('serves a body for its version only, most recently used kept within the byte limit', () => {
    const c = new ReadCache(400);
    c.set('a', 1, 'x'.repeat(100));
    expect(c.get('a', 1)).toBe('x'.repeat(100));
    expect(c.get('a', 2)).toBeUndefined(); // another version: gone
    expect(c.get('a', 1)).toBeUndefined();
    c.set('a', 1, 'a'.repeat(90));
    c.set('b', 1, 'b'.repeat(90));
    c.set('c', 1, 'c'.repeat(90));
    c.get('a', 1); // a is now the most recently used
    c.set('d', 1, 'd'.repeat(90));
    c.set('e', 1, 'e'.repeat(90)); // 450 > 400: b, the least recently used, goes
    expect(c.get('b', 1)).toBeUndefined();
    expect(c.get('a', 1)).toBe('a'.repeat(90));
    expect(c.size).toBe(4);
    c.set('big', 1, 'z'.repeat(101)); // over a quarter of the limit: not kept
    expect(c.get('big', 1)).toBeUndefined();
    expect(new ReadCache(0).enabled).toBe(false);
  });
});

// Every change that a cached analytics body depends on must show in the next read.
describe('cached analytics responses follow every change', () => {
  let t: TestApp;
  let seed: SeedResult;
  let api: ReturnType<typeof client>;
  const base = () => `/projects/${seed.projectId}`;
  const json = async (url: string) => {
    const res = await api.get(url);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    return res.json().data;
  };

  beforeAll(async () => {
    t = await startTestApp({ role: 'api', rateLimitWindowMs: 100 });
    seed = await seedProject(t.runtime.ctx, { prompts: 4, providers: ['chatgpt', 'perplexity'], days: 10, competitors: 3 });
    api = client(t.app, seed.apiKey);
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('a second read is served from the cache, byte for byte', async () => {
    const cache = t.runtime.http!.readCache;
    const first = await api.get(`${base()}/overview?duration_days=30`);
    const hits = cache.hits;
    const second = await api.get(`${base()}/overview?duration_days=30`);
    expect(cache.hits).toBe(hits + 1);
    expect(second.body).toBe(first.body);
    expect(second.headers['content-type']).toBe(first.headers['content-type']);
    // the rate-limit headers are the request's own, not cached
    expect(Number(second.headers['x-ratelimit-remaining'])).toBeLessThanOrEqual(Number(first.headers['x-ratelimit-remaining']));
  });

  // PGlite: a second runtime cannot open the same store
  it.skipIf(STORE !== 'postgres')('the same bodies as with the cache off', async () => {
    const off = await createRuntime(loadConfig({}, { ...t.config, role: 'api', readCacheBytes: 0 }), pino({ level: 'silent' }));
    try {
      const plain = client(off.app!, seed.apiKey);
      for (const path of ['/overview?duration_days=30', '/prompts', '/competitors?duration_days=30', '/visibility', '/sources/analytics?duration_days=30']) {
        await api.get(base() + path); // cached
        expect((await api.get(base() + path)).body).toBe((await plain.get(base() + path)).body);
      }
    } finally {
      await off.stop();
    }
  });

  it('a prompt changed, added or deleted', async () => {
    const before = await json(`${base()}/overview?duration_days=30`);
    const first = before.items[0];
    const patched = await api.patch(`${base()}/prompts/${first.prompt_id}`, { content: 'Which CRM do cached answers recommend?' });
    expect(patched.statusCode, patched.body).toBe(200);
    const after = await json(`${base()}/overview?duration_days=30`);
    expect(after.items.find((i: any) => i.prompt_id === first.prompt_id).content).toBe('Which CRM do cached answers recommend?');

    const listed = (await json(`${base()}/prompts`)).prompts.length;
    const created = await api.post(`${base()}/prompts`, { prompts: ['Is a cached list stale?'], topicId: first.topic_id });
    expect(created.statusCode, created.body).toBe(200);
    expect((await json(`${base()}/prompts`)).prompts.length).toBe(listed + 1);

    const deleted = await api.delete(`${base()}/prompts/${first.prompt_id}`);
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect((await json(`${base()}/overview?duration_days=30`)).items.map((i: any) => i.prompt_id)).not.toContain(first.prompt_id);
  });

  it('a competitor added, renamed or removed', async () => {
    const names = async () => (await json(`${base()}/competitors?duration_days=30`)).active_competitors.map((c: any) => c.name);
    const before = await names();
    const added = await api.post(`${base()}/competitors`, { competitors: [{ name: 'Cachely', website: 'https://cachely.example.com' }] });
    expect(added.statusCode, added.body).toBe(200);
    expect(await names()).toContain('Cachely');
    const row = (await json(`${base()}/competitors`)).active_competitors.find((c: any) => c.name === 'Cachely');
    expect((await api.patch(`${base()}/competitors/${row.competitor_id}`, { name: 'Cachely Two' })).statusCode).toBe(200);
    expect(await names()).toContain('Cachely Two');
    expect((await api.delete(`${base()}/competitors/${row.competitor_id}`)).statusCode).toBe(200);
    expect(await names()).toEqual(before);
  });

  it('a new answer stored (collection), on every cached endpoint', async () => {
    const ctx = t.runtime.ctx;
    const prompts = (await json(`${base()}/prompts`)).prompts;
    const target = prompts.find((p: any) => p.volume > 0);
    const volume = (url: string) => json(url).then((d) => d.prompts.find((p: any) => p.id === target.id).volume);
    const sources = () => json(`${base()}/sources/analytics`).then((d) => d.stats.total_citations);
    const [v0, s0] = [await volume(`${base()}/prompts`), await sources()];
    const facts = (await loadProjectWithPlan(ctx.store, seed.projectId))!;
    const analyse = createAnalyzer(await loadBrandSpecs(ctx.store, facts));
    const text = 'Acme CRM is a good choice; see https://www.g2.com/categories/crm for reviews.';
    const references = [{ url: 'https://www.g2.com/categories/crm', title: 'CRM on G2' }];
    // gemini: no answer yet for this prompt today
    const stored = await ctx.store.tx((tx) =>
      storeAnswers(tx, seed.projectId, [
        { promptId: target.id, provider: 'gemini', day: utcDay(), market: 'US-en', answer: { text, references, model: 'gemini-test', simulated: true, raw: null } as any, analysis: analyse(text, references as any) },
      ]),
    );
    expect(stored).toHaveLength(1);
    expect(await volume(`${base()}/prompts`)).toBe(v0 + 1);
    expect(await sources()).toBeGreaterThan(s0);
  });

  it("another team's key gets 403, never the cached body", async () => {
    await json(`${base()}/overview`);
    const other = await createAccount(t.app);
    const res = await client(t.app, other.key).get(`${base()}/overview`);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual(errorBody('Project does not belong to your team'));
  });

  it('a bad window is still a 400 (checked before the cache)', async () => {
    const res = await api.get(`${base()}/overview?duration_days=0`);
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toMatch(/duration_days/);
  });

  it('the triggers raise the version for answers, prompts, topics and competitors; deleting a project still works', async () => {
    const store = t.runtime.ctx.store;
    const v = () => analyticsVersion(store, seed.projectId);
    let last = await v();
    for (const sql of [
      `update responses set brand_nos = brand_nos where project_id = $1`,
      `update prompts set content = content where project_id = $1`,
      `insert into topics (project_id, name, name_key) values ($1, 'Cache topic', 'cache topic')`,
      `update competitors set name = name where project_id = $1`,
      `update projects set name = name where id = $1`,
    ]) {
      await store.query(sql, [seed.projectId]);
      const now = await v();
      expect(now, sql).toBeGreaterThan(last);
      last = now;
    }
    const doomed = await seedProject(t.runtime.ctx, { prompts: 1, providers: ['chatgpt'], days: 2, competitors: 1 });
    const res = await client(t.app, doomed.apiKey).delete(`/projects/${doomed.projectId}`);
    if (res.statusCode === 404) {
      // no project deletion route: delete in SQL, as an operator would (the cascade fires the triggers)
      await store.query(`delete from projects where id = $1`, [doomed.projectId]);
    } else {
      expect(res.statusCode, res.body).toBe(200);
    }
    expect((await store.query(`select 1 from projects where id = $1`, [doomed.projectId])).rows).toHaveLength(0);
  });

  it.skipIf(STORE !== 'postgres')('another process: a change made there shows here at once', async () => {
    const config = loadConfig({}, { ...t.config, role: 'api' });
    const other = await createRuntime(config, pino({ level: 'silent' }));
    try {
      const there = client(other.app!, seed.apiKey);
      const prompt = (await json(`${base()}/prompts`)).prompts[0];
      await json(`${base()}/prompts`); // cached here
      const res = await there.patch(`${base()}/prompts/${prompt.id}`, { content: 'Changed in another process' });
      expect(res.statusCode, res.body).toBe(200);
      expect((await json(`${base()}/prompts`)).prompts[0].content).toBe('Changed in another process');
    } finally {
      await other.stop();
    }
  });
});
