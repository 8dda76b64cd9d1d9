import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readArticle } from '../../ports/pages/extract.js';
import { encodeAnswerBody } from '../answers/answer-body.js';
import { fixtureHtml, startFixtureServer, type FixtureServer } from '../../../test/fixtures/page-fixtures.js';
import { client, createAccount, createProject, setTeam, startTestApp, type Account, type TestApp } from '../../../test/helpers.js';

// POST /actions/{id}/enrich-content and /enrich-forum over HTTP, against a local page
// server (test/fixtures/pages) and the built-in writer. Action rows are inserted directly.

const PROMPT = 'What is the best CRM for a small business?';
const ARTICLE = readArticle(fixtureHtml('article'), 'http://127.0.0.1/article.html');
const THREAD_HTML = `<!doctype html><html><head><title>Best CRM for a 3-person agency? : r/smallbusiness</title></head>
<body><main><h1>Best CRM for a 3-person agency?</h1><p>We track clients in a spreadsheet and it is falling apart. What do you use?</p></main></body></html>`;

let t: TestApp;
let pages: FixtureServer;
let acct: Account;
let projectId: string;

async function insertAction(category: string, targets: Array<{ type: string; value: string }>, project = projectId, team = acct.teamId): Promise<string> {
  const { rows } = await t.runtime.ctx.store.query<{ id: string }>(
    `insert into actions (project_id, team_id, priority, title, description, category, targets, execution)
     values ($1, $2, 'high', 'Improve the CRM guide', 'So engines cite it', $3, $4::jsonb, $5::jsonb) returning id`,
    [project, team, category, JSON.stringify(targets), JSON.stringify({ type: 'prompt', prompt: null, skill: null, params: null })],
  );
  return rows[0].id;
}

beforeAll(async () => {
  pages = await startFixtureServer({
    '/thread': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(THREAD_HTML);
    },
    '/slow': () => {
      /* never answers */
    },
  });
  t = await startTestApp({ allowPrivateUrls: true, role: 'api' }) // no workers: no bootstrap re-analysis rewriting the rollups under the tests;
  acct = await createAccount(t.app);
  await setTeam(t, acct.teamId, { plan: 'pro' });
  projectId = await createProject(t.app, acct.key, { brand_name: 'Pipewise', brand_url: `${pages.base}/crm-vendor.html` });
  const store = t.runtime.ctx.store;
  await store.query(
    `insert into prompts (project_id, team_id, content, content_key) values ($1, $2, $3, lower($3)) on conflict do nothing`,
    [projectId, acct.teamId, PROMPT],
  );
  await store.query(
    `insert into competitors (project_id, name, website, domain) values ($1, 'HubSpot', 'https://hubspot.com', 'hubspot.com'), ($1, 'Salesforce', 'https://salesforce.com', 'salesforce.com')
     on conflict do nothing`,
    [projectId],
  );
}, 60_000);

afterAll(async () => {
  await t?.stop();
  await pages?.close();
});

describe('POST /actions/{id}/enrich-content', { timeout: 20_000 }, () => {
  it('returns edits that quote the page and carry the GEO signals', async () => {
    const id = await insertAction('content_update', [{ type: 'url', value: `${pages.base}/article.html` }, { type: 'keyword', value: 'crm for agencies' }]);
    const res = await client(t.app, acct.key).post(`/projects/${projectId}/actions/${id}/enrich-content`);
    expect(res.statusCode).toBe(200);
    const { success, data } = res.json();
    expect(success).toBe(true);
    const signals = data.map((e: { signal: string }) => e.signal);
    expect(signals).toEqual(expect.arrayContaining(['cite_sources', 'add_statistics', 'add_quotations', 'fluency', 'answer_prompt', 'comparison']));
    for (const e of data) {
      expect(Object.keys(e).sort()).toEqual(['after', 'before', 'reason', 'section', 'signal', 'type']);
      if (e.type === 'replace') expect(ARTICLE.paragraphs).toContain(e.before);
      if (e.type === 'insert') expect(e.before).toBeNull();
    }
    expect(data.find((e: { signal: string }) => e.signal === 'answer_prompt').after).toContain(PROMPT);
    expect(data.find((e: { signal: string }) => e.signal === 'comparison').after).toMatch(/HubSpot.*Salesforce|Salesforce.*HubSpot/s);
    expect(pages.hits).toContain('/article.html');
  });

  it('400 for another category or without a url target', async () => {
    const forum = await insertAction('forum_engagement', [{ type: 'url', value: `${pages.base}/article.html` }]);
    const res = await client(t.app, acct.key).post(`/projects/${projectId}/actions/${forum}/enrich-content`);
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toMatch(/content_update/);
    const noUrl = await insertAction('content_update', [{ type: 'keyword', value: 'crm' }]);
    const res2 = await client(t.app, acct.key).post(`/projects/${projectId}/actions/${noUrl}/enrich-content`);
    expect(res2.statusCode).toBe(400);
    expect(res2.json().detail).toMatch(/no target URL/);
  });

  it("404 for an unknown action and for another project's action", async () => {
    const c = client(t.app, acct.key);
    const unknown = await c.post(`/projects/${projectId}/actions/00000000-0000-4000-8000-000000000001/enrich-content`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().detail).toBe('Action not found');
    const other = await createProject(t.app, acct.key, { brand_name: 'Other', brand_url: `${pages.base}/bakery.html` });
    const elsewhere = await insertAction('content_update', [{ type: 'url', value: `${pages.base}/article.html` }], other);
    const res = await c.post(`/projects/${projectId}/actions/${elsewhere}/enrich-content`);
    expect(res.statusCode).toBe(404);
    expect(res.json().detail).toBe('Action not found');
  });

  it("403 for a viewer and for another team's project", async () => {
    const id = await insertAction('content_update', [{ type: 'url', value: `${pages.base}/article.html` }]);
    const viewer = await client(t.app, acct.key).post('/keys', { scope: 'viewer' });
    expect(viewer.statusCode).toBe(201);
    const asViewer = await client(t.app, viewer.json().data.api_key).post(`/projects/${projectId}/actions/${id}/enrich-content`);
    expect(asViewer.statusCode).toBe(403);
    const stranger = await createAccount(t.app);
    const res = await client(t.app, stranger.key).post(`/projects/${projectId}/actions/${id}/enrich-content`);
    expect(res.statusCode).toBe(403);
    expect(res.json().detail).toBe('Project does not belong to your team');
  });

  it('422 with the reason when the page cannot be fetched', async () => {
    const c = client(t.app, acct.key);
    const missing = await insertAction('content_update', [{ type: 'url', value: `${pages.base}/no-such-page.html` }]);
    const res = await c.post(`/projects/${projectId}/actions/${missing}/enrich-content`);
    expect(res.statusCode).toBe(422);
    expect(res.json().detail).toMatch(/^Could not fetch the target page: .*HTTP 404/);
    const closed = await insertAction('content_update', [{ type: 'url', value: 'http://127.0.0.1:1/page' }]);
    const res2 = await c.post(`/projects/${projectId}/actions/${closed}/enrich-content`);
    expect(res2.statusCode).toBe(422);
    expect(res2.json().detail).toMatch(/^Could not fetch the target page: /);
  });

  it('refuses private addresses unless ALLOW_PRIVATE_URLS is set', async () => {
    const id = await insertAction('content_update', [{ type: 'url', value: `${pages.base}/article.html` }]);
    const config = t.runtime.ctx.config;
    config.allowPrivateUrls = false;
    try {
      const res = await client(t.app, acct.key).post(`/projects/${projectId}/actions/${id}/enrich-content`);
      expect(res.statusCode).toBe(422);
      expect(res.json().detail).toMatch(/Refusing to connect/);
    } finally {
      config.allowPrivateUrls = true;
    }
  });

  it('compares with the competitors the engines name where the brand is missing (rollups)', async () => {
    const store = t.runtime.ctx.store;
    const { rows } = await store.query<{ id: string }>(`select id from prompts where project_id = $1 and content = $2`, [projectId, PROMPT]);
    const sf = await store.query<{ brand_no: number }>(`select brand_no from competitors where project_id = $1 and name = 'Salesforce'`, [projectId]);
    // Salesforce named in 100,000 answers: its brand number's slot of the per-brand arrays
    const named = Array.from({ length: sf.rows[0].brand_no + 1 }, (_, i) => (i === sf.rows[0].brand_no ? 100000 : 0));
    await store.query(
      `insert into prompt_daily (project_id, prompt_id, provider, day, market, responses, mentioned, position_sum, sentiment_sum, cites_own, citations,
                                 brand_mentions, brand_counts)
       values ($1, $2, 'chatgpt', current_date - 1, 'US-en', 4, 1, 0, 0, 0, 0, $3::int[], $3::int[])
       on conflict (prompt_id, provider, day, market) do update set responses = prompt_daily.responses + 4, brand_mentions = $3::int[], brand_counts = $3::int[]`,
      [projectId, rows[0].id, named],
    );
    try {
      const id = await insertAction('content_update', [{ type: 'url', value: `${pages.base}/article.html` }]);
      const res = await client(t.app, acct.key).post(`/projects/${projectId}/actions/${id}/enrich-content`);
      expect(res.statusCode).toBe(200);
      const cmp = res.json().data.find((e: { signal: string }) => e.signal === 'comparison');
      expect(cmp.after).toContain('Salesforce');
      expect(cmp.after).toMatch(/^## Pipewise compared with Salesforce/); // the most named first
    } finally {
      await store.query(`delete from prompt_daily where project_id = $1`, [projectId]);
    }
  });
});

describe('POST /actions/{id}/enrich-forum', { timeout: 20_000 }, () => {
  it('drafts a reply with the thread title read from the page', async () => {
    const url = `${pages.base}/thread`;
    const id = await insertAction('forum_engagement', [{ type: 'url', value: url }]);
    const res = await client(t.app, acct.key).post(`/projects/${projectId}/actions/${id}/enrich-forum`);
    expect(res.statusCode).toBe(200);
    const { data } = res.json();
    expect(data.thread_url).toBe(url);
    expect(data.thread_title).toBe('Best CRM for a 3-person agency? : r/smallbusiness');
    expect(data.comment).toMatch(/disclosure: I work at Pipewise/i);
    expect(data.comment_word_count).toBe(data.comment.match(/[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu).length);
    expect(data.comment_word_count).toBeGreaterThan(50);
  });

  it('uses the URL as the title when the thread cannot be read and was never cited', async () => {
    const url = `${pages.base}/gone-thread`;
    const id = await insertAction('forum_engagement', [{ type: 'url', value: url }]);
    const res = await client(t.app, acct.key).post(`/projects/${projectId}/actions/${id}/enrich-forum`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ thread_url: url, thread_title: url });
  });

  it('falls back to the title the thread was cited under', async () => {
    const url = `${pages.base}/deleted-thread`;
    const store = t.runtime.ctx.store;
    const { rows } = await store.query<{ id: string }>(`select id from prompts where project_id = $1 and content = $2`, [projectId, PROMPT]);
    const page = await store.query<{ id: number }>(
      `insert into cited_pages (project_id, url, domain, title, category) values ($1, $2, '127.0.0.1', 'Which CRM do small agencies use?', 0) returning id`,
      [projectId, url],
    );
    await store.query(`select responses_month_partition('2020-01-01')`); // the month's partition, as storeAnswers makes it
    await store.query(
      `insert into responses (project_id, prompt_id, provider, day, market, model, simulated, body, mentioned, cites_own, citation_count, cited)
       values ($1, $2, 'perplexity', '2020-01-01', 'US-en', 'sonar', true, decode($3, 'base64'), false, false, 1, $4::int[])`,
      [projectId, rows[0].id, encodeAnswerBody({ text: 'answer', references: [], searchQueries: [], raw: null }).toString('base64'), [page.rows[0].id]],
    );
    const id = await insertAction('forum_engagement', [{ type: 'url', value: url }]);
    const res = await client(t.app, acct.key).post(`/projects/${projectId}/actions/${id}/enrich-forum`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ thread_url: url, thread_title: 'Which CRM do small agencies use?' });
    expect(res.json().data.comment).toContain('Which CRM do small agencies use?');
  });

  it('400 when the action is not forum_engagement; 404 when unknown', async () => {
    const id = await insertAction('content_update', [{ type: 'url', value: `${pages.base}/thread` }]);
    const c = client(t.app, acct.key);
    const res = await c.post(`/projects/${projectId}/actions/${id}/enrich-forum`);
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toMatch(/forum_engagement/);
    expect((await c.post(`/projects/${projectId}/actions/00000000-0000-4000-8000-000000000002/enrich-forum`)).statusCode).toBe(404);
  });
});
