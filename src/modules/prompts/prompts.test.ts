import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, createAccount, createProject, setTeam, startTestApp, type TestApp, errorBody } from '../../../test/helpers.js';

let t: TestApp;
beforeAll(async () => {
  // role 'api': no workers, so the bootstrap pipeline adds no prompts of its own
  t = await startTestApp({ role: 'api' });
});
afterAll(async () => t?.stop());

const PROMPT_FIELDS = [
  'content',
  'country',
  'created_at',
  'cvr',
  'id',
  'intent',
  'markets',
  'persona',
  'position',
  'position_ci',
  'project_id',
  'prompt_type',
  'responses',
  'sentiment',
  'sentiment_ci',
  'topic_id',
  'trend',
  'visibility',
  'visibility_ci',
  'volume',
];
const CREATED_FIELDS = ['content', 'country', 'createdAt', 'id', 'markets', 'persona', 'projectId', 'promptType', 'topicId'];

type Api = ReturnType<typeof client>;

async function newTopic(api: Api, projectId: string, name = `Topic ${crypto.randomUUID().slice(0, 8)}`): Promise<string> {
  const res = await api.post(`/projects/${projectId}/topics`, { name });
  expect(res.statusCode).toBe(201);
  return res.json().data.topic_id;
}

/** A team on `plan` with `projects` projects, each with one topic. */
async function setup(plan: string, projects = 1) {
  const acct = await createAccount(t.app);
  await setTeam(t, acct.teamId, { plan: 'pro' });
  const api = client(t.app, acct.key);
  const list: Array<{ id: string; topicId: string }> = [];
  for (let i = 0; i < projects; i++) {
    const id = await createProject(t.app, acct.key, { brand_name: `Brand ${i}`, brand_url: `https://brand${i}.com` });
    list.push({ id, topicId: await newTopic(api, id) });
  }
  await setTeam(t, acct.teamId, { plan });
  return { acct, api, projects: list, p: list[0] };
}

const many = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag} question number ${i + 1}`);

async function create(api: Api, p: { id: string; topicId: string }, prompts: string[], extra: Record<string, unknown> = {}) {
  return api.post(`/projects/${p.id}/prompts`, { prompts, topicId: p.topicId, ...extra });
}

describe('GET /projects/{project_id}/prompts', () => {
  it('{project_id, total: 0, prompts: []} for a new project', async () => {
    const { api, p } = await setup('basic');
    const res = await api.get(`/projects/${p.id}/prompts`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, data: { project_id: p.id, total: 0, prompts: [] } });
  });

  it('lists by creation date, request order kept within a batch, every Prompt field', async () => {
    const { api, p } = await setup('basic');
    const first = many(12, 'Zeta alpha');
    const shuffled = ['zz last-sorting text', 'aa first-sorting text', 'mm middle text'];
    expect((await create(api, p, first)).statusCode).toBe(200);
    expect((await create(api, p, shuffled)).statusCode).toBe(200);
    const res = await api.get(`/projects/${p.id}/prompts`);
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(Object.keys(data).sort()).toEqual(['project_id', 'prompts', 'total']);
    expect(data.project_id).toBe(p.id);
    expect(data.total).toBe(15);
    expect(data.prompts.map((x: { content: string }) => x.content)).toEqual([...first, ...shuffled]);
    for (const x of data.prompts) {
      expect(Object.keys(x).sort()).toEqual(PROMPT_FIELDS);
      expect(x).toMatchObject({
        project_id: p.id,
        prompt_type: 'active',
        topic_id: p.topicId,
        country: null,
      });
      // metrics belong to the analytics module; here only their types (no answers collected yet)
      for (const f of ['visibility', 'sentiment', 'position', 'volume', 'cvr']) expect([null, 'number']).toContain(x[f] === null ? null : typeof x[f]);
      expect(x.trend).toBeNull();
      expect(x.visibility ?? 0).toBe(0);
      expect(['informational', 'commercial', 'navigational', 'transactional']).toContain(x.intent);
    }
  });

  it("does not list another project's prompts", async () => {
    const { api, projects } = await setup('basic', 2);
    expect((await create(api, projects[0], ['only in the first project'])).statusCode).toBe(200);
    const res = await api.get(`/projects/${projects[1].id}/prompts`);
    expect(res.json().data).toEqual({ project_id: projects[1].id, total: 0, prompts: [] });
  });
});

describe('POST /projects/{project_id}/prompts', () => {
  let invalid: ReturnType<typeof setup> | undefined;

  it('200 Envelope B, camelCase create form, promptType Active, country upper-cased', async () => {
    const { api, p } = await setup('basic');
    const res = await create(api, p, ['best CRM for startups', '  what   is a   CRM  '], { country: 'us' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['code', 'data', 'message']);
    expect(body.code).toBe(200);
    expect(body.message).toBe('200 OK');
    expect(Object.keys(body.data).sort()).toEqual(['created', 'projectId', 'prompts']);
    expect(body.data.projectId).toBe(p.id);
    expect(body.data.created).toBe(2);
    expect(body.data.prompts).toHaveLength(2);
    for (const x of body.data.prompts) {
      expect(Object.keys(x).sort()).toEqual(CREATED_FIELDS);
      expect(x).toMatchObject({ projectId: p.id, promptType: 'Active', topicId: p.topicId, country: 'US' });
      expect(new Date(x.createdAt).toISOString()).toBe(x.createdAt);
    }
    expect(body.data.prompts.map((x: { content: string }) => x.content)).toEqual(['best CRM for startups', 'what is a CRM']);

    // the read form of each created prompt
    for (const x of body.data.prompts) {
      const one = await api.get(`/projects/${p.id}/prompts/${x.id}`);
      expect(one.statusCode).toBe(200);
      expect(one.json().data).toMatchObject({ id: x.id, content: x.content, prompt_type: 'active', country: 'US', topic_id: p.topicId });
    }
  });

  it('classifies intent from the wording', async () => {
    const { api, p } = await setup('basic');
    const cases: Record<string, string> = {
      'best CRM for startups': 'commercial',
      'HubSpot vs Salesforce for small teams': 'commercial',
      'buy hubspot license price': 'transactional',
      'hubspot login page': 'navigational',
      'what is a CRM': 'informational',
      'how does lead scoring work': 'informational',
    };
    expect((await create(api, p, Object.keys(cases))).statusCode).toBe(200);
    const list = (await api.get(`/projects/${p.id}/prompts`)).json().data.prompts;
    expect(Object.fromEntries(list.map((x: { content: string; intent: string }) => [x.content, x.intent]))).toEqual(cases);
  });

  it.each([
    ['an empty array', { prompts: [] }],
    ['51 items', { prompts: many(51, 'Too many') }],
    ['a whitespace-only item', { prompts: ['a real question', '   \t '] }],
    ['an empty string item', { prompts: [''] }],
    ['a missing topicId', { prompts: ['a question'], topicId: undefined }],
    ['a topicId that is not a UUID', { prompts: ['a question'], topicId: 'crm' }],
    ['an unknown topicId', { prompts: ['a question'], topicId: '6f1c1f7e-0000-4000-8000-000000000000' }],
    ['a missing prompts field', { prompts: undefined }],
    ['prompts as a string', { prompts: 'a question' }],
    ['a non-string item', { prompts: [42] }],
    ['a three-letter country', { prompts: ['a question'], country: 'USA' }],
    ['the same prompt twice', { prompts: ['Same Question', 'same   question'] }],
    ['an unknown field', { prompts: ['a question'], tags: ['x'] }],
  ])('400 for %s, and nothing is created', async (_label, patch) => {
    const { api, p } = await (invalid ??= setup('skip_trial'));
    const base = { prompts: ['x'], topicId: p.topicId };
    const res = await api.post(`/projects/${p.id}/prompts`, { ...base, ...patch });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(errorBody(expect.any(String)));
    expect((await api.get(`/projects/${p.id}/prompts`)).json().data.total).toBe(0);
  });

  it('400 (validation before quota) for 51 prompts even on a full quota', async () => {
    const { api, p } = await setup('skip_trial');
    expect((await create(api, p, many(25, 'Fill'))).statusCode).toBe(200);
    const res = await create(api, p, many(51, 'Over'));
    expect(res.statusCode).toBe(400);
  });

  it('400 names topicId when it is missing', async () => {
    const { api, p } = await setup('basic');
    const res = await api.post(`/projects/${p.id}/prompts`, { prompts: ['a question'] });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toMatch(/topicId/);
  });

  it('400 for a topic of another project, even of the same team', async () => {
    const { api, projects } = await setup('basic', 2);
    const res = await api.post(`/projects/${projects[0].id}/prompts`, { prompts: ['a question'], topicId: projects[1].topicId });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(errorBody(expect.any(String)));
  });

  it('409 for content already in the project, ignoring case and white space; the batch is all or nothing', async () => {
    const { api, projects } = await setup('basic', 2);
    const [p, q] = projects;
    expect((await create(api, p, ['Best CRM for startups'])).statusCode).toBe(200);
    for (const dup of ['best crm for startups', '  BEST   CRM  for startups ']) {
      const res = await create(api, p, ['a new question', dup]);
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual(errorBody(expect.any(String)));
    }
    const list = (await api.get(`/projects/${p.id}/prompts`)).json().data;
    expect(list.total).toBe(1);
    // another project may track the same text
    expect((await create(api, q, ['best crm for startups'])).statusCode).toBe(200);
  });

  it('429 past the plan quota of active prompts, counted per team across projects (skip_trial: 25)', async () => {
    const { api, projects } = await setup('skip_trial', 2);
    const [p, q] = projects;
    expect((await create(api, p, many(20, 'First project'))).statusCode).toBe(200);
    // 20 + 6 > 25: refused whole
    const over = await create(api, q, many(6, 'Second project'));
    expect(over.statusCode).toBe(429);
    // A code of its own: a client can tell it from a rate limit (which has Retry-After).
    expect(over.json()).toEqual(errorBody(expect.any(String), 'prompt_quota_reached'));
    expect(over.headers['retry-after']).toBeUndefined();
    expect((await api.get(`/projects/${q.id}/prompts`)).json().data.total).toBe(0);
    // exactly 25 fit
    const fit = await create(api, q, many(5, 'Second project'));
    expect(fit.statusCode).toBe(200);
    expect(fit.json().data.created).toBe(5);
    // the 26th does not, in either project
    for (const target of [p, q]) {
      const res = await create(api, target, ['one more question']);
      expect(res.statusCode).toBe(429);
    }
    const totals = await Promise.all([p, q].map(async (x) => (await api.get(`/projects/${x.id}/prompts`)).json().data.total));
    expect(totals).toEqual([20, 5]);
  });
});

describe('GET /projects/{project_id}/prompts/{prompt_id}', () => {
  it('the same Prompt as in the list', async () => {
    const { api, p } = await setup('basic');
    const created = (await create(api, p, ['what is a CRM'], { country: 'de' })).json().data.prompts[0];
    const one = await api.get(`/projects/${p.id}/prompts/${created.id}`);
    expect(one.statusCode).toBe(200);
    expect(one.json().success).toBe(true);
    const listed = (await api.get(`/projects/${p.id}/prompts`)).json().data.prompts[0];
    expect(one.json().data).toEqual(listed);
    expect(one.json().data).toMatchObject({ id: created.id, country: 'DE', intent: 'informational' });
  });

  it('404 for a prompt of another project and for an unknown id', async () => {
    const { api, projects } = await setup('basic', 2);
    const id = (await create(api, projects[0], ['a question'])).json().data.prompts[0].id;
    for (const url of [`/projects/${projects[1].id}/prompts/${id}`, `/projects/${projects[0].id}/prompts/${crypto.randomUUID()}`]) {
      const res = await api.get(url);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(errorBody(expect.any(String)));
    }
  });
});

describe('PATCH /projects/{project_id}/prompts/{prompt_id}', () => {
  async function withPrompt(plan = 'basic', projects = 1) {
    const s = await setup(plan, projects);
    const res = await create(s.api, s.p, ['what is a CRM'], { country: 'us' });
    expect(res.statusCode).toBe(200);
    return { ...s, prompt: res.json().data.prompts[0] as { id: string }, url: `/projects/${s.p.id}/prompts/${res.json().data.prompts[0].id}` };
  }

  let invalid: ReturnType<typeof withPrompt> | undefined;

  it('200 Envelope A with the full Prompt; content change re-classifies intent', async () => {
    const { api, p, prompt, url } = await withPrompt();
    const res = await api.patch(url, { content: '  best   CRM for agencies ', country: 'gb' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.success).toBe(true);
    expect(Object.keys(body.data).sort()).toEqual(PROMPT_FIELDS);
    expect(body.data).toMatchObject({
      id: prompt.id,
      project_id: p.id,
      content: 'best CRM for agencies',
      country: 'GB',
      prompt_type: 'active',
      topic_id: p.topicId,
      intent: 'commercial',
    });
    expect((await api.get(url)).json().data).toEqual(body.data);
  });

  it('moves a prompt to another topic of the project; 400 for a topic of another project', async () => {
    const { api, p, url, projects } = await withPrompt('basic', 2);
    const other = await newTopic(api, p.id, 'Second topic');
    const res = await api.patch(url, { topicId: other });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.topic_id).toBe(other);
    const bad = await api.patch(url, { topicId: projects[1].topicId });
    expect(bad.statusCode).toBe(400);
    expect((await api.get(url)).json().data.topic_id).toBe(other);
  });

  it.each([
    ['an empty body', {}],
    ['whitespace-only content', { content: '   ' }],
    ['empty content', { content: '' }],
    ['an unknown promptType', { promptType: 'Archived' }],
    ['a lower-case promptType', { promptType: 'active' }],
    ['an unknown field', { prompt_type: 'inactive' }],
    ['a bad country', { country: 'United States' }],
  ])('400 for %s', async (_label, body) => {
    const { api, url } = await (invalid ??= withPrompt());
    const res = await api.patch(url, body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(errorBody(expect.any(String)));
    expect((await api.get(url)).json().data).toMatchObject({ content: 'what is a CRM', prompt_type: 'active', country: 'US' });
  });

  it('400 when no field changes', async () => {
    const { api, p, url } = await withPrompt();
    for (const body of [
      { content: 'what is a CRM' },
      { content: '  what   is a CRM ' },
      { country: 'us' },
      { promptType: 'Active' },
      { topicId: p.topicId },
      { content: 'what is a CRM', country: 'US', promptType: 'Active' },
    ]) {
      const res = await api.patch(url, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
  });

  it('409 when the new content equals another prompt of the project', async () => {
    const { api, p, url } = await withPrompt();
    expect((await create(api, p, ['Best CRM tools'])).statusCode).toBe(200);
    const res = await api.patch(url, { content: 'best crm TOOLS' });
    expect(res.statusCode).toBe(409);
  });

  it('Inactive then Active again; re-activation counts against the quota', async () => {
    const { api, p, url } = await withPrompt('skip_trial');
    const off = await api.patch(url, { promptType: 'Inactive' });
    expect(off.statusCode).toBe(200);
    expect(off.json().data.prompt_type).toBe('inactive');
    const suggested = await api.patch(url, { promptType: 'Suggested' });
    expect(suggested.json().data.prompt_type).toBe('suggested');
    const on = await api.patch(url, { promptType: 'Active' });
    expect(on.statusCode).toBe(200);
    expect(on.json().data.prompt_type).toBe('active');

    // deactivate, fill the quota with 25 others, then re-activation is refused
    expect((await api.patch(url, { promptType: 'Inactive' })).statusCode).toBe(200);
    expect((await create(api, p, many(25, 'Filler'))).statusCode).toBe(200);
    const full = await api.patch(url, { promptType: 'Active' });
    expect(full.statusCode).toBe(429);
    expect(full.json().code).toBe('prompt_quota_reached');
    expect(full.headers['retry-after']).toBeUndefined();
    expect(full.json()).toEqual(errorBody(expect.any(String)));
    expect((await api.get(url)).json().data.prompt_type).toBe('inactive');
    // an edit that keeps it inactive is not a quota matter
    expect((await api.patch(url, { content: 'what is a CRM system' })).statusCode).toBe(200);
    // freeing one slot lets it back in
    const filler = (await api.get(`/projects/${p.id}/prompts`)).json().data.prompts.find((x: { content: string }) => x.content.startsWith('Filler'));
    expect((await api.patch(`/projects/${p.id}/prompts/${filler.id}`, { promptType: 'Inactive' })).statusCode).toBe(200);
    expect((await api.patch(url, { promptType: 'Active' })).statusCode).toBe(200);
  });

  it('404 for a prompt of another project and an unknown prompt', async () => {
    const { api, projects, prompt } = await withPrompt('basic', 2);
    const res = await api.patch(`/projects/${projects[1].id}/prompts/${prompt.id}`, { content: 'hijacked' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual(errorBody(expect.any(String)));
    const unknown = await api.patch(`/projects/${projects[0].id}/prompts/${crypto.randomUUID()}`, { content: 'ghost' });
    expect(unknown.statusCode).toBe(404);
    expect((await api.get(`/projects/${projects[0].id}/prompts/${prompt.id}`)).json().data.content).toBe('what is a CRM');
  });
});

describe('DELETE /projects/{project_id}/prompts/{prompt_id}', () => {
  it('Envelope B {promptId, message}; then GET and DELETE are 404; the content can be used again', async () => {
    const { api, p } = await setup('basic');
    const id = (await create(api, p, ['what is a CRM', 'best CRM'])).json().data.prompts[0].id;
    const res = await api.delete(`/projects/${p.id}/prompts/${id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ code: 200, message: '200 OK', data: { promptId: id, message: expect.any(String) } });
    const get = await api.get(`/projects/${p.id}/prompts/${id}`);
    expect(get.statusCode).toBe(404);
    expect(get.json()).toEqual(errorBody(expect.any(String)));
    expect((await api.delete(`/projects/${p.id}/prompts/${id}`)).statusCode).toBe(404);
    const list = (await api.get(`/projects/${p.id}/prompts`)).json().data;
    expect(list.total).toBe(1);
    expect((await create(api, p, ['What is a CRM'])).statusCode).toBe(200);
  });

  it('404 for a prompt of another project, which stays', async () => {
    const { api, projects } = await setup('basic', 2);
    const id = (await create(api, projects[0], ['a question'])).json().data.prompts[0].id;
    const res = await api.delete(`/projects/${projects[1].id}/prompts/${id}`);
    expect(res.statusCode).toBe(404);
    expect((await api.get(`/projects/${projects[0].id}/prompts/${id}`)).statusCode).toBe(200);
  });

  it('frees quota: a deleted active prompt no longer counts', async () => {
    const { api, p } = await setup('skip_trial');
    const ids = (await create(api, p, many(25, 'Quota'))).json().data.prompts.map((x: { id: string }) => x.id);
    expect((await create(api, p, ['one too many'])).statusCode).toBe(429);
    expect((await api.delete(`/projects/${p.id}/prompts/${ids[0]}`)).statusCode).toBe(200);
    expect((await create(api, p, ['one too many'])).statusCode).toBe(200);
  });
});
