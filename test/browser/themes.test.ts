import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAnalyzer } from '../../src/analysis/index.js';
import { storeAnswers, type AnalysedAnswer } from '../../src/modules/answers/store-answers.js';
import { loadBrandSpecs } from '../../src/modules/projects/brands.js';
import { loadProjectWithPlan } from '../../src/modules/projects/project-row.js';
import { fixtureProject, type FixtureProject } from '../analytics-fixture.js';
import { createAccount } from '../helpers.js';
import { browserTestsOff, newPage, signInWithKey, startBrowserApp, type BrowserApp } from './harness.js';

// The themes section of the competitors page: the own brand beside each competitor theme by
// theme, and a brand's examples linking to the answers; drawn at 1280 and 390 px.

const TEXTS = [
  'Brevio is cheaper than Zenlytics, but its reporting is limited. Zenlytics has excellent customer support.',
  'Brevio is affordable and intuitive. Zenlytics is expensive and its interface is clunky.',
  'Brevio support is slow and hard to reach. Zenlytics integrates with hundreds of apps.',
  'Brevio pricing is great value for money, and Brevio is very reliable.',
];
// The section's pictures go to docs/screenshots/ only when asked (UPDATE_SCREENSHOTS=1): a test
// run leaves the working tree as it found it.
const SHOTS =
  process.env.UPDATE_SCREENSHOTS === '1' ? new URL('../../docs/screenshots/', import.meta.url).pathname : path.join(os.tmpdir(), 'sightline-browser-shots');

describe.skipIf(browserTestsOff)('themes on the competitors page', () => {
  let b: BrowserApp;
  let f: FixtureProject;
  let key: string;

  beforeAll(async () => {
    b = await startBrowserApp();
    const account = await createAccount(b.t.app);
    key = account.key;
    f = await fixtureProject(b.t, {
      brand: 'Brevio',
      url: 'https://brevio.io',
      prompts: ['best crm for startups'],
      competitors: [{ name: 'Zenlytics', website: 'https://zenlytics.com' }],
      account,
    });
    const today = new Date().toISOString().slice(0, 10);
    await b.t.runtime.ctx.store.tx(async (tx) => {
      const analyse = createAnalyzer(await loadBrandSpecs(tx, (await loadProjectWithPlan(tx, f.projectId))!));
      const items: AnalysedAnswer[] = TEXTS.map((text, i) => ({
        promptId: f.promptIds[0],
        provider: 'chatgpt',
        day: today,
        sample: i + 1,
        market: 'US-en',
        answer: { provider: 'chatgpt', model: 'gpt-4o', text, references: [], raw: null, simulated: false },
        analysis: analyse(text, []),
      }));
      await storeAnswers(tx, f.projectId, items);
    });
  });
  afterAll(() => b?.stop());

  for (const width of [1280, 390]) {
    it(`compares the brands theme by theme at ${width} px`, async () => {
      const { page, errors, context } = await newPage(b, width);
      await signInWithKey(page, key);
      await page.goto(`/projects/${f.projectId}/competitors`);
      const table = page.locator('table[data-table="themes"]');
      await table.waitFor();
      expect(await table.locator('thead th').allInnerTexts()).toEqual(['Theme', 'Brevio you', 'Zenlytics']);
      await expect.poll(() => table.locator('tr[data-theme="price"] th').innerText()).toBe('Price');
      const example = page.locator('.theme-example-group li').first();
      expect(await example.innerText()).toMatch(/Brevio/);
      expect(await example.locator('a').getAttribute('href')).toContain(`/projects/${f.projectId}/prompts/${f.promptIds[0]}`);
      await page.getByLabel('Examples for').selectOption({ label: 'Zenlytics' });
      await expect.poll(() => page.locator('.theme-example-group li').first().innerText()).toMatch(/Zenlytics/);
      fs.mkdirSync(SHOTS, { recursive: true });
      await page.locator('section', { has: table }).screenshot({ path: path.join(SHOTS, `themes-${width}.png`) });
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});
