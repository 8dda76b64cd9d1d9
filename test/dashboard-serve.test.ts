import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { WEB_DIR } from '../src/dashboard/serve.js';
import { startTestApp, type TestApp } from './helpers.js';

// The dashboard at `/` (needs `npm run build`, which `npm test` runs first): its pages with
// a script-free CSP, its hashed assets, and the API's routes never shadowed.

const t: TestApp = await startTestApp();
afterAll(async () => t.stop());

describe('the dashboard', () => {
  it('serves the app at / and at its client routes with a CSP that allows no inline script', async () => {
    for (const url of ['/', '/sign-in', '/projects', '/projects/1234/prompts?days=30', '/settings']) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.body).toContain('<div id="app">');
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toContain('unsafe-inline');
      expect(csp).toContain("frame-ancestors 'none'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it('the page holds no inline script, and every asset it names is served', async () => {
    const html = (await t.app.inject({ url: '/' })).body;
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]);
    expect(assets.length).toBeGreaterThanOrEqual(2);
    for (const a of assets) {
      const res = await t.app.inject({ url: a });
      expect(res.statusCode, a).toBe(200);
      expect(res.headers['cache-control']).toMatch(/immutable/);
      expect(res.rawPayload.length).toBe(fs.statSync(path.join(WEB_DIR, a)).size);
    }
  });

  it('never shadows the API, the docs or the probes: unknown paths stay JSON 404s', async () => {
    const v1 = await t.app.inject({ url: '/v1/nope' });
    expect(v1.statusCode).toBe(404);
    expect(v1.json().code).toBe('not_found');
    expect(v1.headers['content-security-policy']).toBeUndefined();
    // /mcp and /llms.txt belong to the MCP surface: whatever they answer, never the app.
    for (const url of ['/mcp', '/llms.txt']) {
      const res = await t.app.inject({ url });
      expect(res.body, url).not.toContain('<div id="app">');
      expect(res.headers['content-security-policy'], url).toBeUndefined();
    }
    for (const url of ['/nope', '/assets/missing.js', '/projectsx']) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type']).toMatch(/json/);
    }
    expect((await t.app.inject({ url: '/healthz' })).json()).toEqual({ status: 'ok' });
    expect((await t.app.inject({ url: '/docs/' })).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/v1/openapi.json' })).statusCode).toBe(200);
  });

  it('a browser asking for an unknown path gets the app with a 404 (it says "Page not found"); programs keep the JSON 404', async () => {
    const html = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
    for (const url of ['/nope', '/projectsx', '/a/b/c?x=1']) {
      const res = await t.app.inject({ url, headers: html });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.body).toContain('<div id="app">');
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain('unsafe-inline');
    }
    for (const url of ['/v1/nope', '/assets/missing.js']) {
      const res = await t.app.inject({ url, headers: html });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toMatch(/json/);
    }
    const post = await t.app.inject({ method: 'POST', url: '/nope', headers: html });
    expect(post.headers['content-type']).toMatch(/json/);
  });
});
