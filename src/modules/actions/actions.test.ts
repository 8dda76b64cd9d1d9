import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, createAccount, createProject, setTeam, startTestApp, type TestApp, errorBody } from '../../../test/helpers.js';
import { OPERATIONS, STATUSES } from './schema.js';
import { TRANSITIONS } from './service.js';

let t: TestApp;
beforeAll(async () => {
  // role 'api': no workers, so a recommendation task stays `running`; a short rate-limit window
  // lets one file create many accounts and make many moves with one key
  t = await startTestApp({ role: 'api', rateLimitWindowMs: 100 });
});
afterAll(async () => t?.stop());

type Api = ReturnType<typeof client>;
type Item = { id: string; status: string; group: string | null; created_at: string; updated_at: string; title: string };

const ITEM_FIELDS = [
  'category',
  'created_at',
  'depends_on',
  'description',
  'effort',
  'execution',
  'expected_impact_max',
  'expected_impact_min',
  'group',
  'id',
  'priority',
  'status',
  'targets',
  'title',
  'updated_at',
];

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** A team (plan pro) with `n` projects, its admin client and a viewer client. */
async function setup(n = 1) {
  const acct = await createAccount(t.app);
  // premium (350 a minute): the transition matrix alone makes about 150 requests with one key
  await setTeam(t, acct.teamId, { plan: 'pro', rate_limit_tier: 'premium' });
  const api = client(t.app, acct.key);
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push(await createProject(t.app, acct.key, { brand_name: 'Acme', brand_url: 'https://acme.com/' }));
  const viewerKey = (await api.post('/keys', { scope: 'viewer' })).json().data.api_key;
  return { api, key: acct.key, viewer: client(t.app, viewerKey), projectId: ids[0], ids, teamId: acct.teamId };
}

const BODY = {
  title: 'Publish a comparison of Acme and Rival',
  description: 'Answer engines name Rival for "best CRM"; a comparison page gives them a source.',
  category: 'new_content',
  priority: 'high',
  execution: { type: 'publishable_content' },
};

async function create(api: Api, projectId: string, body: Record<string, unknown> = {}): Promise<Item> {
  const res = await api.post(`/projects/${projectId}/actions`, { ...BODY, ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data;
}

const move = (api: Api, projectId: string, id: string, op: string, body?: unknown) =>
  api.patch(`/projects/${projectId}/actions/${id}/${op}`, body);

/** The operations that lead from suggested to each status. */
const PATH: Record<string, string[]> = {
  suggested: [],
  accepted: ['accept'],
  in_progress: ['accept', 'start'],
  completed: ['accept', 'start', 'complete'],
  ignored: ['ignore'],
};

async function inStatus(api: Api, projectId: string, status: string): Promise<Item> {
  const item = await create(api, projectId, { title: `An action in ${status}` });
  for (const op of PATH[status]) expect((await move(api, projectId, item.id, op)).statusCode).toBe(200);
  return item;
}

describe('POST /projects/{project_id}/actions', () => {
  it('creates a suggested action (201, Envelope A) with every ActionItem field', async () => {
    const { api, projectId } = await setup();
    const res = await api.post(`/projects/${projectId}/actions`, BODY);
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['data', 'success']);
    expect(body.success).toBe(true);
    expect(Object.keys(body.data).sort()).toEqual(ITEM_FIELDS);
    expect(body.data).toMatchObject({
      title: BODY.title,
      description: BODY.description,
      category: 'new_content',
      priority: 'high',
      status: 'suggested',
      effort: null,
      expected_impact_min: null,
      expected_impact_max: null,
      targets: [],
      execution: { type: 'publishable_content', prompt: null, skill: null, params: null },
      group: null,
      depends_on: [],
    });
    expect(body.data.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.data.created_at).toMatch(ISO);
    expect(body.data.updated_at).toMatch(ISO);
    const got = await api.get(`/projects/${projectId}/actions/${body.data.id}`);
    expect(got.json().data).toEqual(body.data);
  });

  it('keeps the optional fields: targets, effort, expected impact, execution prompt and skill, group', async () => {
    const { api, projectId } = await setup();
    const item = await create(api, projectId, {
      category: 'content_update',
      priority: 'critical',
      targets: [
        { type: 'url', value: 'https://acme.com/pricing' },
        { type: 'keyword', value: 'crm pricing' },
      ],
      effort: 'quick-win',
      expected_impact_min: 2,
      expected_impact_max: 6.5,
      execution: { type: 'prompt', prompt: 'Rewrite the pricing page intro', skill: 'page_edit' },
      group: 'pricing',
    });
    expect(item).toMatchObject({
      category: 'content_update',
      priority: 'critical',
      targets: [
        { type: 'url', value: 'https://acme.com/pricing' },
        { type: 'keyword', value: 'crm pricing' },
      ],
      effort: 'quick-win',
      expected_impact_min: 2,
      expected_impact_max: 6.5,
      execution: { type: 'prompt', prompt: 'Rewrite the pricing page intro', skill: 'page_edit', params: null },
      group: 'pricing',
    });
  });

  it.each([
    [{ title: undefined }, 'title is required'],
    [{ title: '   ' }, 'title must not be empty'],
    [{ description: undefined }, 'description is required'],
    [{ category: undefined }, 'category is required'],
    [{ category: 'blog_post' }, 'category must be one of: on_page_seo, new_content, content_update, forum_engagement'],
    [{ priority: undefined }, 'priority is required'],
    [{ priority: 'urgent' }, 'priority must be one of: critical, high, medium, low'],
    [{ execution: undefined }, 'execution is required'],
    [{ execution: 'manual' }, 'execution must be an object {type, prompt?, skill?}'],
    [{ execution: {} }, 'execution.type: is required'],
    [{ execution: { type: 'email' } }, 'execution.type: must be one of: prompt, publishable_content, forum_reply, manual'],
    [{ effort: 'huge' }, 'effort must be one of: quick-win, moderate, major'],
    [{ targets: [{ type: 'page', value: 'x' }] }, 'targets[0].type: must be one of: url, keyword, page_type, domain'],
    [{ targets: 'https://acme.com' }, 'targets must be an array of {type, value}'],
    [{ expected_impact_min: 8, expected_impact_max: 2 }, 'expected_impact_min must not be greater than expected_impact_max'],
    [{ expected_impact_max: 120 }, 'expected_impact_max must be a number from 0 to 100'],
    [{ expected_impact_min: -1 }, 'expected_impact_min must be a number from 0 to 100'],
    [{ status: 'completed' }, 'Unknown field: status'],
  ])('400 for %j: %s', async (patch, detail) => {
    const { api, projectId } = await setup();
    const res = await api.post(`/projects/${projectId}/actions`, { ...BODY, ...patch });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(errorBody(detail));
    expect((await api.get(`/projects/${projectId}/actions`)).json().data).toEqual([]);
  });
});

describe('GET /projects/{project_id}/actions and /actions/{action_id}', () => {
  it('lists newest first, filtered by status and by group', async () => {
    const { api, projectId } = await setup();
    const first = await create(api, projectId, { title: 'First', group: 'content' });
    const second = await create(api, projectId, { title: 'Second', group: 'forums' });
    const third = await create(api, projectId, { title: 'Third', group: 'content' });
    expect((await move(api, projectId, second.id, 'accept')).statusCode).toBe(200);

    const all = await api.get(`/projects/${projectId}/actions`);
    expect(all.statusCode).toBe(200);
    expect(all.json().success).toBe(true);
    expect(all.json().data.map((a: Item) => a.id)).toEqual([third.id, second.id, first.id]);
    for (const a of all.json().data) expect(Object.keys(a).sort()).toEqual(ITEM_FIELDS);

    const accepted = (await api.get(`/projects/${projectId}/actions?status=accepted`)).json().data;
    expect(accepted.map((a: Item) => a.id)).toEqual([second.id]);
    const content = (await api.get(`/projects/${projectId}/actions?group=content`)).json().data;
    expect(content.map((a: Item) => a.id)).toEqual([third.id, first.id]);
    const both = (await api.get(`/projects/${projectId}/actions?group=content&status=suggested`)).json().data;
    expect(both).toHaveLength(2);
    expect((await api.get(`/projects/${projectId}/actions?status=ignored`)).json().data).toEqual([]);
  });

  it('400 for an unknown status filter or query parameter', async () => {
    const { api, projectId } = await setup();
    const bad = await api.get(`/projects/${projectId}/actions?status=done`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().detail).toBe('status must be one of: suggested, accepted, in_progress, completed, ignored');
    expect((await api.get(`/projects/${projectId}/actions?sort=asc`)).statusCode).toBe(400);
  });

  it('404 Action not found for an unknown id or an action of another project of the team', async () => {
    const { api, ids } = await setup(2);
    const other = await create(api, ids[1]);
    for (const id of [crypto.randomUUID(), other.id]) {
      const res = await api.get(`/projects/${ids[0]}/actions/${id}`);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(errorBody('Action not found'));
    }
    expect((await api.get(`/projects/${ids[0]}/actions/not-a-uuid`)).statusCode).toBe(400);
  });
});

describe('PATCH /projects/{project_id}/actions/{action_id}/{action}', () => {
  it('walks suggested → accepted → in_progress → completed, each move returning the updated action', async () => {
    const { api, projectId } = await setup();
    const item = await create(api, projectId);
    let last = item.updated_at;
    for (const [op, status] of [
      ['accept', 'accepted'],
      ['start', 'in_progress'],
      ['complete', 'completed'],
    ]) {
      const res = await move(api, projectId, item.id, op);
      expect(res.statusCode).toBe(200);
      expect(res.json().success).toBe(true);
      expect(res.json().data).toMatchObject({ id: item.id, status, title: item.title, created_at: item.created_at });
      expect(res.json().data.updated_at >= last).toBe(true);
      last = res.json().data.updated_at;
    }
    expect((await api.get(`/projects/${projectId}/actions/${item.id}`)).json().data.status).toBe('completed');
  });

  it('ignore keeps the reason and feedback; reopen moves an ignored action to accepted', async () => {
    const { api, projectId } = await setup();
    const item = await create(api, projectId);
    const ignored = await move(api, projectId, item.id, 'ignore', { reason: 'not relevant', feedback: 'we do not sell to startups' });
    expect(ignored.statusCode).toBe(200);
    expect(ignored.json().data.status).toBe('ignored');
    const { rows } = await t.runtime.ctx.store.query<{ ignore_reason: string; ignore_feedback: string }>(
      `select ignore_reason, ignore_feedback from actions where id = $1`,
      [item.id],
    );
    expect(rows[0]).toEqual({ ignore_reason: 'not relevant', ignore_feedback: 'we do not sell to startups' });
    const reopened = await move(api, projectId, item.id, 'reopen');
    expect(reopened.statusCode).toBe(200);
    expect(reopened.json().data.status).toBe('accepted');
  });

  it('every operation from every status: the five moves of the table succeed, every other is a 400 naming the action and its status', async () => {
    const { api, projectId } = await setup();
    for (const status of STATUSES) {
      for (const op of OPERATIONS) {
        const item = await inStatus(api, projectId, status);
        const res = await move(api, projectId, item.id, op);
        const rule = TRANSITIONS[op];
        if (rule.from === status) {
          expect(res.statusCode, `${op} from ${status}`).toBe(200);
          expect(res.json().data.status).toBe(rule.to);
        } else {
          expect(res.statusCode, `${op} from ${status}`).toBe(400);
          expect(res.json().detail).toBe(`Cannot ${op} action ${item.id}: it is ${status}; ${op} applies only to a ${rule.from} action`);
          expect((await api.get(`/projects/${projectId}/actions/${item.id}`)).json().data.status).toBe(status);
        }
      }
    }
  });

  it('400 for an unknown operation, 404 for an unknown action, 400 for a body on a move other than ignore', async () => {
    const { api, key, projectId } = await setup();
    const item = await create(api, projectId);
    const unknownOp = await move(api, projectId, item.id, 'finish');
    expect(unknownOp.statusCode).toBe(400);
    expect(unknownOp.json().detail).toBe('action must be one of: accept, start, complete, ignore, reopen');
    const missing = await move(api, projectId, crypto.randomUUID(), 'accept');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual(errorBody('Action not found'));
    const withBody = await move(api, projectId, item.id, 'accept', { reason: 'why not' });
    expect(withBody.statusCode).toBe(400);
    expect(withBody.json().detail).toBe('reason and feedback apply only to ignore');
    expect((await move(api, projectId, item.id, 'ignore', { because: 'x' })).statusCode).toBe(400);
    // a move without any body at all
    const bare = await t.app.inject({ method: 'PATCH', url: `/v1/projects/${projectId}/actions/${item.id}/accept`, headers: { 'x-api-key': key } });
    expect(bare.statusCode).toBe(200);
    expect(bare.json().data.status).toBe('accepted');
  });

  it('two identical concurrent moves of one action: exactly one succeeds', async () => {
    const { api, projectId } = await setup();
    for (let i = 0; i < 5; i++) {
      const item = await create(api, projectId);
      const results = await Promise.all([move(api, projectId, item.id, 'accept'), move(api, projectId, item.id, 'accept')]);
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400]);
      const loser = results.find((r) => r.statusCode === 400)!;
      expect(loser.json().detail).toBe(`Cannot accept action ${item.id}: it is accepted; accept applies only to a suggested action`);
      // and two different moves from the same state: ignore and accept
      const other = await create(api, projectId);
      const raced = await Promise.all([move(api, projectId, other.id, 'accept'), move(api, projectId, other.id, 'ignore')]);
      expect(raced.map((r) => r.statusCode).sort()).toEqual([200, 400]);
    }
  });
});

describe('POST /projects/{project_id}/actions/batch-transition', () => {
  it('tries each id on its own: unknown ids, malformed ids, other projects and invalid moves count as failed', async () => {
    const { api, ids } = await setup(2);
    const [projectId] = ids;
    const a = await create(api, projectId);
    const b = await create(api, projectId);
    const accepted = await inStatus(api, projectId, 'accepted');
    const elsewhere = await create(api, ids[1]);
    const res = await api.post(`/projects/${projectId}/actions/batch-transition`, {
      ids: [a.id, b.id, accepted.id, crypto.randomUUID(), 'not-a-uuid', elsewhere.id, a.id],
      action: 'accept',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, data: { succeeded: 2, failed: 5, total: 7 } });
    const list = (await api.get(`/projects/${projectId}/actions?status=accepted`)).json().data.map((x: Item) => x.id);
    expect(list.sort()).toEqual([a.id, b.id, accepted.id].sort());
    expect((await api.get(`/projects/${ids[1]}/actions/${elsewhere.id}`)).json().data.status).toBe('suggested');

    const started = await api.post(`/projects/${projectId}/actions/batch-transition`, { ids: [a.id, b.id, accepted.id], action: 'start' });
    expect(started.json().data).toEqual({ succeeded: 3, failed: 0, total: 3 });
  });

  it.each([
    ['ids must not be empty', { ids: [], action: 'accept' }],
    ['ids is required', { action: 'accept' }],
    ['ids must be an array of action ids', { ids: 'abc', action: 'accept' }],
    ['ids must contain at most 100 items', { ids: Array.from({ length: 101 }, () => crypto.randomUUID()), action: 'accept' }],
    ['action must be one of: accept, start, complete, ignore, reopen', { ids: [crypto.randomUUID()], action: 'finish' }],
    ['action is required', { ids: [crypto.randomUUID()] }],
  ])('400 %s', async (detail, body) => {
    const { api, projectId } = await setup();
    const res = await api.post(`/projects/${projectId}/actions/batch-transition`, body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(errorBody(detail));
  });
});

describe('recommendation tasks (no worker in this file: the task stays running)', () => {
  it('POST /actions/recommend answers {task_id} and enqueues the job; the task reads running', async () => {
    const { api, projectId } = await setup();
    const res = await api.post(`/projects/${projectId}/actions/recommend`);
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json().data)).toEqual(['task_id']);
    const taskId = res.json().data.task_id;
    const task = await api.get(`/projects/${projectId}/actions/tasks/${taskId}`);
    expect(task.statusCode).toBe(200);
    expect(task.json()).toEqual({ success: true, data: { status: 'running', item_count: 0, error: null } });
    const { rows } = await t.runtime.ctx.store.query<{ data: { taskId: string; projectId: string } }>(
      `select data from pgboss.job where name = 'actions-recommend' and data->>'taskId' = $1`,
      [taskId],
    );
    expect(rows.map((r) => r.data)).toEqual([{ projectId, taskId }]);
  });

  it("404 for an unknown task or another project's task", async () => {
    const { api, ids } = await setup(2);
    const other = (await api.post(`/projects/${ids[1]}/actions/recommend`)).json().data.task_id;
    for (const id of [other, crypto.randomUUID()]) {
      const res = await api.get(`/projects/${ids[0]}/actions/tasks/${id}`);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(errorBody('Recommendation task not found'));
    }
  });
});

describe('POST /projects/{project_id}/actions/enrich', () => {
  it("returns the writer's fields for the described action", async () => {
    const { api, projectId } = await setup();
    const res = await api.post(`/projects/${projectId}/actions/enrich`, {
      action_type: 'content_update',
      target_url: 'https://acme.com/pricing',
      keywords: ['crm pricing'],
      instructions: 'Keep it short',
    });
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(Object.keys(data).sort()).toEqual(['description', 'effort', 'execution', 'expected_impact_max', 'expected_impact_min', 'targets', 'title']);
    expect(data.targets).toEqual(expect.arrayContaining([{ type: 'url', value: 'https://acme.com/pricing' }]));
    expect(data.title.length).toBeGreaterThan(0);
    expect(['prompt', 'publishable_content', 'forum_reply', 'manual']).toContain(data.execution.type);
  });

  it.each([
    [{}, 'action_type is required'],
    [{ action_type: 'blog' }, 'action_type must be one of: on_page_seo, new_content, content_update, forum_engagement'],
    [{ action_type: 'content_update', target_url: 'not a url' }, 'target_url must be an http(s) URL'],
    [{ action_type: 'new_content', keywords: 'crm' }, 'keywords must be an array of strings'],
  ])('400 for %j', async (body, detail) => {
    const { api, projectId } = await setup();
    const res = await api.post(`/projects/${projectId}/actions/enrich`, body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(errorBody(detail));
  });
});

describe('security', () => {
  const writes = (projectId: string, actionId: string) => [
    ['POST', `/projects/${projectId}/actions`, BODY],
    ['PATCH', `/projects/${projectId}/actions/${actionId}/accept`, {}],
    ['POST', `/projects/${projectId}/actions/batch-transition`, { ids: [actionId], action: 'accept' }],
    ['POST', `/projects/${projectId}/actions/recommend`, {}],
    ['POST', `/projects/${projectId}/actions/enrich`, { action_type: 'new_content' }],
  ] as const;

  it('a viewer key reads but gets 403 on every write, and nothing changes', async () => {
    const { api, viewer, projectId } = await setup();
    const item = await create(api, projectId);
    for (const [method, url, body] of writes(projectId, item.id)) {
      const res = method === 'POST' ? await viewer.post(url, body) : await viewer.patch(url, body);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().detail).toMatch(/read-only/);
    }
    expect((await viewer.get(`/projects/${projectId}/actions`)).statusCode).toBe(200);
    expect((await viewer.get(`/projects/${projectId}/actions/${item.id}`)).json().data.status).toBe('suggested');
    const list = (await api.get(`/projects/${projectId}/actions`)).json().data;
    expect(list).toHaveLength(1);
    const tasks = await t.runtime.ctx.store.query(`select 1 from recommendation_tasks where project_id = $1`, [projectId]);
    expect(tasks.rows).toHaveLength(0);
  });

  it("another team's project is 403 on every route, and its actions are untouched", async () => {
    const owner = await setup();
    const item = await create(owner.api, owner.projectId);
    const task = (await owner.api.post(`/projects/${owner.projectId}/actions/recommend`)).json().data.task_id;
    const intruder = await setup();
    const reads = [
      `/projects/${owner.projectId}/actions`,
      `/projects/${owner.projectId}/actions/${item.id}`,
      `/projects/${owner.projectId}/actions/tasks/${task}`,
    ];
    for (const url of reads) {
      const res = await intruder.api.get(url);
      expect(res.statusCode, url).toBe(403);
      expect(res.json()).toEqual(errorBody('Project does not belong to your team'));
    }
    for (const [method, url, body] of writes(owner.projectId, item.id)) {
      const res = method === 'POST' ? await intruder.api.post(url, body) : await intruder.api.patch(url, body);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
    }
    // its own project id with the other team's action id: not found, never moved
    expect((await move(intruder.api, intruder.projectId, item.id, 'accept')).statusCode).toBe(404);
    expect((await owner.api.get(`/projects/${owner.projectId}/actions/${item.id}`)).json().data.status).toBe('suggested');
  });

  it('401 without a key', async () => {
    const { projectId } = await setup();
    const anon = client(t.app);
    expect((await anon.get(`/projects/${projectId}/actions`)).statusCode).toBe(401);
    expect((await anon.post(`/projects/${projectId}/actions`, BODY)).statusCode).toBe(401);
  });
});
