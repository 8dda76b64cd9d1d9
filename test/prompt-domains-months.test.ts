// A prompt's domains over a window of whole months read those months from
// prompt_domain_monthly, summed per domain in SQL, and the other days from the answers. This
// stores three months of answers through the write path and holds every domain figure of
// windows with whole months (every provider and some) to the same figures counted from the
// answers stored: citations, the answers citing, the lowest category, whether an answer
// citing it names the own brand, and the brands named beside it.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { seedProject } from '../src/collection/seed.js';
import * as metrics from '../src/modules/analytics/metrics.js';
import { PROVIDERS } from '../src/ports/providers/types.js';
import { client, startTestApp, type TestApp } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ role: 'api' });
});
afterAll(async () => t?.stop());

const WINDOWS: Array<{ from: string; to: string; providers?: string[] }> = [
  { from: '2025-03-01', to: '2025-05-20' },
  { from: '2025-02-26', to: '2025-04-30' },
  { from: '2025-03-10', to: '2025-05-31', providers: ['perplexity', 'claude'] },
  { from: '2025-03-01', to: '2025-04-30', providers: ['gemini'] },
];

it("a prompt's domains over whole months are the counts of its answers' citations", async () => {
  const s = await seedProject(t.runtime.ctx, { prompts: 2, providers: [...PROVIDERS], days: 90, competitors: 4, endDay: '2025-05-20' });
  const c = client(t.app, s.apiKey);
  const prompts = ((await c.get(`/projects/${s.projectId}/prompts`)).json().data.prompts as Array<{ id: string }>).map((p) => p.id);
  const brands = (await c.get(`/projects/${s.projectId}/competitors`)).json().data.active_competitors as Array<{ name: string; is_own_brand: boolean }>;
  // brand number -> name: the own brand is 0, a competitor its brand_no
  const nameOf = new Map<number, string>([[0, brands.find((b) => b.is_own_brand)!.name]]);
  const numbered = await t.runtime.ctx.store.query<{ brand_no: number; name: string }>(`select brand_no, name from competitors where project_id = $1 and not is_own_brand`, [s.projectId]);
  for (const r of numbered.rows) nameOf.set(r.brand_no, r.name);
  let compared = 0;
  for (const promptId of prompts) {
    for (const w of WINDOWS) {
      const providers = w.providers ?? [...PROVIDERS];
      const query = `date_from=${w.from}&date_to=${w.to}${w.providers ? `&providers=${w.providers.join(',')}` : ''}`;
      const res = await c.get(`/projects/${s.projectId}/prompts/${promptId}/domains?${query}`);
      expect(res.statusCode, res.body).toBe(200);
      const items = res.json().data.items as Array<{ domain: string; domain_type: number; citation_count: number; avg_citations: number; used_percentage: number; mentioned: boolean; brands_appeared: Array<{ name: string }> }>;
      const params = [promptId, w.from, w.to, providers];
      const total = (
        await t.runtime.ctx.store.query<{ n: number }>(
          `select count(*)::int as n from responses r where r.prompt_id = $1 and r.day between $2::date and $3::date and r.provider = any($4::text[])`,
          params,
        )
      ).rows[0].n;
      // each citation: the answer, the page's domain and category, and the brands the answer names
      const { rows } = await t.runtime.ctx.store.query<{ id: string; domain: string; category: number; mentioned: boolean; brand_nos: number[] }>(
        `select r.id, p.domain, p.category, r.mentioned, r.brand_nos
           from responses r cross join unnest(r.cited) as k(id) join cited_pages p on p.id = k.id
          where r.prompt_id = $1 and r.day between $2::date and $3::date and r.provider = any($4::text[])`,
        params,
      );
      const byDomain = new Map<string, { category: number; citations: number; answers: Set<string>; mentioned: boolean; names: Set<string> }>();
      for (const r of rows) {
        const d = byDomain.get(r.domain) ?? { category: r.category, citations: 0, answers: new Set<string>(), mentioned: false, names: new Set<string>() };
        byDomain.set(r.domain, d);
        d.category = Math.min(d.category, r.category);
        d.citations++;
        d.answers.add(r.id);
        d.mentioned ||= r.mentioned;
        for (const no of r.brand_nos) if (nameOf.has(no)) d.names.add(nameOf.get(no)!);
      }
      expect(byDomain.size).toBeGreaterThan(3);
      const expected = [...byDomain]
        .map(([domain, d]) => ({
          domain,
          domain_type: d.category,
          citation_count: d.citations,
          avg_citations: metrics.ratio(d.citations, d.answers.size),
          used_percentage: metrics.share(d.answers.size, total),
          mentioned: d.mentioned,
          brands_appeared: [...d.names].sort(),
        }))
        .sort((a, b) => b.citation_count - a.citation_count || a.domain.localeCompare(b.domain));
      const shown = items.map((i) => ({
        domain: i.domain,
        domain_type: i.domain_type,
        citation_count: i.citation_count,
        avg_citations: i.avg_citations,
        used_percentage: i.used_percentage,
        mentioned: i.mentioned,
        brands_appeared: i.brands_appeared.map((b) => b.name).sort(),
      }));
      expect(shown, `${promptId} ${query}`).toEqual(expected);
      compared += expected.length;
    }
  }
  expect(compared).toBeGreaterThan(20);
});
