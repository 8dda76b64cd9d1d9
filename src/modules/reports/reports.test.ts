import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureProject, OWN, storeSpecs } from '../../../test/analytics-fixture.js';
import { startTestApp, type TestApp } from '../../../test/helpers.js';
import { utcDay } from '../../lib/time.js';
import { addDays } from '../analytics/window.js';

// Shared reports and the BI export through HTTP: the link opens a read-only overview with a
// print stylesheet and no sign-in; its token opens that project's daily.csv and nothing
// else; revoked or expired, the page says the report was not found.

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ role: 'api' }, { PUBLIC_URL: 'https://sightline.example.com' });
});
afterAll(async () => t?.stop());

async function seeded() {
  const f = await fixtureProject(t, {
    brand: 'Acme "Rockets"',
    url: 'https://acme.com',
    prompts: ['=HYPERLINK("x") best rockets?', 'Cheapest rockets, please'],
    competitors: [{ name: 'Rival', website: 'https://rival.com' }],
  });
  const day = addDays(utcDay(), -1);
  const rival = f.competitorIds.Rival;
  await storeSpecs(
    t,
    f.projectId,
    [
      { prompt: f.promptIds[0], provider: 'chatgpt', day, named: { [OWN]: [1, 1, 70], [rival]: [2, 1, 50] }, cites: [{ url: 'https://acme.com/a', domain: 'acme.com', category: 1, urlType: null }] },
      { prompt: f.promptIds[0], provider: 'chatgpt', day: addDays(day, -1), named: {} },
      { prompt: f.promptIds[1], provider: 'perplexity', day, named: { [rival]: [1, 1, 40] } },
    ],
    'acme.com',
    { 'rival.com': rival },
  );
  return { f, day, rival };
}

const page = (url: string) => t.app.inject({ method: 'GET', url });

describe('shared reports', () => {
  it('creates a link under PUBLIC_URL that shows the overview without sign-in, print-ready', async () => {
    const { f } = await seeded();
    const res = await f.api.post(`/projects/${f.projectId}/reports`, { window_days: 7, expires_in_days: 3 });
    expect(res.statusCode, res.body).toBe(200);
    const r = res.json().data;
    expect(r.url).toMatch(/^https:\/\/sightline\.example\.com\/r\/rp_[0-9A-Za-z]{32}$/);
    expect(Date.parse(r.expires_at) - Date.now()).toBeGreaterThan(2.9 * 86_400_000);
    const html = await page(new URL(r.url).pathname);
    expect(html.statusCode).toBe(200);
    expect(html.body).toContain('Acme &#34;Rockets&#34; in AI answers');
    expect(html.body).toContain('Rival');
    expect(html.body).toContain('<link rel="stylesheet" href="report.css">');
    expect(html.body).not.toContain('<script');
    const css = await page('/r/report.css');
    expect(css.headers['content-type']).toContain('text/css');
    expect(css.body).toContain('@media print');
    // the token is stored only as its hash
    const { rows } = await t.runtime.ctx.store.query<{ token_hash: string }>(`select token_hash from shared_reports where id = $1`, [r.report_id]);
    expect(rows[0].token_hash).not.toContain(r.token);
    expect((await f.api.get(`/projects/${f.projectId}/reports`)).json().data).toEqual([expect.objectContaining({ report_id: r.report_id, status: 'active' })]);
  });

  it('a revoked or expired link shows a 404 page saying the report was not found', async () => {
    const { f } = await seeded();
    const r = (await f.api.post(`/projects/${f.projectId}/reports`, {})).json().data;
    const path = new URL(r.url).pathname;
    expect((await page(path)).statusCode).toBe(200);
    const del = await f.api.delete(`/projects/${f.projectId}/reports/${r.report_id}`);
    expect(del.json().data).toEqual({ report_id: r.report_id, message: 'Report revoked' });
    const gone = await page(path);
    expect(gone.statusCode).toBe(404);
    expect(gone.body).toContain('Report not found');
    expect(gone.body).not.toContain('Acme');
    const csv = await t.app.inject({ method: 'GET', url: `/v1/projects/${f.projectId}/export/daily.csv?token=${r.token}` });
    expect(csv.statusCode).toBe(401);

    const r2 = (await f.api.post(`/projects/${f.projectId}/reports`, {})).json().data;
    await t.runtime.ctx.store.query(`update shared_reports set expires_at = now() - interval '1 second' where id = $1`, [r2.report_id]);
    expect((await page(new URL(r2.url).pathname)).statusCode).toBe(404);
    expect((await page('/r/rp_unknown')).body).toContain('Report not found');
  });

  it('refuses bad input with a 400', async () => {
    const { f } = await seeded();
    const res = await f.api.post(`/projects/${f.projectId}/reports`, { window_days: 0 });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toMatch(/window_days/);
  });
});

describe('daily.csv export', () => {
  it('one row per day, provider, prompt and brand, with the key or a report token of that project only', async () => {
    const { f, day, rival } = await seeded();
    const q = `start_date=${addDays(day, -1)}&end_date=${day}`;
    const res = await f.api.get(`/projects/${f.projectId}/export/daily.csv?${q}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    const lines = res.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe('date,provider,prompt_id,prompt,brand_id,brand,responses,mentions,visibility,avg_position,sentiment,citations');
    // 3 (day, provider, prompt) rows × 2 brands
    expect(lines).toHaveLength(1 + 6);
    const p0 = f.promptIds[0];
    expect(lines).toContain(`${day},chatgpt,${p0},"'=HYPERLINK(""x"") best rockets?",00000000-0000-0000-0000-000000000000,"Acme ""Rockets""",1,1,100,1,70,1`);
    expect(lines).toContain(`${day},chatgpt,${p0},"'=HYPERLINK(""x"") best rockets?",${rival},Rival,1,1,100,,,`);
    expect(lines).toContain(`${addDays(day, -1)},chatgpt,${p0},"'=HYPERLINK(""x"") best rockets?",00000000-0000-0000-0000-000000000000,"Acme ""Rockets""",1,0,0,,,0`);

    const r = (await f.api.post(`/projects/${f.projectId}/reports`, {})).json().data;
    const byToken = await t.app.inject({ method: 'GET', url: `/v1/projects/${f.projectId}/export/daily.csv?${q}&token=${r.token}` });
    expect(byToken.statusCode).toBe(200);
    expect(byToken.body).toBe(res.body);
    const other = await seeded();
    const elsewhere = await t.app.inject({ method: 'GET', url: `/v1/projects/${other.f.projectId}/export/daily.csv?token=${r.token}` });
    expect(elsewhere.statusCode).toBe(401);
    // a token is not a key anywhere else
    const list = await t.app.inject({ method: 'GET', url: `/v1/projects/${f.projectId}/alerts?token=${r.token}` });
    expect([400, 401]).toContain(list.statusCode);
    expect((await f.api.get(`/projects/${f.projectId}/export/daily.csv?start_date=2026-02-30`)).statusCode).toBe(400);
  });
});
