import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, createAccount, createProject, setTeam, startTestApp, ZERO_UUID, type TestApp, errorBody } from '../../../test/helpers.js';

let t: TestApp;
beforeAll(async () => {
  // role 'api': no workers, so the bootstrap pipeline detects no competitors behind the tests' backs
  t = await startTestApp({ role: 'api' });
});
afterAll(async () => t?.stop());

const LIST_FIELDS = ['aliases', 'competitor_id', 'icon_url', 'icon_urls', 'is_own_brand', 'metrics', 'name', 'project_id', 'state', 'website'];
const CREATED_FIELDS = ['aliases', 'competitorId', 'iconUrl', 'iconUrls', 'isOwnBrand', 'metrics', 'name', 'projectId', 'state', 'website'];

type Api = ReturnType<typeof client>;
type Item = { competitor_id: string; name: string; website: string; is_own_brand: boolean };

/** A team (plan pro, so several projects fit) with `n` projects of the brand Acme (acme.com). */
async function setup(n = 1) {
  const acct = await createAccount(t.app);
  await setTeam(t, acct.teamId, { plan: 'pro' });
  const api = client(t.app, acct.key);
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push(await createProject(t.app, acct.key, { brand_name: 'Acme', brand_url: 'https://acme.com/' }));
  return { api, projectId: ids[0], ids };
}

const add = (api: Api, projectId: string, competitors: unknown) => api.post(`/projects/${projectId}/competitors`, { competitors });
const list = async (api: Api, projectId: string) => {
  const res = await api.get(`/projects/${projectId}/competitors`);
  expect(res.statusCode).toBe(200);
  return res.json().data as { active_competitors: Item[]; total_active: number };
};
const brands = (n: number, tag = 'rival') => Array.from({ length: n }, (_, i) => ({ name: `Rival ${i + 1}`, website: `${tag}${i + 1}.com` }));

describe('GET /projects/{project_id}/competitors', () => {
  it('a new project lists only its own brand, injected with the all-zero UUID', async () => {
    const { api, projectId } = await setup();
    const res = await api.get(`/projects/${projectId}/competitors`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['data', 'success']);
    expect(body.success).toBe(true);
    expect(Object.keys(body.data).sort()).toEqual(['active_competitors', 'total_active']);
    expect(body.data.total_active).toBe(1);
    const [own] = body.data.active_competitors;
    expect(Object.keys(own).sort()).toEqual(LIST_FIELDS);
    expect(own).toMatchObject({
      competitor_id: ZERO_UUID,
      project_id: projectId,
      name: 'Acme',
      website: 'https://acme.com',
      state: 'active',
      is_own_brand: true,
    });
    expect(own.icon_urls).toEqual(expect.arrayContaining([expect.any(String)]));
    expect(own.icon_url === null || typeof own.icon_url === 'string').toBe(true);
  });

  it('own brand first, then the competitors in creation order (request order within a batch)', async () => {
    const { api, projectId } = await setup();
    const batch = [
      { name: 'Zoho', website: 'zoho.com' },
      { name: 'Attio', website: 'attio.com' },
      { name: 'Pipedrive', website: 'pipedrive.com' },
      { name: 'Monday', website: 'monday.com' },
      { name: 'Close', website: 'close.com' },
      { name: 'Copper', website: 'copper.com' },
    ];
    expect((await add(api, projectId, batch)).statusCode).toBe(200);
    expect((await add(api, projectId, [{ name: 'HubSpot', website: 'hubspot.com' }])).statusCode).toBe(200);
    const data = await list(api, projectId);
    expect(data.total_active).toBe(8);
    expect(data.active_competitors).toHaveLength(8);
    expect(data.active_competitors.map((c) => c.name)).toEqual(['Acme', ...batch.map((c) => c.name), 'HubSpot']);
    expect(data.active_competitors.map((c) => c.is_own_brand)).toEqual([true, false, false, false, false, false, false, false]);
    for (const c of data.active_competitors) expect(Object.keys(c).sort()).toEqual(LIST_FIELDS);
  });

  it('the own brand added as a competitor is listed first with its own id, and never counted twice', async () => {
    const { api, projectId } = await setup();
    const res = await add(api, projectId, [
      { name: 'Rival', website: 'rival.com' },
      { name: 'Acme Inc', website: 'https://www.acme.com' },
    ]);
    expect(res.statusCode).toBe(200);
    const own = res.json().data.competitors.find((c: { isOwnBrand: boolean }) => c.isOwnBrand);
    expect(own).toMatchObject({ name: 'Acme Inc', isOwnBrand: true });
    const data = await list(api, projectId);
    expect(data.total_active).toBe(2);
    expect(data.active_competitors[0]).toMatchObject({ competitor_id: own.competitorId, is_own_brand: true });
    expect(data.active_competitors[0].competitor_id).not.toBe(ZERO_UUID);
    expect(data.active_competitors.filter((c) => c.is_own_brand)).toHaveLength(1);
  });
});

describe('POST /projects/{project_id}/competitors', () => {
  it('200 Envelope B, camelCase create form, websites normalised to https', async () => {
    const { api, projectId } = await setup();
    const res = await add(api, projectId, [
      { name: 'HubSpot', website: 'hubspot.com' },
      { name: 'Pipedrive', website: 'http://pipedrive.com/' },
      { name: 'Salesforce', website: 'www.salesforce.com' },
      { name: 'Zoho', website: 'HTTPS://Zoho.com/' },
      { name: '  Close  ', website: ' close.com ' },
    ]);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['code', 'data', 'message']);
    expect(body.code).toBe(200);
    expect(body.message).toBe('200 OK');
    expect(Object.keys(body.data).sort()).toEqual(['competitors', 'created', 'projectId']);
    expect(body.data.projectId).toBe(projectId);
    expect(body.data.created).toBe(5);
    for (const c of body.data.competitors) {
      expect(Object.keys(c).sort()).toEqual(CREATED_FIELDS);
      expect(c).toMatchObject({ projectId, state: 'active', isOwnBrand: false, metrics: null });
      expect(c.competitorId).toMatch(/^[0-9a-f-]{36}$/);
      expect(c.competitorId).not.toBe(ZERO_UUID);
      expect(Array.isArray(c.iconUrls)).toBe(true);
    }
    expect(body.data.competitors.map((c: { name: string; website: string }) => [c.name, c.website])).toEqual([
      ['HubSpot', 'https://hubspot.com'],
      ['Pipedrive', 'https://pipedrive.com'],
      ['Salesforce', 'https://www.salesforce.com'],
      ['Zoho', 'https://zoho.com'],
      ['Close', 'https://close.com'],
    ]);
    const data = await list(api, projectId);
    expect(data.active_competitors.slice(1).map((c) => c.website)).toEqual([
      'https://hubspot.com',
      'https://pipedrive.com',
      'https://www.salesforce.com',
      'https://zoho.com',
      'https://close.com',
    ]);
  });

  describe('400, and nothing is created', () => {
    let shared: ReturnType<typeof setup> | undefined;
    it.each([
      ['an empty array', []],
      ['no competitors field', undefined],
      ['an object instead of an array', { name: 'HubSpot', website: 'hubspot.com' }],
      ['an empty name', [{ name: '', website: 'hubspot.com' }]],
      ['a whitespace-only name', [{ name: '   ', website: 'hubspot.com' }]],
      ['a missing name', [{ website: 'hubspot.com' }]],
      ['a missing website', [{ name: 'HubSpot' }]],
      ['an invalid website', [{ name: 'HubSpot', website: 'not a website' }]],
      ['a website without a public suffix', [{ name: 'HubSpot', website: 'hubspot' }]],
      ['a non-http scheme', [{ name: 'HubSpot', website: 'ftp://hubspot.com' }]],
      ['an IP address', [{ name: 'HubSpot', website: 'http://10.0.0.1' }]],
      ['a duplicate domain within the request', [{ name: 'HubSpot', website: 'hubspot.com' }, { name: 'HubSpot again', website: 'https://www.hubspot.com/' }]],
      ['a duplicate registrable domain within the request', [{ name: 'HubSpot', website: 'hubspot.com' }, { name: 'HubSpot blog', website: 'blog.hubspot.com' }]],
      ['more than 20 items', brands(21)],
      ['an unknown field', [{ name: 'HubSpot', website: 'hubspot.com', tier: 1 }]],
    ])('%s', async (_label, competitors) => {
      const { api, projectId } = await (shared ??= setup());
      const res = await api.post(`/projects/${projectId}/competitors`, competitors === undefined ? {} : { competitors });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual(errorBody(expect.any(String)));
      expect((await list(api, projectId)).total_active).toBe(1);
    });
  });

  it('409 for a domain already in the project, also as a subdomain or another form; the batch is all or nothing', async () => {
    const { api, projectId, ids } = await setup(2);
    expect((await add(api, projectId, [{ name: 'HubSpot', website: 'hubspot.com' }])).statusCode).toBe(200);
    for (const website of ['hubspot.com', 'https://www.hubspot.com/', 'HTTP://HUBSPOT.COM', 'blog.hubspot.com', 'https://blog.hubspot.com/crm']) {
      const res = await add(api, projectId, [
        { name: 'Fresh', website: 'fresh-rival.com' },
        { name: 'Again', website },
      ]);
      expect(res.statusCode, website).toBe(409);
      expect(res.json()).toEqual(errorBody(expect.any(String)));
    }
    const data = await list(api, projectId);
    expect(data.active_competitors.map((c) => c.name)).toEqual(['Acme', 'HubSpot']);
    // another project of the team may track the same domain
    expect((await add(api, ids[1], [{ name: 'HubSpot', website: 'hubspot.com' }])).statusCode).toBe(200);
  });

  it('429 past 10 active competitors; the own brand does not count (total_active 11)', async () => {
    const { api, projectId } = await setup();
    expect((await add(api, projectId, brands(8))).statusCode).toBe(200);
    // 8 + 3 > 10: refused whole
    const over = await add(api, projectId, brands(3, 'late'));
    expect(over.statusCode).toBe(429);
    // A code of its own and no Retry-After: waiting does not help, unlike a rate limit.
    expect(over.json()).toEqual(errorBody(expect.any(String), 'competitor_limit_reached'));
    expect(over.headers['retry-after']).toBeUndefined();
    expect((await list(api, projectId)).total_active).toBe(9);
    // the own brand's domain is not one of the 10
    expect((await add(api, projectId, [{ name: 'Acme', website: 'acme.com' }, ...brands(2, 'late')])).statusCode).toBe(200);
    const full = await list(api, projectId);
    expect(full.total_active).toBe(11);
    expect(full.active_competitors).toHaveLength(11);
    expect(full.active_competitors.filter((c) => !c.is_own_brand)).toHaveLength(10);
    const eleventh = await add(api, projectId, [{ name: 'Eleventh', website: 'eleventh.com' }]);
    expect(eleventh.statusCode).toBe(429);
    expect((await list(api, projectId)).total_active).toBe(11);
  });

  it('429 for 11 at once on an empty project (validation passes: at most 20 per request)', async () => {
    const { api, projectId } = await setup();
    const res = await add(api, projectId, brands(11));
    expect(res.statusCode).toBe(429);
    expect((await list(api, projectId)).total_active).toBe(1);
  });

  it('10 fit when the own brand is injected: total_active 11', async () => {
    const { api, projectId } = await setup();
    expect((await add(api, projectId, brands(10))).statusCode).toBe(200);
    const data = await list(api, projectId);
    expect(data.total_active).toBe(11);
    expect(data.active_competitors[0]).toMatchObject({ competitor_id: ZERO_UUID, is_own_brand: true });
  });
});

describe('PATCH /projects/{project_id}/competitors/{competitor_id}', () => {
  async function withCompetitors() {
    const s = await setup(2);
    const res = await add(s.api, s.projectId, [
      { name: 'HubSpot', website: 'hubspot.com' },
      { name: 'Pipedrive', website: 'pipedrive.com' },
    ]);
    expect(res.statusCode).toBe(200);
    const [hubspot, pipedrive] = res.json().data.competitors.map((c: { competitorId: string }) => c.competitorId);
    return { ...s, hubspot, pipedrive, url: `/projects/${s.projectId}/competitors/${hubspot}` };
  }

  it('200 Envelope A in list-item shape; name and website change, website normalised', async () => {
    const { api, projectId, hubspot, url } = await withCompetitors();
    const res = await api.patch(url, { name: '  HubSpot CRM ' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.success).toBe(true);
    expect(Object.keys(body.data).sort()).toEqual(LIST_FIELDS);
    expect(body.data).toMatchObject({
      competitor_id: hubspot,
      project_id: projectId,
      name: 'HubSpot CRM',
      website: 'https://hubspot.com',
      state: 'active',
      is_own_brand: false,
    });
    const moved = await api.patch(url, { website: 'http://www.hubspot.de/' });
    expect(moved.statusCode).toBe(200);
    expect(moved.json().data).toMatchObject({ name: 'HubSpot CRM', website: 'https://www.hubspot.de' });
    // the same record as the list shows (metrics are the window's, computed by the list)
    const item = (await list(api, projectId)).active_competitors.find((c) => c.competitor_id === hubspot);
    const { metrics: _listed, ...listed } = item as Item & { metrics: unknown };
    const { metrics: _patched, ...patched } = moved.json().data;
    expect(listed).toEqual(patched);
  });

  describe('400, and nothing changes', () => {
    let shared: ReturnType<typeof withCompetitors> | undefined;
    it.each([
      ['an empty body', {}],
      ['a whitespace-only name', { name: '   ' }],
      ['an empty name', { name: '' }],
      ['an invalid website', { website: 'nowhere' }],
      ['an unknown field', { state: 'inactive' }],
      ['the same name', { name: 'HubSpot' }],
      ['the same website in another form', { website: 'HTTP://HubSpot.com/' }],
      ['the same name and website', { name: ' HubSpot ', website: 'hubspot.com' }],
    ])('%s', async (_label, body) => {
      const { api, projectId, hubspot, url } = await (shared ??= withCompetitors());
      const res = await api.patch(url, body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual(errorBody(expect.any(String)));
      const item = (await list(api, projectId)).active_competitors.find((c) => c.competitor_id === hubspot);
      expect(item).toMatchObject({ name: 'HubSpot', website: 'https://hubspot.com' });
    });
  });

  it("409 when the new website is another competitor's domain", async () => {
    const { api, url } = await withCompetitors();
    const res = await api.patch(url, { website: 'https://app.pipedrive.com' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual(errorBody(expect.any(String)));
  });

  it('404 for an unknown id, the zero UUID, and a competitor of another project', async () => {
    const { api, projectId, ids, hubspot } = await withCompetitors();
    for (const url of [
      `/projects/${projectId}/competitors/${crypto.randomUUID()}`,
      `/projects/${projectId}/competitors/${ZERO_UUID}`,
      `/projects/${ids[1]}/competitors/${hubspot}`,
    ]) {
      const res = await api.patch(url, { name: 'Renamed' });
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toEqual(errorBody(expect.any(String)));
    }
    const names = (await list(api, projectId)).active_competitors.map((c) => c.name);
    expect(names).not.toContain('Renamed');
  });
});

describe('DELETE /projects/{project_id}/competitors/{competitor_id}', () => {
  it('Envelope B {competitorId, message}; gone from the list; second delete 404; frees a slot', async () => {
    const { api, projectId } = await setup();
    const created = (await add(api, projectId, brands(10))).json().data.competitors;
    const id = created[3].competitorId;
    const res = await api.delete(`/projects/${projectId}/competitors/${id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ code: 200, message: '200 OK', data: { competitorId: id, message: expect.any(String) } });
    const data = await list(api, projectId);
    expect(data.total_active).toBe(10);
    expect(data.active_competitors.map((c) => c.competitor_id)).not.toContain(id);
    const again = await api.delete(`/projects/${projectId}/competitors/${id}`);
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual(errorBody(expect.any(String)));
    // the freed slot and the freed domain can be used again
    expect((await add(api, projectId, [{ name: created[3].name, website: created[3].website }])).statusCode).toBe(200);
  });

  it('404 for the zero UUID (the injected own brand is not a record), and the own brand stays', async () => {
    const { api, projectId } = await setup();
    const res = await api.delete(`/projects/${projectId}/competitors/${ZERO_UUID}`);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual(errorBody(expect.any(String)));
    expect((await list(api, projectId)).active_competitors[0]).toMatchObject({ competitor_id: ZERO_UUID, is_own_brand: true });
  });

  it('404 for a competitor of another project, which stays', async () => {
    const { api, ids } = await setup(2);
    const id = (await add(api, ids[0], [{ name: 'HubSpot', website: 'hubspot.com' }])).json().data.competitors[0].competitorId;
    const res = await api.delete(`/projects/${ids[1]}/competitors/${id}`);
    expect(res.statusCode).toBe(404);
    expect((await list(api, ids[0])).active_competitors.map((c) => c.competitor_id)).toContain(id);
  });
});
