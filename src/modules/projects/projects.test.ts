import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, createAccount, createProject, setTeam, startTestApp, ZERO_UUID, type TestApp, errorBody } from '../../../test/helpers.js';

let t: TestApp;
// role 'api': no job workers, so the enqueued bootstrap stays in the queue to be inspected
// and never reaches out to the brand's site (the pipeline has its own tests).
beforeAll(async () => {
  t = await startTestApp({ role: 'api' });
});
afterAll(async () => t?.stop());

const VALID = { brand_name: 'Acme', brand_url: 'https://acme.com', webhook_url: 'https://hooks.acme.com/cb' };

async function bootstrapJobs(projectId: string) {
  const { rows } = await t.runtime.ctx.store.query<{ name: string; data: { projectId: string } }>(
    `select name, data from pgboss.job where name = 'project-bootstrap' and data->>'projectId' = $1`,
    [projectId],
  );
  return rows;
}

describe('POST /account/projects', () => {
  let invalidAcct: Awaited<ReturnType<typeof createAccount>> | undefined;

  it('202 Envelope B {project_id, status: initializing} and a stored project', async () => {
    const acct = await createAccount(t.app);
    const res = await client(t.app, acct.key).post('/account/projects', {
      brand_name: '  HubSpot ',
      brand_url: 'https://www.hubspot.com',
      webhook_url: 'https://hooks.example.com/sightline',
      language: 'EN',
      location: 'us',
    });
    expect(res.statusCode).toBe(202);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['code', 'data', 'message']);
    expect(body.code).toBe(202);
    expect(body.message).toBe('202 Accepted');
    expect(Object.keys(body.data).sort()).toEqual(['project_id', 'status']);
    expect(body.data.status).toBe('initializing');
    expect(body.data.project_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);

    const get = await client(t.app, acct.key).get(`/projects/${body.data.project_id}`);
    expect(get.statusCode).toBe(200);
    expect(get.json().data).toMatchObject({
      id: body.data.project_id,
      name: 'HubSpot',
      brand_name: 'HubSpot',
      location: 'US',
      language: 'en',
    });
    expect(get.json().data.website_url).toMatch(/^https:\/\/www\.hubspot\.com\/?$/);
    const stored = await t.runtime.ctx.store.query<{ team_id: string; webhook_url: string; status: string; domain: string }>(
      'select team_id, webhook_url, status, domain from projects where id = $1',
      [body.data.project_id],
    );
    expect(stored.rows[0]).toEqual({
      team_id: acct.teamId,
      webhook_url: 'https://hooks.example.com/sightline',
      status: 'initializing',
      domain: 'hubspot.com',
    });
  });

  it('enqueues one project-bootstrap job carrying the project id', async () => {
    const acct = await createAccount(t.app);
    const id = await createProject(t.app, acct.key);
    const jobs = await bootstrapJobs(id);
    expect(jobs).toHaveLength(1);
    expect(jobs[0].data.projectId).toBe(id);
  });

  it('enqueues the job in the project transaction: a failed send leaves neither project nor job', async () => {
    const acct = await createAccount(t.app);
    const jobs = t.runtime.ctx.jobs;
    const count = async () =>
      (await t.runtime.ctx.store.query<{ n: number }>(`select count(*)::int as n from pgboss.job where name = 'project-bootstrap'`))
        .rows[0].n;
    const before = await count();
    const send = jobs.send;
    // The job is written, then the request fails: both must roll back together.
    jobs.send = async function (this: typeof jobs, ...args: Parameters<typeof send>) {
      await send.apply(this, args);
      throw new Error('injected failure after enqueue');
    } as typeof send;
    try {
      const res = await client(t.app, acct.key).post('/account/projects', VALID);
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual(errorBody('Internal server error'));
    } finally {
      jobs.send = send;
    }
    expect(await count()).toBe(before);
    const projects = await t.runtime.ctx.store.query('select id from projects where team_id = $1', [acct.teamId]);
    expect(projects.rows).toHaveLength(0);
    // and the failed attempt did not use up the plan's single project
    expect((await client(t.app, acct.key).post('/account/projects', VALID)).statusCode).toBe(202);
  });

  it.each([
    [{ brand_url: VALID.brand_url, webhook_url: VALID.webhook_url }, 'brand_name is required'],
    [{ ...VALID, brand_name: '' }, 'brand_name is required'],
    [{ ...VALID, brand_name: '   ' }, 'brand_name is required'],
    [{ ...VALID, brand_name: 42 }, 'brand_name is required'],
    [{ ...VALID, brand_url: 'not a url' }, 'brand_url must be a valid URL'],
    [{ ...VALID, brand_url: 'acme' }, 'brand_url must be a valid URL'],
    [{ ...VALID, brand_url: 'ftp://acme.com' }, 'brand_url must be a valid URL'],
    [{ ...VALID, brand_url: '' }, 'brand_url must be a valid URL'],
    [{ brand_name: 'Acme', webhook_url: VALID.webhook_url }, 'brand_url must be a valid URL'],
    [{ ...VALID, webhook_url: 'hooks.acme.com/cb' }, 'webhook_url must be a valid URL'],
    [{ ...VALID, webhook_url: 'javascript:alert(1)' }, 'webhook_url must be a valid URL'],
    [{ ...VALID, webhook_url: '' }, 'webhook_url must be a valid URL'],
    [{ brand_name: 'Acme', brand_url: VALID.brand_url }, 'webhook_url must be a valid URL'],
    [{ ...VALID, brand_url: 'https://acme .com' }, 'brand_url must be a valid URL'],
    [{ ...VALID, webhook_url: 'https://' }, 'webhook_url must be a valid URL'],
  ])('400 for %j', async (payload, detail) => {
    const acct = (invalidAcct ??= await createAccount(t.app));
    const res = await client(t.app, acct.key).post('/account/projects', payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(errorBody(detail));
    const projects = await t.runtime.ctx.store.query('select id from projects where team_id = $1', [acct.teamId]);
    expect(projects.rows).toHaveLength(0);
  });

  it('403 past the plan project limit: 1 on skip_trial, 3 on basic', async () => {
    const acct = await createAccount(t.app);
    const api = client(t.app, acct.key);
    await createProject(t.app, acct.key);
    const second = await api.post('/account/projects', { ...VALID, brand_name: 'Second' });
    expect(second.statusCode).toBe(403);
    // The spec's opening words; no "Delete a project" while no project DELETE exists.
    expect(second.json()).toEqual(
      errorBody("You've reached the maximum number of projects for your plan (1). Delete a project (DELETE /v1/projects/{project_id}) or upgrade your plan.", 'project_limit_reached'),
    );

    await setTeam(t, acct.teamId, { plan: 'basic' });
    await createProject(t.app, acct.key, { brand_name: 'Second' });
    await createProject(t.app, acct.key, { brand_name: 'Third' });
    const fourth = await api.post('/account/projects', { ...VALID, brand_name: 'Fourth' });
    expect(fourth.statusCode).toBe(403);
    expect(fourth.json().detail).toMatch(/^You've reached the maximum number of projects/);

    const list = await api.get('/projects');
    expect(list.json().data.map((p: { name: string }) => p.name)).toEqual(['Acme', 'Second', 'Third']);
    const jobs = await t.runtime.ctx.store.query<{ n: number }>(
      `select count(*)::int as n from pgboss.job where name = 'project-bootstrap' and data->>'projectId' in
         (select id::text from projects where team_id = $1)`,
      [acct.teamId],
    );
    expect(jobs.rows[0].n).toBe(3);
  });

  it('concurrent creations cannot pass the project limit', async () => {
    const acct = await createAccount(t.app);
    const api = client(t.app, acct.key);
    const results = await Promise.all(
      [1, 2, 3].map((i) => api.post('/account/projects', { ...VALID, brand_name: `Race ${i}` })),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([202, 403, 403]);
  });
});

describe('GET /projects', () => {
  it("lists only the team's projects, oldest first, Envelope A, brand_aliases always []", async () => {
    const acct = await createAccount(t.app);
    const other = await createAccount(t.app);
    await setTeam(t, acct.teamId, { plan: 'basic' });
    const ids: string[] = [];
    for (const name of ['First', 'Second', 'Third']) {
      ids.push(await createProject(t.app, acct.key, { brand_name: name, brand_url: `https://${name.toLowerCase()}.io` }));
    }
    await createProject(t.app, other.key, { brand_name: 'Foreign' });
    await t.runtime.ctx.store.query(`update projects set brand_aliases = '["Firsty", "1st"]'::jsonb where id = $1`, [ids[0]]);

    const res = await client(t.app, acct.key).get('/projects');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['data', 'success']);
    expect(body.success).toBe(true);
    expect(body.data.map((p: { id: string }) => p.id)).toEqual(ids);
    expect(body.data[0]).toEqual({
      id: ids[0],
      name: 'First',
      brand_name: 'First',
      website_url: expect.stringMatching(/^https:\/\/first\.io\/?$/),
      location: null,
      language: null,
      brand_aliases: [],
      created_at: expect.any(String),
    });
    for (const p of body.data) {
      expect(p.brand_aliases).toEqual([]);
      expect(new Date(p.created_at).toISOString()).toBe(p.created_at);
    }
    const times = body.data.map((p: { created_at: string }) => Date.parse(p.created_at));
    expect([...times].sort((a, b) => a - b)).toEqual(times);

    // the single-project read carries the real aliases
    const one = await client(t.app, acct.key).get(`/projects/${ids[0]}`);
    expect(one.json().data.brand_aliases).toEqual(['Firsty', '1st']);
  });

  it('is an empty array for a team without projects', async () => {
    const acct = await createAccount(t.app);
    const res = await client(t.app, acct.key).get('/projects');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, data: [] });
  });
});

describe('GET /projects/{project_id}', () => {
  it('200 Envelope A with the Project fields and the bootstrap state (no workers here: still initializing)', async () => {
    const acct = await createAccount(t.app);
    const id = await createProject(t.app, acct.key, { location: 'de', language: 'de' });
    const res = await client(t.app, acct.key).get(`/projects/${id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      data: {
        id,
        name: 'Acme',
        brand_name: 'Acme',
        website_url: expect.stringMatching(/^https:\/\/acme\.com\/?$/),
        location: 'DE',
        language: 'de',
        brand_aliases: [],
        created_at: expect.any(String),
        bootstrap_status: 'initializing',
        bootstrap_error: null,
        callback_status: null,
        providers: ['chatgpt', 'perplexity', 'google_ai_overview', 'gemini', 'claude'],
        samples_per_run: 1,
        sampling: 'fixed',
        sampling_margin: 5,
      },
    });
  });

  it('404 Project not found for an unknown id, including the zero UUID', async () => {
    const acct = await createAccount(t.app);
    for (const id of [ZERO_UUID, crypto.randomUUID()]) {
      const res = await client(t.app, acct.key).get(`/projects/${id}`);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(errorBody('Project not found'));
    }
  });

  it('403 Project does not belong to your team for another team project', async () => {
    const owner = await createAccount(t.app);
    const stranger = await createAccount(t.app);
    const id = await createProject(t.app, owner.key);
    const res = await client(t.app, stranger.key).get(`/projects/${id}`);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual(errorBody('Project does not belong to your team'));
  });

  it('400 for a project id that is not a UUID', async () => {
    const acct = await createAccount(t.app);
    const res = await client(t.app, acct.key).get('/projects/not-a-uuid');
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toEqual(expect.any(String));
  });
});
