import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedProject } from '../../collection/seed.js';
import { client, createAccount, createProject, errorBody, setTeam, startTestApp, until, ZERO_UUID, type TestApp } from '../../../test/helpers.js';

// PATCH and DELETE /projects/{id} (issue "Numbers you can trust", section 3).

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.stop());

const reanalyseJobs = async (projectId: string) =>
  (
    await t.runtime.ctx.store.query<{ n: number }>(
      `select count(*)::int as n from pgboss.job where name = 'project-reanalyse' and data->>'projectId' = $1`,
      [projectId],
    )
  ).rows[0].n;

describe('PATCH /projects/{project_id}', () => {
  it('changes only the fields sent; GET shows them at once', async () => {
    const acct = await createAccount(t.app);
    const id = await createProject(t.app, acct.key, { brand_name: 'Acme' });
    const api = client(t.app, acct.key);
    const res = await api.patch(`/projects/${id}`, {
      name: '  Acme Europe ',
      brand_aliases: ['Acme Corp', 'ACME corp', 'Acme Inc'],
      website_url: 'https://www.acme.eu',
      location: 'de',
      language: 'DE',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      data: {
        id,
        name: 'Acme Europe',
        brand_name: 'Acme',
        website_url: 'https://www.acme.eu/',
        location: 'DE',
        language: 'de',
        brand_aliases: ['Acme Corp', 'Acme Inc'],
        created_at: expect.any(String),
        bootstrap_status: expect.stringMatching(/^(initializing|completed|error)$/),
        bootstrap_error: expect.toBeOneOf([null, expect.any(String)]),
        callback_status: expect.toBeOneOf([null, 'pending', 'delivered', 'failed']),
        providers: ['chatgpt', 'perplexity', 'google_ai_overview', 'gemini', 'claude'],
        samples_per_run: 1,
        sampling: 'fixed',
        sampling_margin: 5,
      },
    });
    expect((await api.get(`/projects/${id}`)).json().data).toEqual(res.json().data);
    const stored = await t.runtime.ctx.store.query<{ domain: string }>('select domain from projects where id = $1', [id]);
    expect(stored.rows[0].domain).toBe('acme.eu');
  });

  it('providers: the engines the project tracks, the extension names included; unknown names are a 400', async () => {
    const acct = await createAccount(t.app);
    const id = await createProject(t.app, acct.key);
    const api = client(t.app, acct.key);
    const res = await api.patch(`/projects/${id}`, { providers: ['grok', 'chatgpt', 'google_ai_mode', 'grok'] });
    expect(res.statusCode).toBe(200);
    // Each once, in the fixed order of the engines.
    expect(res.json().data.providers).toEqual(['chatgpt', 'google_ai_mode', 'grok']);
    const stored = await t.runtime.ctx.store.query<{ providers: string[] }>('select providers from projects where id = $1', [id]);
    expect(stored.rows[0].providers).toEqual(['chatgpt', 'google_ai_mode', 'grok']);
    const same = await api.patch(`/projects/${id}`, { providers: ['google_ai_mode', 'chatgpt', 'grok'] });
    expect(same.statusCode).toBe(400);
    expect(same.json().detail).toMatch(/No field changed/);
    const bad = await api.patch(`/projects/${id}`, { providers: ['chatgpt', 'bard'] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().detail).toMatch(/providers\[\] must be one of chatgpt, .*copilot/);
    expect((await api.patch(`/projects/${id}`, { providers: [] })).json().detail).toMatch(/at least one engine/);
  });

  it('a brand change queues one re-analysis; a name or market change does not', async () => {
    const acct = await createAccount(t.app);
    const id = await createProject(t.app, acct.key);
    const api = client(t.app, acct.key);
    const before = await reanalyseJobs(id);
    expect((await api.patch(`/projects/${id}`, { name: 'Renamed', location: 'FR' })).statusCode).toBe(200);
    expect(await reanalyseJobs(id)).toBe(before);
    expect((await api.patch(`/projects/${id}`, { brand_aliases: ['Acme Labs'] })).statusCode).toBe(200);
    expect(await reanalyseJobs(id)).toBe(before + 1);
  });

  it.each([
    [{}, 'Request body must change at least one field'],
    [{ name: '' }, 'name must not be empty'],
    [{ name: '   ' }, 'name must not be empty'],
    [{ brand_aliases: 'Acme' }, 'brand_aliases must be an array of strings'],
    [{ brand_aliases: Array.from({ length: 21 }, (_, i) => `Alias ${i}`) }, 'brand_aliases must hold at most 20 names'],
    [{ website_url: 'acme' }, 'website_url must be a valid URL'],
    [{ website_url: 'ftp://acme.com' }, 'website_url must be a valid URL'],
    [{ owner: 'me' }, 'Unknown field: owner'],
    [{ name: 'Acme' }, 'No field changed: the project already has these values'],
  ])('400 for %j', async (body, detail) => {
    const acct = await createAccount(t.app);
    const id = await createProject(t.app, acct.key, { brand_name: 'Acme' });
    const res = await client(t.app, acct.key).patch(`/projects/${id}`, body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(errorBody(expect.stringContaining(detail)));
    expect((await client(t.app, acct.key).get(`/projects/${id}`)).json().data.name).toBe('Acme');
  });

  it("403 for a viewer key and for another team's project; 404 for no project", async () => {
    const acct = await createAccount(t.app);
    const other = await createAccount(t.app);
    const id = await createProject(t.app, acct.key);
    const viewer = (await client(t.app, acct.key).post('/keys', { scope: 'viewer' })).json().data.api_key;
    expect((await client(t.app, viewer).patch(`/projects/${id}`, { name: 'X' })).json()).toEqual(errorBody(expect.any(String), 'read_only_key'));
    const foreign = await client(t.app, other.key).patch(`/projects/${id}`, { name: 'X' });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json().detail).toBe('Project does not belong to your team');
    expect((await client(t.app, acct.key).patch(`/projects/${ZERO_UUID}`, { name: 'X' })).statusCode).toBe(404);
    expect((await client(t.app, acct.key).get(`/projects/${id}`)).json().data.name).toBe('Acme');
  });

  it('a new alias shows in the next read of the figures, once the answers are analysed again', async () => {
    const seeded = await seedProject(t.runtime.ctx, { prompts: 4, providers: ['chatgpt', 'perplexity'], days: 3, competitors: 3 });
    const api = client(t.app, seeded.apiKey);
    const brands = async () => (await api.get(`/projects/${seeded.projectId}/competitors?duration_days=7`)).json().data.active_competitors as Array<{ competitor_id: string; name: string; metrics: { visibility: number } }>;
    const start = await brands();
    const own = start.find((b) => b.competitor_id === ZERO_UUID)!;
    const rival = start.filter((b) => b.competitor_id !== ZERO_UUID).sort((a, b) => b.metrics.visibility - a.metrics.visibility)[0];
    expect(rival.metrics.visibility).toBeGreaterThan(0);
    // The rival's name as an alias of the own brand: every answer naming the rival now names the brand.
    const res = await api.patch(`/projects/${seeded.projectId}`, { brand_aliases: ['Acme', rival.name] });
    expect(res.statusCode).toBe(200);
    const after = await until(async () => {
      const now = (await brands()).find((b) => b.competitor_id === ZERO_UUID)!;
      return now.metrics.visibility >= rival.metrics.visibility && now.metrics.visibility !== own.metrics.visibility ? now : null;
    }, 60_000);
    expect(after.metrics.visibility).toBeGreaterThanOrEqual(Math.max(own.metrics.visibility, rival.metrics.visibility));
  });
});

describe('DELETE /projects/{project_id}', () => {
  it('deletes the project and every record under it in one go; the plan slot is free again', async () => {
    const seeded = await seedProject(t.runtime.ctx, { prompts: 3, providers: ['chatgpt'], days: 2, competitors: 2 });
    const api = client(t.app, seeded.apiKey);
    await setTeam(t, seeded.teamId, { plan: 'skip_trial' }); // one project allowed: the seeded one
    expect((await api.post('/account/projects', { brand_name: 'B', brand_url: 'https://b.com', webhook_url: 'https://hooks.b.com/x' })).statusCode).toBe(403);

    const res = await api.delete(`/projects/${seeded.projectId}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ code: 200, message: '200 OK', data: { projectId: seeded.projectId, message: expect.any(String) } });

    // nothing keyed by the project is left, in any table
    const { rows: tables } = await t.runtime.ctx.store.query<{ table_name: string }>(
      `select table_name from information_schema.columns where column_name = 'project_id' and table_schema = 'public'`,
    );
    expect(tables.length).toBeGreaterThan(10);
    for (const { table_name } of tables) {
      const { rows } = await t.runtime.ctx.store.query<{ n: number }>(`select count(*)::int as n from ${table_name} where project_id = $1`, [seeded.projectId]);
      expect(rows[0].n, table_name).toBe(0);
    }
    expect((await api.get(`/projects/${seeded.projectId}`)).statusCode).toBe(404);
    expect((await api.delete(`/projects/${seeded.projectId}`)).statusCode).toBe(404);
    expect((await api.post('/account/projects', { brand_name: 'B', brand_url: 'https://b.com', webhook_url: 'https://hooks.b.com/x' })).statusCode).toBe(202);
  });

  it('drops the bootstrap callback still pending for it', async () => {
    const acct = await createAccount(t.app);
    const id = await createProject(t.app, acct.key);
    await t.runtime.ctx.store.query(
      `insert into deliveries (kind, team_id, url, event, message_id, body) values ('callback', $1, 'https://hooks.acme.com/cb', 'project.bootstrap', 'msg_x', $2)`,
      [acct.teamId, JSON.stringify({ event: 'project.bootstrap', project_id: id, status: 'completed' })],
    );
    const pending = `select count(*)::int as n from deliveries where team_id = $1 and status = 'pending' and body like '%' || $2 || '%'`;
    expect((await t.runtime.ctx.store.query<{ n: number }>(pending, [acct.teamId, id])).rows[0].n).toBeGreaterThan(0);
    expect((await client(t.app, acct.key).delete(`/projects/${id}`)).statusCode).toBe(200);
    expect((await t.runtime.ctx.store.query<{ n: number }>(pending, [acct.teamId, id])).rows[0].n).toBe(0);
  });

  it("403 for a viewer and for another team's project, which stays", async () => {
    const acct = await createAccount(t.app);
    const other = await createAccount(t.app);
    const id = await createProject(t.app, acct.key);
    const viewer = (await client(t.app, acct.key).post('/keys', { scope: 'viewer' })).json().data.api_key;
    expect((await client(t.app, viewer).delete(`/projects/${id}`)).statusCode).toBe(403);
    expect((await client(t.app, other.key).delete(`/projects/${id}`)).statusCode).toBe(403);
    expect((await client(t.app, acct.key).get(`/projects/${id}`)).statusCode).toBe(200);
  });
});
