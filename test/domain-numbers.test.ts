// The per-project domain numbers (project_domains) under concurrent writers: batches stored
// at once, each bringing new domains (some the same, in other orders), number every domain
// once, and the domain rollup still counts every citation. (Today writers of one project
// also queue on its analytics version row, raised by the answers' insert; the numbering
// does not rely on that.)
import { afterAll, beforeAll, expect, it } from 'vitest';
import { fixtureProject, storeSpecs, type AnswerSpec } from './analytics-fixture.js';
import { startTestApp, type TestApp } from './helpers.js';
import { expectConsistentRollups } from './rollup-invariants.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ role: 'api' });
});
afterAll(async () => t?.stop());

it('batches stored at once number each new domain once and count every citation', async () => {
  const f = await fixtureProject(t, { brand: 'Numco', url: 'https://numco.io', prompts: ['One?', 'Two?', 'Three?', 'Four?'] });
  const domains = Array.from({ length: 12 }, (_, i) => `site${String(i).padStart(2, '0')}.com`);
  const batches: AnswerSpec[][] = f.promptIds.map((prompt, b) => {
    // each batch cites 8 of the 12 domains, in its own order
    const mine = domains.filter((_, i) => (i + b) % 3 !== 0);
    if (b % 2) mine.reverse();
    return [1, 2, 3].map((d) => ({
      prompt,
      provider: 'chatgpt',
      // days of its own: batches on the same day would wait for each other at the project's day row
      day: `2025-05-${String(b * 3 + d).padStart(2, '0')}`,
      // pages of its own too: a page another batch is adding would make it wait for that one's commit
      cites: mine.map((domain, k) => ({ url: `https://${domain}/b${b}-d${d}-p${k}`, domain, category: k % 6, urlType: 1 })),
    }));
  });
  await Promise.all(batches.map((specs) => storeSpecs(t, f.projectId, specs, 'numco.io')));
  const store = t.runtime.ctx.store;
  const { rows } = await store.query<{ no: number; domain: string }>(`select no, domain from project_domains where project_id = $1 order by no`, [f.projectId]);
  expect(rows.map((r) => r.domain).sort()).toEqual(domains);
  expect(rows.map((r) => r.no)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
  await expectConsistentRollups(store, f.projectId);
  const res = await f.api.get(`/projects/${f.projectId}/sources/analytics?date_from=2025-05-01&date_to=2025-05-12`);
  expect(res.statusCode).toBe(200);
  expect(res.json().data.stats).toEqual({ total_sources: 12, total_citations: 4 * 3 * 8 });
});
