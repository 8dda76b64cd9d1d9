// The site audit against a local test site with planted problems (robots rules for two
// agents, a UA-based 403 for GPTBot, a noindex page, a JavaScript-only page, no llms.txt):
// the audit finds exactly those, offers each fix as an Action, and reports the difference
// from the last run once the site is fixed. Through HTTP and the job queue, on a real store.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, createAccount, createProject, errorBody, startTestApp, until, type TestApp } from '../../../test/helpers.js';

let t: TestApp;
let site: http.Server;
let base = '';
/** The fix of the second run: GPTBot let through, llms.txt published. */
let fixed = false;

const LD = '<script type="application/ld+json">{"@context":"https://schema.org","@type":"Organization","name":"Acme"}</script>';
const TEXT = '<p>Acme builds widgets for teams that ship every day. Pricing, guides and support are all on this site, written for people and agents alike.</p>';
const page = (head: string, body: string) => `<!doctype html><html><head><title>Acme</title>${head}${LD}</head><body>${body}</body></html>`;
const PAGES: Record<string, string> = {
  '/': page('', `<h1>Acme</h1>${TEXT}`),
  '/about': page('', `<h1>About</h1>${TEXT}`),
  '/noindex': page('<meta name="robots" content="noindex, follow">', `<h1>Hidden</h1>${TEXT}`),
  '/app': page('', '<div id="root"></div><script src="/app.js"></script>'),
  '/private': page('', `<h1>Private</h1>${TEXT}`),
};

beforeAll(async () => {
  site = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const ua = req.headers['user-agent'] ?? '';
    if (path === '/robots.txt') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      return res.end(`User-agent: ClaudeBot\nDisallow: /\n\nUser-agent: GPTBot\nDisallow: /private\n\nUser-agent: *\nAllow: /\n\nSitemap: ${base}/sitemap.xml\n`);
    }
    if (path === '/sitemap.xml') {
      res.writeHead(200, { 'content-type': 'application/xml' });
      return res.end(`<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${Object.keys(PAGES).map((p) => `<url><loc>${base}${p}</loc></url>`).join('')}</urlset>`);
    }
    if (path === '/llms.txt' && fixed) {
      res.writeHead(200, { 'content-type': 'text/plain' });
      return res.end('# Acme\n\n- [Pricing](/pricing)\n');
    }
    if (/GPTBot/.test(ua) && !fixed) {
      res.writeHead(403, { 'content-type': 'text/html' });
      return res.end('<html><body>Attention required</body></html>');
    }
    const html = PAGES[path];
    res.writeHead(html ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html ?? '<html><body>Not found</body></html>');
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  t = await startTestApp({ allowPrivateUrls: true });
});
afterAll(async () => {
  await t?.stop();
  await new Promise((r) => site?.close(r));
});

const EXPECTED = () => [
  { code: 'llms_txt_missing', url: `${base}/llms.txt` },
  { code: 'robots_disallows_agent', url: `${base}/`, agent: 'ClaudeBot' },
  { code: 'robots_disallows_agent', url: `${base}/private`, agent: 'GPTBot' },
  { code: 'agent_blocked_http', url: `${base}/`, agent: 'GPTBot' },
  { code: 'noindex', url: `${base}/noindex` },
  { code: 'no_server_rendered_text', url: `${base}/app` },
];
const key = (f: { code: string; url: string; agent?: string }) => `${f.code} ${f.url} ${f.agent ?? ''}`;

describe('site audit', () => {
  it('finds exactly the planted problems, offers Actions, and reports what a fix resolved', async () => {
    const acct = await createAccount(t.app);
    const api = client(t.app, acct.key);
    const projectId = await createProject(t.app, acct.key, { brand_name: 'Acme', brand_url: base });
    expect((await api.get(`/projects/${projectId}/site-audit`)).statusCode).toBe(404);

    const started = Date.now();
    const res = await api.post(`/projects/${projectId}/site-audit`);
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json().data).toEqual({ audit_id: expect.any(String), status: 'queued' });
    // a second start while it runs: the same audit
    expect((await api.post(`/projects/${projectId}/site-audit`)).json().data.audit_id).toBe(res.json().data.audit_id);

    const done = await until(async () => {
      const r = (await api.get(`/projects/${projectId}/site-audit`)).json().data;
      return r.status === 'completed' || r.status === 'failed' ? r : null;
    }, 180_000, 250);
    expect(Date.now() - started).toBeLessThan(180_000);
    expect(done.status, done.error).toBe('completed');
    expect(done.findings.map(key).sort()).toEqual(EXPECTED().map(key).sort());
    for (const f of done.findings) expect(f).toMatchObject({ severity: expect.stringMatching(/^(high|medium|low)$/), detail: expect.any(String), fix: expect.any(String) });
    expect(done.changes).toBeNull();
    const pages = Object.fromEntries(done.pages.map((p: { url: string }) => [p.url.slice(base.length), p]));
    expect(Object.keys(pages).sort()).toEqual(Object.keys(PAGES).sort());
    expect(pages['/'].agents).toMatchObject({ GPTBot: 403, ClaudeBot: 200, PerplexityBot: 200 });
    expect(pages['/'].json_ld_types).toEqual(['Organization']);
    expect(pages['/noindex'].noindex).toBe(true);

    const actions = (await api.get(`/projects/${projectId}/actions`)).json();
    const titles = JSON.stringify(actions);
    expect(titles).toContain('Publish an llms.txt');
    expect(titles).toContain('Stop blocking GPTBot');

    // the site fixed: the next run shows two findings resolved, none new
    fixed = true;
    const again = await api.post(`/projects/${projectId}/site-audit`);
    expect(again.json().data.audit_id).not.toBe(res.json().data.audit_id);
    const second = await until(async () => {
      const r = (await api.get(`/projects/${projectId}/site-audit`)).json().data;
      return r.audit_id === again.json().data.audit_id && r.status === 'completed' ? r : null;
    }, 180_000, 250);
    expect(second.changes.previous_audit_id).toBe(res.json().data.audit_id);
    expect(second.changes.new).toEqual([]);
    expect(second.changes.resolved.map(key).sort()).toEqual([`agent_blocked_http ${base}/ GPTBot`, `llms_txt_missing ${base}/llms.txt `]);
  });

  it("refuses another team's project and an unknown project", async () => {
    const owner = await createAccount(t.app);
    const other = await createAccount(t.app);
    const projectId = await createProject(t.app, owner.key, { brand_name: 'Acme', brand_url: base });
    const r = await client(t.app, other.key).post(`/projects/${projectId}/site-audit`);
    expect(r.statusCode).toBe(403);
    expect(r.json()).toEqual(errorBody(expect.any(String)));
    expect((await client(t.app, owner.key).get('/projects/6d1f8a4e-0000-4000-8000-000000000000/site-audit')).statusCode).toBe(404);
  });
});
