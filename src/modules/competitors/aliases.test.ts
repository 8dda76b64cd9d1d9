import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, createAccount, createProject, errorBody, startTestApp, type TestApp } from '../../../test/helpers.js';
import { loadBrandSpecs } from '../projects/brands.js';
import { loadProjectWithPlan } from '../projects/project-row.js';

// Competitor aliases (extension): other names matched in answers like the name, on create
// and update, returned in every competitor response, used by the analysis, and a change
// queues the project's re-analysis like any other change of the tracked brands.

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ role: 'api' });
});
afterAll(async () => t?.stop());

const reanalyseJobs = async (projectId: string) =>
  (
    await t.runtime.ctx.store.query<{ n: number }>(
      `select count(*)::int as n from pgboss.job where name = 'project-reanalyse' and data->>'projectId' = $1`,
      [projectId],
    )
  ).rows[0].n;
// the queued run is one per project (a singleton): clear it to see the next change queue one
const clearReanalysis = (projectId: string) =>
  t.runtime.ctx.store.query(`delete from pgboss.job where name = 'project-reanalyse' and data->>'projectId' = $1`, [projectId]);

async function setup() {
  const acct = await createAccount(t.app);
  const projectId = await createProject(t.app, acct.key, { brand_name: 'Acme', brand_url: 'https://acme.com/' });
  return { api: client(t.app, acct.key), projectId };
}

const specs = async (projectId: string) => {
  const facts = await loadProjectWithPlan(t.runtime.ctx.store, projectId);
  return loadBrandSpecs(t.runtime.ctx.store, facts!);
};

describe('competitor aliases', () => {
  it('create takes aliases (trimmed, repeats in any case dropped), returns them, and the analysis reads them', async () => {
    const { api, projectId } = await setup();
    const res = await api.post(`/projects/${projectId}/competitors`, {
      competitors: [
        { name: 'Freshsales', website: 'freshworks.com', aliases: ['  Freshworks CRM ', 'freshworks  crm', 'Freshworks Sales'] },
        { name: 'Pipedrive', website: 'pipedrive.com' },
      ],
    });
    expect(res.statusCode).toBe(200);
    const [fresh, pipe] = res.json().data.competitors;
    expect(fresh.aliases).toEqual(['Freshworks CRM', 'Freshworks Sales']);
    expect(pipe.aliases).toEqual([]);
    const listed = (await api.get(`/projects/${projectId}/competitors`)).json().data.active_competitors;
    expect(listed.map((c: { aliases: string[] }) => c.aliases)).toEqual([[], ['Freshworks CRM', 'Freshworks Sales'], []]);
    const spec = (await specs(projectId)).find((b) => b.id === fresh.competitorId);
    expect(spec?.aliases).toEqual(['Freshworks CRM', 'Freshworks Sales']);
  });

  it('update replaces the list, alone or with other fields, and queues one re-analysis; the same list again is a 400', async () => {
    const { api, projectId } = await setup();
    const created = await api.post(`/projects/${projectId}/competitors`, { competitors: [{ name: 'Brevo', website: 'brevo.com' }] });
    const id = created.json().data.competitors[0].competitorId;
    await clearReanalysis(projectId);
    const res = await api.patch(`/projects/${projectId}/competitors/${id}`, { aliases: ['Sendinblue'] });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ competitor_id: id, name: 'Brevo', aliases: ['Sendinblue'] });
    expect(await reanalyseJobs(projectId)).toBe(1);
    expect((await specs(projectId)).find((b) => b.id === id)?.aliases).toEqual(['Sendinblue']);

    const same = await api.patch(`/projects/${projectId}/competitors/${id}`, { aliases: [' Sendinblue ', 'SENDINBLUE'] });
    expect(same.statusCode).toBe(400);
    expect(same.json()).toEqual(errorBody(expect.stringContaining('No field changed')));

    const both = await api.patch(`/projects/${projectId}/competitors/${id}`, { name: 'Brevo Marketing', aliases: [] });
    expect(both.statusCode).toBe(200);
    expect(both.json().data).toMatchObject({ name: 'Brevo Marketing', aliases: [] });
  });

  it.each([
    [{ aliases: 'Sendinblue' }, 'aliases must be an array of strings'],
    [{ aliases: [''] }, 'aliases[] must not be empty'],
    [{ aliases: ['   '] }, 'aliases[] must not be empty'],
    [{ aliases: [42] }, 'aliases[] must be a string'],
    [{ aliases: ['x'.repeat(101)] }, 'aliases[] must be at most 100 characters'],
    [{ aliases: Array.from({ length: 21 }, (_, i) => `Alias ${i}`) }, 'aliases must hold at most 20 names'],
  ])('400 for %j on update and on create, and nothing changes', async (body, detail) => {
    const { api, projectId } = await setup();
    const created = await api.post(`/projects/${projectId}/competitors`, { competitors: [{ name: 'Brevo', website: 'brevo.com', aliases: ['Sendinblue'] }] });
    const id = created.json().data.competitors[0].competitorId;
    const res = await api.patch(`/projects/${projectId}/competitors/${id}`, body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(errorBody(expect.stringContaining(detail)));
    const bad = await api.post(`/projects/${projectId}/competitors`, { competitors: [{ name: 'Kit', website: 'kit.com', ...body }] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual(errorBody(expect.stringContaining(detail)));
    const listed = (await api.get(`/projects/${projectId}/competitors`)).json().data.active_competitors;
    expect(listed.map((c: { name: string; aliases: string[] }) => [c.name, c.aliases])).toEqual([['Acme', []], ['Brevo', ['Sendinblue']]]);
  });

  it("the own brand's entry shows the project's brand_aliases", async () => {
    const { api, projectId } = await setup();
    expect((await api.patch(`/projects/${projectId}`, { brand_aliases: ['Acme Corp'] })).statusCode).toBe(200);
    const [own] = (await api.get(`/projects/${projectId}/competitors`)).json().data.active_competitors;
    expect(own).toMatchObject({ is_own_brand: true, aliases: ['Acme Corp'] });
  });
});
