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
