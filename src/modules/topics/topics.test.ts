import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, createAccount, createProject, setTeam, startTestApp, type Account, type TestApp, errorBody } from '../../../test/helpers.js';

let t: TestApp;
let acct: Account;
let projectId: string;
beforeAll(async () => {
  // role 'api': no workers, so the bootstrap pipeline does not add topics behind the tests' backs
  t = await startTestApp({ role: 'api' });
  acct = await createAccount(t.app);
  await setTeam(t, acct.teamId, { plan: 'pro' });
  projectId = await createProject(t.app, acct.key);
});
afterAll(async () => t?.stop());

const TOPIC_FIELDS = ['created_at', 'description', 'name', 'project_id', 'topic_id'];

describe('GET /projects/{project_id}/topics', () => {
  it('is an empty array for a new project', async () => {
    const id = await createProject(t.app, acct.key, { brand_name: 'Empty' });
    const res = await client(t.app, acct.key).get(`/projects/${id}/topics`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, data: [] });
  });

  it("lists the project's topics oldest first, Envelope A, only this project's", async () => {
    const id = await createProject(t.app, acct.key, { brand_name: 'Listed' });
    const api = client(t.app, acct.key);
    const names = ['Pricing', 'Integrations', 'Alternatives'];
    const created: string[] = [];
    for (const name of names) {
      const r = await api.post(`/projects/${id}/topics`, { name, description: `About ${name}` });
      expect(r.statusCode).toBe(201);
      created.push(r.json().data.topic_id);
    }
    // a topic of another project of the same team is not listed
    expect((await api.post(`/projects/${projectId}/topics`, { name: 'Elsewhere' })).statusCode).toBe(201);

    const res = await api.get(`/projects/${id}/topics`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['data', 'success']);
    expect(body.data.map((x: { topic_id: string }) => x.topic_id)).toEqual(created);
    expect(body.data.map((x: { name: string }) => x.name)).toEqual(names);
    for (const topic of body.data) {
      expect(Object.keys(topic).sort()).toEqual(TOPIC_FIELDS);
      expect(topic.project_id).toBe(id);
      expect(new Date(topic.created_at).toISOString()).toBe(topic.created_at);
    }
  });

  it('404 Project not found for an unknown project', async () => {
    const res = await client(t.app, acct.key).get(`/projects/${crypto.randomUUID()}/topics`);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual(errorBody('Project not found'));
  });
});

describe('POST /projects/{project_id}/topics', () => {
  it('201 Envelope A with the Topic; description optional (null)', async () => {
    const res = await client(t.app, acct.key).post(`/projects/${projectId}/topics`, { name: '  CRM software  ' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      success: true,
      data: {
        topic_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        project_id: projectId,
        name: 'CRM software',
        description: null,
        created_at: expect.any(String),
      },
    });
    const withDescription = await client(t.app, acct.key).post(`/projects/${projectId}/topics`, {
      name: 'Email marketing',
      description: 'Newsletters and campaigns',
    });
    expect(withDescription.statusCode).toBe(201);
    expect(withDescription.json().data.description).toBe('Newsletters and campaigns');
  });

  it('409 for a name already used in the project, in any case and spacing', async () => {
    const api = client(t.app, acct.key);
    expect((await api.post(`/projects/${projectId}/topics`, { name: 'Sales Automation' })).statusCode).toBe(201);
    for (const name of ['sales automation', '  SALES   automation ']) {
      const res = await api.post(`/projects/${projectId}/topics`, { name });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual(errorBody(expect.any(String)));
    }
    const list = (await api.get(`/projects/${projectId}/topics`)).json().data;
    expect(list.filter((x: { name: string }) => x.name.toLowerCase() === 'sales automation')).toHaveLength(1);
  });

  it('the same name is allowed in another project', async () => {
    const other = await createProject(t.app, acct.key, { brand_name: 'Other' });
    const api = client(t.app, acct.key);
    expect((await api.post(`/projects/${projectId}/topics`, { name: 'Shared name' })).statusCode).toBe(201);
    expect((await api.post(`/projects/${other}/topics`, { name: 'Shared name' })).statusCode).toBe(201);
  });

  it.each([[{}], [{ name: '' }], [{ name: '   ' }], [{ name: 7 }], [{ name: 'x'.repeat(201) }], [{ name: 'ok', color: 'red' }]])(
    '400 for %j',
    async (body) => {
      const res = await client(t.app, acct.key).post(`/projects/${projectId}/topics`, body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual(errorBody(expect.any(String)));
    },
  );

  it('400 name is required for a missing or blank name', async () => {
    for (const body of [{}, { name: '  ' }]) {
      const res = await client(t.app, acct.key).post(`/projects/${projectId}/topics`, body);
      expect(res.json()).toEqual(errorBody('name is required'));
    }
  });

  it("403 on another team's project, and nothing is written there", async () => {
    const stranger = await createAccount(t.app);
    const res = await client(t.app, stranger.key).post(`/projects/${projectId}/topics`, { name: 'Intrusion' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual(errorBody('Project does not belong to your team'));
    const list = (await client(t.app, acct.key).get(`/projects/${projectId}/topics`)).json().data;
    expect(list.map((x: { name: string }) => x.name)).not.toContain('Intrusion');
  });

  it('404 Project not found for an unknown project', async () => {
    const res = await client(t.app, acct.key).post(`/projects/${crypto.randomUUID()}/topics`, { name: 'Ghost' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual(errorBody('Project not found'));
  });
});

describe('PATCH and DELETE /projects/{project_id}/topics/{topic_id}', () => {
  const newTopic = async (name: string, pid = projectId) =>
    (await client(t.app, acct.key).post(`/projects/${pid}/topics`, { name, description: 'About it' })).json().data.topic_id as string;
  const promptsOf = async (topicId: string) =>
    (await t.runtime.ctx.store.query<{ n: number }>('select count(*)::int as n from prompts where topic_id = $1', [topicId])).rows[0].n;

  it('renames and clears the description; 400 on no change, 409 on a taken name', async () => {
    const api = client(t.app, acct.key);
    const id = await newTopic(`Edit ${Date.now()}`);
    const taken = await newTopic(`Taken ${Date.now()}`);
    const res = await api.patch(`/projects/${projectId}/topics/${id}`, { name: 'Pricing questions', description: null });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ topic_id: id, name: 'Pricing questions', description: null });
    expect((await api.patch(`/projects/${projectId}/topics/${id}`, { name: 'Pricing questions' })).json()).toEqual(
      errorBody('No field changed: the topic already has these values'),
    );
    expect((await api.patch(`/projects/${projectId}/topics/${id}`, {})).statusCode).toBe(400);
    const takenName = (await api.get(`/projects/${projectId}/topics`)).json().data.find((x: { topic_id: string }) => x.topic_id === taken).name;
    const dup = await api.patch(`/projects/${projectId}/topics/${id}`, { name: takenName.toUpperCase() });
    expect(dup.statusCode).toBe(409);
  });

  it('a topic with prompts is kept (409) unless move_to takes them; then it is gone', async () => {
    const api = client(t.app, acct.key);
    const from = await newTopic(`From ${Date.now()}`);
    const to = await newTopic(`To ${Date.now()}`);
    const created = await api.post(`/projects/${projectId}/prompts`, { prompts: [`Which tool for ${Date.now()}?`, `Best option ${Date.now()}?`], topicId: from });
    expect(created.statusCode).toBe(200);
    const held = await api.delete(`/projects/${projectId}/topics/${from}`);
    expect(held.statusCode).toBe(409);
    expect(held.json().detail).toMatch(/holds 2 prompts/);
    expect(await promptsOf(from)).toBe(2);
    expect((await api.delete(`/projects/${projectId}/topics/${from}?move_to=${from}`)).statusCode).toBe(400);
    const moved = await api.delete(`/projects/${projectId}/topics/${from}?move_to=${to}`);
    expect(moved.statusCode).toBe(200);
    expect(moved.json()).toEqual({ code: 200, message: '200 OK', data: { topicId: from, message: 'Topic deleted', moved_prompts: 2 } });
    expect(await promptsOf(to)).toBe(2);
    expect((await api.get(`/projects/${projectId}/topics`)).json().data.map((x: { topic_id: string }) => x.topic_id)).not.toContain(from);
    expect((await api.delete(`/projects/${projectId}/topics/${from}`)).statusCode).toBe(404);
    const empty = await newTopic(`Empty ${Date.now()}`);
    expect((await api.delete(`/projects/${projectId}/topics/${empty}`)).json().data.moved_prompts).toBe(0);
  });

  it("404 for a topic of another project and for move_to outside the project; 403 for a viewer", async () => {
    const api = client(t.app, acct.key);
    const otherProject = await createProject(t.app, acct.key, { brand_name: `Other ${Date.now()}` });
    const foreign = await newTopic(`Foreign ${Date.now()}`, otherProject);
    const mine = await newTopic(`Mine ${Date.now()}`);
    expect((await api.patch(`/projects/${projectId}/topics/${foreign}`, { name: 'X' })).statusCode).toBe(404);
    expect((await api.delete(`/projects/${projectId}/topics/${foreign}`)).statusCode).toBe(404);
    expect((await api.delete(`/projects/${projectId}/topics/${mine}?move_to=${foreign}`)).statusCode).toBe(404);
    const viewer = (await api.post('/keys', { scope: 'viewer' })).json().data.api_key;
    expect((await client(t.app, viewer).delete(`/projects/${projectId}/topics/${mine}`)).statusCode).toBe(403);
    expect((await api.get(`/projects/${projectId}/topics`)).json().data.map((x: { topic_id: string }) => x.topic_id)).toContain(mine);
  });
});
