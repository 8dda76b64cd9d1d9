import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, startTestApp, until, type TestApp } from '../../../test/helpers.js';
import { CITATIONS } from '../../../test/rollup-invariants.js';
import { seedProject, type SeedResult } from '../../collection/seed.js';
import { PROVIDERS } from '../../ports/providers/types.js';
import type { Writer } from '../../ports/writer/index.js';
import { recommendJob } from '../../jobs/catalog.js';
import { jobRegistry } from '../../jobs/registry.js';
import { runRecommendTask } from './background/recommend-task.js';
import { CAPTURE, deriveRecommendations, impactOf, priorityOf, RULES, type Candidate } from './recommend.js';
import type { CitedUrl, PromptSignal, Signals } from './signals.js';

// ---------------------------------------------------------------------------------------
// The rules, on hand-made signals.

const signals = (over: Partial<Signals> = {}): Signals => ({
  window: { from: '2026-01-01', to: '2026-01-30', split: '2026-01-16' },
  brand: { name: 'Acme', domain: 'acme.com', aliases: [] },
  competitorDomains: new Set(['rival.com']),
  prompts: [],
  ownPages: [],
  threads: [],
  domains: [],
  project: { responses: 500, visibility: 40, cvr: 30, bestSite: null, competitors: [] },
  ...over,
});

const prompt = (id: string, visibility: number, best: number, responses = 50): PromptSignal => ({
  id,
  content: `Best CRM question ${id}?`,
  responses,
  visibility,
  competitors: [{ name: 'Rival', visibility: best }],
  gap: Math.max(0, best - visibility),
});

const cited = (url: string, previous: number, recent: number, byPrompt: Record<string, number>, unmentioned = byPrompt): CitedUrl => ({
  url,
  title: `Title of ${url}`,
  total: previous + recent,
  previous,
  recent,
  unmentioned: Object.values(unmentioned).reduce((a, b) => a + b, 0),
  byPrompt: new Map(Object.entries(byPrompt)),
  unmentionedByPrompt: new Map(Object.entries(unmentioned)),
});

const of = (list: Candidate[], category: string) => list.filter((c) => c.category === category);

describe('recommendation rules', () => {
  it('priority and expected impact follow the gap (documented thresholds and capture shares)', () => {
    expect([45, 40, 30, 25, 12, 10, 9, 0].map(priorityOf)).toEqual(['critical', 'critical', 'high', 'high', 'medium', 'medium', 'low', 'low']);
    expect(impactOf(30, CAPTURE.new_content)).toEqual({ expected_impact_min: 7.5, expected_impact_max: 15 });
    expect(impactOf(0, CAPTURE.forum_engagement)).toEqual({ expected_impact_min: 0.5, expected_impact_max: 1 });
    expect(impactOf(400, CAPTURE.new_content)).toEqual({ expected_impact_min: 100, expected_impact_max: 100 });
  });

  it('no data, no recommendation', () => {
    const empty = signals({ project: { responses: 0, visibility: null, cvr: null, bestSite: null, competitors: [] } });
    expect(deriveRecommendations(empty)).toEqual([]);
  });

  it('new_content: prompts where a competitor is named well ahead of the brand, largest gap first, at most five', () => {
    const out = deriveRecommendations(
      signals({
        prompts: [
          prompt('a', 10, 55), // gap 45: critical
          prompt('b', 40, 70), // gap 30: high
          prompt('c', 50, 59), // gap 9: below the threshold
          prompt('d', 0, 15), // the competitor itself is rarely named
          prompt('e', 10, 60, 4), // too few answers
          prompt('f', 30, 42),
          prompt('g', 30, 43),
          prompt('h', 30, 44),
          prompt('i', 30, 45),
        ],
      }),
    );
    const content = of(out, 'new_content');
    expect(content.map((c) => c.targets[0].value)).toEqual(['a', 'b', 'i', 'h', 'g'].map((id) => `Best CRM question ${id}?`));
    expect(content[0]).toMatchObject({
      priority: 'critical',
      effort: 'major',
      expected_impact_min: 11.3,
      expected_impact_max: 22.5,
      group: 'content',
      execution: { type: 'publishable_content' },
      targets: [{ type: 'keyword', value: 'Best CRM question a?' }],
      fingerprint: 'new_content:keyword:best crm question a?',
      dependsOn: [],
    });
    expect(content[1].priority).toBe('high');
    expect(content[0].facts).toMatchObject({ prompt: 'Best CRM question a?', competitors: ['Rival'], visibility_gap_points: 45 });
  });

  it('content_update: own pages losing ground or rarely cited; each depends on the article for the prompt citing it most', () => {
    const out = deriveRecommendations(
      signals({
        prompts: [prompt('a', 10, 50), prompt('b', 60, 60)],
        ownPages: [
          cited('https://acme.com/pricing', 6, 2, { a: 5, b: 3 }), // loses ground
          cited('https://acme.com/blog', 4, 6, { b: 10 }), // grows: nothing to do
          cited('https://acme.com/compare', 1, 1, { b: 2 }), // rarely cited
        ],
      }),
    );
    const updates = of(out, 'content_update');
    expect(updates.map((c) => [c.targets[0].value, c.effort, c.execution.type])).toEqual([
      ['https://acme.com/pricing', 'quick-win', 'prompt'],
      ['https://acme.com/compare', 'moderate', 'manual'],
    ]);
    const article = of(out, 'new_content')[0];
    expect(updates[0].dependsOn).toEqual([article.fingerprint]);
    expect(updates[1].dependsOn).toEqual([]); // prompt b has no article
    // the gap is the citation-weighted gap of the prompts citing the page: (5×40 + 3×0) / 8
    expect(updates[0].gap).toBe(25);
    expect(updates[0].execution.prompt).toContain('https://acme.com/pricing');
  });

  it('forum_engagement: forum threads cited at least twice without the brand, pointing to the article', () => {
    const out = deriveRecommendations(
      signals({
        prompts: [prompt('a', 10, 50)],
        threads: [
          cited('https://www.reddit.com/r/crm/comments/1/best', 1, 2, { a: 3 }),
          cited('https://www.quora.com/Which-CRM', 1, 0, { a: 1 }),
        ],
      }),
    );
    const forum = of(out, 'forum_engagement');
    expect(forum).toHaveLength(1);
    expect(forum[0]).toMatchObject({
      targets: [{ type: 'url', value: 'https://www.reddit.com/r/crm/comments/1/best' }],
      execution: { type: 'forum_reply', params: { thread_url: 'https://www.reddit.com/r/crm/comments/1/best' } },
      effort: 'quick-win',
      group: 'forums',
      dependsOn: [of(out, 'new_content')[0].fingerprint],
    });
  });

  it("on_page_seo: opportunity domains (3+ citations without the brand), never the brand's or a competitor's site", () => {
    const domain = (d: string, unmentioned: number) => ({ domain: d, category: 1, citations: unmentioned + 2, unmentioned, byPrompt: new Map([['a', unmentioned]]) });
    const out = deriveRecommendations(
      signals({
        prompts: [prompt('a', 40, 60)],
        ownPages: [cited('https://acme.com/', 20, 20, { a: 40 })],
        domains: [domain('g2.com', 9), domain('forbes.com', 3), domain('cnet.com', 2), domain('acme.com', 30), domain('rival.com', 12)],
      }),
    );
    const seo = of(out, 'on_page_seo');
    expect(seo.map((c) => c.targets)).toEqual([[{ type: 'domain', value: 'g2.com' }], [{ type: 'domain', value: 'forbes.com' }]]);
    expect(seo[0]).toMatchObject({ execution: { type: 'manual' }, group: 'sources', gap: 20, priority: 'medium', expected_impact_min: 2, expected_impact_max: 5 });
  });

  it('on_page_seo: a site never cited, or cited in far fewer answers than the best competitor site', () => {
    const never = deriveRecommendations(signals({ prompts: [prompt('a', 10, 50)] }));
    expect(of(never, 'on_page_seo')).toEqual([
      expect.objectContaining({
        fingerprint: 'on_page_seo:site:acme.com',
        effort: 'major',
        targets: [{ type: 'domain', value: 'acme.com' }, { type: 'page_type', value: 'homepage' }],
        gap: 40,
      }),
    ]);
    const page = cited('https://acme.com/', 3, 2, { a: 5 });
    const behind = signals({ ownPages: [page], project: { responses: 500, visibility: 40, cvr: 5, bestSite: { name: 'Rival', domain: 'rival.com', rate: 30 }, competitors: [] } });
    expect(of(deriveRecommendations(behind), 'on_page_seo')).toEqual([expect.objectContaining({ effort: 'moderate', gap: 25, priority: 'high' })]);
    const close = signals({ ownPages: [page], project: { ...behind.project, cvr: 25 } });
    expect(of(deriveRecommendations(close), 'on_page_seo')).toEqual([]);
    const tooFew = signals({ project: { ...behind.project, responses: RULES.siteMinResponses - 1 } });
    expect(of(deriveRecommendations(tooFew), 'on_page_seo')).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------
// The task, end to end on a seeded project (the real collection and analysis path).

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ providersMode: 'simulated', rateLimitWindowMs: 100 });
});
afterAll(async () => t?.stop());

const seed = (prompts = 10, days = 30) => seedProject(t.runtime.ctx, { prompts, providers: [...PROVIDERS], days, competitors: 5 });

type Item = {
  id: string;
  category: string;
  status: string;
  targets: Array<{ type: string; value: string }>;
  execution: { type: string };
  depends_on: string[];
  priority: string;
  effort: string | null;
  expected_impact_min: number;
  expected_impact_max: number;
  group: string | null;
  title: string;
  description: string;
};

async function recommend(s: SeedResult) {
  const api = client(t.app, s.apiKey);
  const res = await api.post(`/projects/${s.projectId}/actions/recommend`);
  expect(res.statusCode).toBe(200);
  return res.json().data.task_id as string;
}

async function finished(s: SeedResult, taskId: string) {
  const api = client(t.app, s.apiKey);
  return until(async () => {
    const task = (await api.get(`/projects/${s.projectId}/actions/tasks/${taskId}`)).json().data;
    return task.status !== 'running' && task;
  });
}

const listActions = async (s: SeedResult, query = ''): Promise<Item[]> =>
  (await client(t.app, s.apiKey).get(`/projects/${s.projectId}/actions${query}`)).json().data;

/** Holds the writer until released, so a test sees the task while it runs. */
function holdWriter() {
  const writer: Writer = t.runtime.ctx.ports.writer;
  const original = writer.wordRecommendation;
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  writer.wordRecommendation = async (input) => {
    await gate;
    return original.call(writer, input);
  };
  return () => {
    writer.wordRecommendation = original;
    release();
  };
}

describe('POST /actions/recommend on a seeded project (10 prompts × 5 providers × 30 days)', () => {
  let s: SeedResult;
  let first: Item[];
  beforeAll(async () => {
    s = await seed();
  });

  it('the task runs, then completes with actions of all four categories whose targets come from the data', async () => {
    const release = holdWriter();
    let taskId: string;
    try {
      taskId = await recommend(s);
      const api = client(t.app, s.apiKey);
      const running = await api.get(`/projects/${s.projectId}/actions/tasks/${taskId}`);
      expect(running.json()).toEqual({ success: true, data: { status: 'running', item_count: 0, error: null } });
    } finally {
      release();
    }
    const task = await finished(s, taskId);
    first = await listActions(s);
    expect(task).toEqual({ status: 'completed', item_count: first.length, error: null });
    expect(new Set(first.map((a) => a.category))).toEqual(new Set(['new_content', 'content_update', 'forum_engagement', 'on_page_seo']));
    for (const a of first) {
      expect(a.status).toBe('suggested');
      expect(a.title.length).toBeGreaterThan(0);
      expect(a.description.length).toBeGreaterThan(0);
      expect(['critical', 'high', 'medium', 'low']).toContain(a.priority);
      expect(['quick-win', 'moderate', 'major']).toContain(a.effort);
      expect(a.expected_impact_min).toBeGreaterThan(0);
      expect(a.expected_impact_max).toBeGreaterThanOrEqual(a.expected_impact_min);
      expect(a.expected_impact_max).toBeLessThanOrEqual(100);
      expect(a.targets.length).toBeGreaterThan(0);
    }

    const q = async (sql: string) => (await t.runtime.ctx.store.query<{ v: string }>(sql, [s.projectId])).rows.map((r) => r.v);
    const prompts = await q(`select content as v from prompts where project_id = $1`);
    const ownUrls = await q(`select distinct url as v from ${CITATIONS} where project_id = $1 and domain = 'acmecrm.com'`);
    const threads = await q(`select distinct url as v from ${CITATIONS} where project_id = $1 and category = 4 and url_type = 6 and not mentioned`);
    const analytics = await client(t.app, s.apiKey).get(`/projects/${s.projectId}/sources/analytics?duration_days=30`);
    const opportunities = analytics.json().data.opportunities.map((o: { domain: string }) => o.domain);

    const byCategory = (c: string) => first.filter((a) => a.category === c);
    for (const a of byCategory('new_content')) {
      expect(a.execution.type).toBe('publishable_content');
      expect(prompts).toContain(a.targets[0].value);
    }
    for (const a of byCategory('content_update')) {
      expect(['prompt', 'manual']).toContain(a.execution.type);
      expect(ownUrls).toContain(a.targets[0].value);
    }
    for (const a of byCategory('forum_engagement')) {
      expect(a.execution.type).toBe('forum_reply');
      expect(threads).toContain(a.targets[0].value);
    }
    for (const a of byCategory('on_page_seo')) {
      expect(a.execution.type).toBe('manual');
      const domain = a.targets.find((x) => x.type === 'domain')!.value;
      expect(domain === 'acmecrm.com' || opportunities.includes(domain)).toBe(true);
    }

    // dependencies: real ids of this project's new_content actions, at least one of them
    const ids = new Map(first.map((a) => [a.id, a]));
    const withDeps = first.filter((a) => a.depends_on.length);
    expect(withDeps.length).toBeGreaterThan(0);
    for (const a of withDeps) {
      expect(['content_update', 'forum_engagement']).toContain(a.category);
      for (const d of a.depends_on) expect(ids.get(d)?.category).toBe('new_content');
    }
  });

  it('a second run creates nothing: open actions are never duplicated', async () => {
    const task = await finished(s, await recommend(s));
    expect(task).toEqual({ status: 'completed', item_count: 0, error: null });
    const again = await listActions(s);
    expect(again.map((a) => a.id).sort()).toEqual(first.map((a) => a.id).sort());
    const dup = await t.runtime.ctx.store.query(
      `select fingerprint from actions where project_id = $1 group by fingerprint having count(*) > 1`,
      [s.projectId],
    );
    expect(dup.rows).toEqual([]);
  });

  it('an ignored recommendation and one completed inside the window stay settled; one completed before it comes back', async () => {
    const api = client(t.app, s.apiKey);
    const base = `/projects/${s.projectId}/actions`;
    const forum = first.find((a) => a.category === 'forum_engagement')!;
    expect((await api.patch(`${base}/${forum.id}/ignore`, { reason: 'we do not post on forums' })).statusCode).toBe(200);
    const [oldDone, newDone] = first.filter((a) => a.category === 'new_content');
    for (const a of [oldDone, newDone]) {
      for (const op of ['accept', 'start', 'complete']) expect((await api.patch(`${base}/${a.id}/${op}`)).statusCode).toBe(200);
    }
    await t.runtime.ctx.store.query(`update actions set updated_at = now() - interval '40 days' where id = $1`, [oldDone.id]);

    const task = await finished(s, await recommend(s));
    expect(task).toEqual({ status: 'completed', item_count: 1, error: null });
    const now = await listActions(s);
    const fresh = now.filter((a) => !first.some((f) => f.id === a.id));
    expect(fresh).toHaveLength(1);
    expect(fresh[0]).toMatchObject({ category: 'new_content', targets: oldDone.targets, status: 'suggested' });
    expect(now.filter((a) => a.targets[0].value === forum.targets[0].value)).toHaveLength(1);
  });
  it("POST /actions/enrich grounds the writer in the project's figures", async () => {
    const api = client(t.app, s.apiKey);
    const { rows } = await t.runtime.ctx.store.query<{ content: string }>(
      `select content from prompts where project_id = $1 order by content limit 1`,
      [s.projectId],
    );
    const res = await api.post(`/projects/${s.projectId}/actions/enrich`, { action_type: 'new_content', keywords: [rows[0].content] });
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data.targets).toEqual(expect.arrayContaining([{ type: 'keyword', value: rows[0].content }]));
    // the window's answers, and the keyword's own figures since it is a tracked prompt
    expect(data.description).toMatch(/answers: \d{3,}/);
    expect(data.description).toMatch(/keyword visibility pct: \d/);
  });
});

describe('recommendation tasks under concurrency and failure', () => {
  it('two runs at once never open the same recommendation twice', async () => {
    const s = await seed(6, 20);
    const tasks = await Promise.all([recommend(s), recommend(s)]);
    const done = await Promise.all(tasks.map((id) => finished(s, id)));
    for (const d of done) expect(d.status).toBe('completed');
    const list = await listActions(s);
    expect(done[0].item_count + done[1].item_count).toBe(list.length);
    expect(list.length).toBeGreaterThan(0);
    const dup = await t.runtime.ctx.store.query(
      `select fingerprint from actions where project_id = $1 group by fingerprint having count(*) > 1`,
      [s.projectId],
    );
    expect(dup.rows).toEqual([]);
  });

  it('a failing attempt is retried (task stays running); the last attempt marks the task failed with the error', async () => {
    const s = await seed(5, 10);
    const writer: Writer = t.runtime.ctx.ports.writer;
    const original = writer.wordRecommendation;
    writer.wordRecommendation = async () => {
      throw new Error('writer unavailable');
    };
    try {
      const newTask = async () =>
        (
          await t.runtime.ctx.store.query<{ id: string }>(`insert into recommendation_tasks (project_id) values ($1) returning id`, [s.projectId])
        ).rows[0].id;
      const taskId = await newTask();
      const p = { projectId: s.projectId, taskId };
      const api = client(t.app, s.apiKey);
      await expect(runRecommendTask(t.runtime.ctx, p, false)).rejects.toThrow('writer unavailable');
      expect((await api.get(`/projects/${s.projectId}/actions/tasks/${taskId}`)).json().data).toEqual({ status: 'running', item_count: 0, error: null });
      await expect(runRecommendTask(t.runtime.ctx, p, true)).rejects.toThrow('writer unavailable');
      expect((await api.get(`/projects/${s.projectId}/actions/tasks/${taskId}`)).json().data).toEqual({
        status: 'failed',
        item_count: 0,
        error: 'writer unavailable',
      });
      // a late attempt of a settled task changes nothing
      await expect(runRecommendTask(t.runtime.ctx, p, true)).resolves.toBeNull();

      // the registry's handler knows its last attempt from pg-boss's retry count
      const other = await newTask();
      const job = { projectId: s.projectId, taskId: other };
      const handle = jobRegistry.find((b) => b.spec === recommendJob)!.handle;
      await expect(handle(t.runtime.ctx, job, { id: 'j', retryCount: 0 })).rejects.toThrow();
      expect((await api.get(`/projects/${s.projectId}/actions/tasks/${other}`)).json().data.status).toBe('running');
      await expect(handle(t.runtime.ctx, job, { id: 'j', retryCount: recommendJob.retry.limit })).rejects.toThrow();
      expect((await api.get(`/projects/${s.projectId}/actions/tasks/${other}`)).json().data.status).toBe('failed');
      expect(await listActions(s)).toEqual([]);
    } finally {
      writer.wordRecommendation = original;
    }
  });
});
