// GET /projects/{id}/competitors/suggestions (extension): brands that recur in the answers
// of the window and are not tracked. The answers' texts go through the real analyser's
// candidate rules (src/analysis/README.md, "Other brands"); the expected tallies below are
// counted by hand from the texts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, createAccount, errorBody, startTestApp, type TestApp } from '../../../test/helpers.js';
import { data, fixtureProject, storeSpecs, type AnswerSpec, type FixtureProject } from '../../../test/analytics-fixture.js';

let t: TestApp;
let f: FixtureProject;
const D1 = '2025-05-01';
const D2 = '2025-05-02';
const W = `date_from=${D1}&date_to=${D2}`;
const cite = (url: string) => ({ url, domain: new URL(url).hostname.replace(/^www\./, ''), category: 0, urlType: 0 });

// Tracked: Acme (own) and Rival. In W:
//   A1 chatgpt D1     Zoho CRM, Attio (cites zoho.com, attio.com), Rival (tracked)
//   A2 perplexity D1  Attio twice (cites attio.com), Acme (own)
//   A3 chatgpt D2     Zoho CRM, "Rival Sales Hub" (names a tracked brand: no suggestion)
//   A4 claude D2      Nimble once (one answer of four: not recurring)
// Before W: Pipedrive in two answers (outside the window: never counted).
// So over all providers: Attio 2 answers / 3 mentions, Zoho CRM 2 / 2; 4 answers read.
beforeAll(async () => {
  t = await startTestApp({ role: 'api', rateLimitWindowMs: 100 });
  f = await fixtureProject(t, { brand: 'Acme', url: 'https://acme.com', prompts: ['Best CRM?', 'Cheap CRM?'], competitors: [{ name: 'Rival', website: 'rival.com' }] });
  const [P1, P2] = f.promptIds;
  const specs: AnswerSpec[] = [
    { prompt: P1, provider: 'chatgpt', day: D1, text: '- **Zoho CRM**: cheap.\n- **Attio**: modern.\n- **Rival**: solid.', cites: [cite('https://www.zoho.com/crm/'), cite('https://attio.com/')] },
    { prompt: P1, provider: 'perplexity', day: D1, text: '- **Attio**: flexible. Attio has a free plan.\n- **Acme**: simple.', cites: [cite('https://attio.com/pricing')] },
    { prompt: P2, provider: 'chatgpt', day: D2, text: '- **Zoho CRM**: cheap.\n- **Rival Sales Hub**: an add-on.' },
    { prompt: P2, provider: 'claude', day: D2, text: 'Nothing stands out. **Nimble** is one option.' },
    { prompt: P1, provider: 'chatgpt', day: '2025-04-20', text: '- **Pipedrive**: visual pipelines.', cites: [cite('https://www.pipedrive.com/')] },
    { prompt: P2, provider: 'chatgpt', day: '2025-04-20', text: '- **Pipedrive**: visual pipelines.' },
  ];
  await storeSpecs(t, f.projectId, specs, 'acme.com');
});
afterAll(async () => t?.stop());

const suggestions = (q: string) => data(f.api, `/projects/${f.projectId}/competitors/suggestions?${q}`);

describe('GET /projects/{project_id}/competitors/suggestions', () => {
  it('ranks untracked brands by the answers naming them, with mentions and share of answers', async () => {
    const d = await suggestions(W);
    expect(d).toEqual({
      project_id: f.projectId,
      period: `${D1} to ${D2}`,
      answers_in_window: 4,
      answers_read: 4,
      suggestions: [
        { name: 'Attio', website: 'attio.com', answers: 2, mentions: 3, share_of_answers: 50 },
        { name: 'Zoho CRM', website: 'zoho.com', answers: 2, mentions: 2, share_of_answers: 50 },
      ],
    });
  });

  it('reads only the providers asked for; with fewer than three answers one is enough', async () => {
    const d = await suggestions(`${W}&providers=chatgpt`);
    expect(d.answers_read).toBe(2);
    expect(d.suggestions).toEqual([
      { name: 'Zoho CRM', website: 'zoho.com', answers: 2, mentions: 2, share_of_answers: 100 },
      { name: 'Attio', website: 'attio.com', answers: 1, mentions: 1, share_of_answers: 50 },
    ]);
    expect((await suggestions(`${W}&limit=1`)).suggestions.map((s: any) => s.name)).toEqual(['Attio']);
  });

  it('drops a brand once it is tracked (the cached answer too)', async () => {
    const added = await f.api.post(`/projects/${f.projectId}/competitors`, { competitors: [{ name: 'Attio', website: 'attio.com' }] });
    expect(added.statusCode).toBe(200);
    const d = await suggestions(W);
    expect(d.suggestions.map((s: any) => s.name)).toEqual(['Zoho CRM']);
  });

  it('is empty for a window without answers', async () => {
    const d = await suggestions('date_from=2024-01-01&date_to=2024-01-31');
    expect(d).toMatchObject({ answers_in_window: 0, answers_read: 0, suggestions: [] });
  });

  it('refuses bad input with a 400, and another team or no key', async () => {
    const bad = await f.api.get(`/projects/${f.projectId}/competitors/suggestions?limit=0`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual(errorBody('limit must be an integer from 1 to 50'));
    expect((await f.api.get(`/projects/${f.projectId}/competitors/suggestions?providers=bard`)).statusCode).toBe(400);
    const other = client(t.app, (await createAccount(t.app)).key);
    expect((await other.get(`/projects/${f.projectId}/competitors/suggestions`)).statusCode).toBe(403);
    expect((await client(t.app).get(`/projects/${f.projectId}/competitors/suggestions`)).statusCode).toBe(401);
  });
});
