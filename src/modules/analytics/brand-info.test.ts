import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, createAccount, createProject, startTestApp, type TestApp } from '../../../test/helpers.js';
import { faviconUrls } from '../../lib/url.js';
import { OWN_BRAND_ID, loadBrandNumbers, loadBrandSpecs } from '../projects/brands.js';
import { loadProjectWithPlan } from '../projects/project-row.js';
import { brandInfoByNumber } from './brand-info.js';

// brandInfoByNumber reads the project's own brand and its competitor records in one
// statement; what it returns is what the brand specs and brand numbers, read apart, make.

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ role: 'api' });
});
afterAll(async () => t?.stop());

/** The same maps from the readers the analysis uses (loadBrandSpecs, loadBrandNumbers). */
async function readApart(projectId: string) {
  const store = t.runtime.ctx.store;
  const project = await loadProjectWithPlan(store, projectId);
  const specs = project ? await loadBrandSpecs(store, project) : [];
  const numbers = await loadBrandNumbers(store, projectId);
  const byId = new Map(
    specs.map((b) => {
      const icons = b.domain ? faviconUrls(b.domain) : [];
      return [b.id, { id: b.id, name: b.name, icon_url: icons[0] ?? null, icon_urls: icons }];
    }),
  );
  return { byId, numbers };
}

describe('brandInfoByNumber', () => {
  it('names the own brand, the active competitors and every record its number; a paused one has a number and no info', async () => {
    const acct = await createAccount(t.app);
    const projectId = await createProject(t.app, acct.key, { brand_name: 'Acme', brand_url: 'https://acme.com/' });
    const api = client(t.app, acct.key);
    const res = await api.post(`/projects/${projectId}/competitors`, {
      competitors: [
        { name: 'Rival', website: 'rival.com' },
        { name: 'Acme Inc', website: 'https://www.acme.com' },
        { name: 'Paused Co', website: 'pausedco.com' },
        { name: 'Other', website: 'otherco.com' },
      ],
    });
    expect(res.statusCode).toBe(200);
    const created = res.json().data.competitors as Array<{ competitorId: string; name: string }>;
    const paused = created.find((c) => c.name === 'Paused Co')!.competitorId;
    await t.runtime.ctx.store.query(`update competitors set state = 'inactive' where id = $1`, [paused]);

    const info = await brandInfoByNumber(t.runtime.ctx.store, projectId);
    const apart = await readApart(projectId);
    expect(info.byId).toEqual(apart.byId);
    expect(info.numbers).toEqual(apart.numbers);
    // the own brand under the all-zero id, with the own-brand record's name as an alias (not shown)
    expect(info.byId.get(OWN_BRAND_ID)).toMatchObject({ name: 'Acme', icon_url: 'https://acme.com/favicon.ico' });
    expect([...info.byId.values()].map((b) => b.name)).toEqual(['Acme', 'Rival', 'Other']);
    expect(info.byId.has(paused)).toBe(false);
    expect(info.numbers.has(paused)).toBe(true);
    // by number: every brand with info, under its number; the paused one's number names nothing
    expect(info.byNumber.get(0)?.name).toBe('Acme');
    expect(info.byNumber.get(info.numbers.get(paused)!)).toBeUndefined();
    expect([...info.byNumber.values()].map((b) => b.name).sort()).toEqual(['Acme', 'Other', 'Rival']);
  });

  it('a project without competitors has its own brand alone; an unknown project has none', async () => {
    const acct = await createAccount(t.app);
    const projectId = await createProject(t.app, acct.key, { brand_name: 'Solo', brand_url: 'https://solo-crm.com/' });
    const info = await brandInfoByNumber(t.runtime.ctx.store, projectId);
    expect([...info.byId.keys()]).toEqual([OWN_BRAND_ID]);
    expect(info.numbers).toEqual(new Map([[OWN_BRAND_ID, 0]]));

    const none = await brandInfoByNumber(t.runtime.ctx.store, '11111111-1111-1111-1111-111111111111');
    expect(none.byId.size).toBe(0);
    expect(none.byNumber.size).toBe(0);
    expect(none.numbers).toEqual(new Map([[OWN_BRAND_ID, 0]]));
  });
});
