// The dashboard's favicon proxy (GET /favicons/{domain}) against a local fake site that plays
// every brand (it tells them apart by the Host header, FAVICON_ORIGIN style): icons served and
// kept, HTML and oversized files refused, a site without an icon asked once, robots.txt
// obeyed, bad host names a 400, and nobody but a signed-in session served.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, startTestApp, type TestApp } from '../../../test/helpers.js';
import { faviconDomain, iconLinks, sniffImage } from './service.js';

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(40, 1)]);
const ICO = Buffer.concat([Buffer.from([0, 0, 1, 0]), Buffer.alloc(40, 2)]);

let t: TestApp;
let site: http.Server;
/** Requests the fake site got, as `host path`. */
const hits: string[] = [];
const hitsOf = (host: string) => hits.filter((h) => h.startsWith(`${host} `));

beforeAll(async () => {
  site = http.createServer((req, res) => {
    const host = String(req.headers.host);
    const path = (req.url ?? '/').split('?')[0];
    hits.push(`${host} ${path}`);
    const send = (status: number, type: string, body: string | Buffer) => {
      res.writeHead(status, { 'content-type': type });
      res.end(body);
    };
    if (host === 'slow.com' && path === '/favicon.ico') return setTimeout(() => send(200, 'image/x-icon', ICO), 300);
    if (host === 'icon.com' && path === '/favicon.ico') return send(200, 'image/x-icon', ICO);
    if (host === 'linked.com' && path === '/') return send(200, 'text/html', '<html><head><link rel="icon" type="image/svg+xml" href="/i.svg"><link rel="shortcut icon" href="/static/brand.png?v=2"></head></html>');
    if (host === 'linked.com' && path === '/static/brand.png') return send(200, 'image/png', PNG);
    if (host === 'moved.com' && path === '/favicon.ico') {
      res.writeHead(301, { location: 'https://moved.com/assets/icon.png' });
      return res.end();
    }
    if (host === 'moved.com' && path === '/assets/icon.png') return send(200, 'image/png', PNG);
    if (host === 'html.com') return send(200, 'text/html', '<!doctype html><html><body>Not an icon</body></html>');
    if (host === 'liar.com' && path === '/favicon.ico') return send(200, 'image/x-icon', '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    if (host === 'huge.com' && path === '/favicon.ico') return send(200, 'image/png', Buffer.concat([PNG, Buffer.alloc(200 * 1024)]));
    if (host === 'private.com' && path === '/robots.txt') return send(200, 'text/plain', 'User-agent: SightlineBot\nDisallow: /\n');
    if (host === 'private.com' && path === '/favicon.ico') return send(200, 'image/x-icon', ICO);
    send(404, 'text/html', 'Not found');
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  t = await startTestApp({ allowPrivateUrls: true, faviconOrigin: `http://127.0.0.1:${(site.address() as AddressInfo).port}` });
});
afterAll(async () => {
  await t?.stop();
  await new Promise((r) => site?.close(r));
});

let cookie = '';
async function signIn(): Promise<string> {
  if (cookie) return cookie;
  const acct = await createAccount(t.app);
  const res = await t.app.inject({ method: 'POST', url: '/v1/session', payload: { email: acct.email, password: acct.password } });
  expect(res.statusCode, res.body).toBe(201);
  cookie = String([res.headers['set-cookie']].flat().find((c) => String(c).startsWith('sightline_session='))).split(';')[0];
  return cookie;
}
const icon = async (domain: string, headers: Record<string, string> = {}) => t.app.inject({ url: `/favicons/${domain}`, headers: { cookie: await signIn(), ...headers } });

describe('GET /favicons/{domain}', () => {
  it("serves the site's /favicon.ico, then from the store: the site is asked once", async () => {
    const first = await icon('icon.com');
    expect(first.statusCode, first.body).toBe(200);
    expect(first.headers['content-type']).toBe('image/x-icon');
    expect(first.rawPayload.equals(ICO)).toBe(true);
    expect(first.headers['cache-control']).toMatch(/^private, max-age=(86[34]\d\d)$/);
    expect(first.headers.etag).toMatch(/^"[\w-]{22}"$/);
    expect(first.headers['x-content-type-options']).toBe('nosniff');
    expect(hitsOf('icon.com')).toEqual(['icon.com /robots.txt', 'icon.com /favicon.ico']);

    const again = await icon('ICON.com');
    expect(again.statusCode).toBe(200);
    expect(again.rawPayload.equals(ICO)).toBe(true);
    const revalidated = await icon('icon.com', { 'if-none-match': String(first.headers.etag) });
    expect(revalidated.statusCode).toBe(304);
    expect(hitsOf('icon.com')).toHaveLength(2);
  });

  it('asks the site once for concurrent requests in a process', async () => {
    const all = await Promise.all([icon('slow.com'), icon('slow.com'), icon('slow.com')]);
    expect(all.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    expect(hitsOf('slow.com').filter((h) => h.endsWith('/favicon.ico'))).toHaveLength(1);
  });

  it("finds the home page's <link rel=icon> (SVG skipped) and follows a redirect", async () => {
    const linked = await icon('linked.com');
    expect(linked.statusCode, linked.body).toBe(200);
    expect(linked.headers['content-type']).toBe('image/png');
    expect(hitsOf('linked.com')).not.toContain('linked.com /i.svg');
    const moved = await icon('moved.com');
    expect(moved.statusCode).toBe(200);
    expect(moved.rawPayload.equals(PNG)).toBe(true);
  });

  it('refuses HTML, SVG dressed as an icon and oversized files: a 404 the browser keeps, asked again only after a day', async () => {
    for (const domain of ['html.com', 'liar.com', 'huge.com', 'none.com']) {
      const res = await icon(domain);
      expect(res.statusCode, domain).toBe(404);
      expect(res.json()).toMatchObject({ detail: `No icon found for ${domain}`, code: 'not_found' });
      expect(res.headers['cache-control']).toMatch(/^private, max-age=86\d\d\d$/);
      const asked = hitsOf(domain).length;
      expect(asked, domain).toBeGreaterThan(0);
      expect((await icon(domain)).statusCode).toBe(404);
      expect(hitsOf(domain), domain).toHaveLength(asked);
    }
    // The negative entry, a day later, is stale: the site is asked again.
    await t.runtime.ctx.store.query(`update favicons set fetched_at = fetched_at - interval '25 hours' where domain = 'none.com'`);
    const before = hitsOf('none.com').length;
    expect((await icon('none.com')).statusCode).toBe(404);
    expect(hitsOf('none.com').length).toBeGreaterThan(before);
  });

  it("obeys the site's robots.txt for SightlineBot", async () => {
    expect((await icon('private.com')).statusCode).toBe(404);
    expect(hitsOf('private.com')).toEqual(['private.com /robots.txt']);
  });

  it('answers 400 to anything but a host name', async () => {
    for (const bad of ['localhost', '127.0.0.1', 'icon.com:8080', 'icon.com%2Fx', 'icon..com', '-icon.com', 'icon.com.', 'ex%20ample.com', `${'a'.repeat(64)}.com`, '%5B%3A%3A1%5D']) {
      const res = await icon(bad);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().detail).toMatch(/host name/);
    }
  });

  it('serves only signed-in dashboard sessions', async () => {
    const anonymous = await t.app.inject({ url: '/favicons/icon.com' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ detail: expect.any(String), code: 'unauthorized' });
    const forged = await t.app.inject({ url: '/favicons/icon.com', headers: { cookie: 'sightline_session=sls_nope' } });
    expect(forged.statusCode).toBe(401);
    const acct = await createAccount(t.app);
    const byKey = await t.app.inject({ url: '/favicons/icon.com', headers: { 'x-api-key': acct.key } });
    expect(byKey.statusCode).toBe(401);
  });
});

describe('favicon helpers', () => {
  it('host names', () => {
    expect(faviconDomain('Docs.Example.co.uk')).toBe('docs.example.co.uk');
    expect(faviconDomain('xn--bcher-kva.de')).toBe('xn--bcher-kva.de');
    for (const bad of ['bücher.de', 'com', 'a_b.com', 'example.com/x', 'user@example.com', '::1', '10.0.0.1']) expect(faviconDomain(bad), bad).toBeNull();
  });

  it('sniffs only raster images', () => {
    expect(sniffImage(PNG)).toBe('image/png');
    expect(sniffImage(ICO)).toBe('image/x-icon');
    expect(sniffImage(Buffer.from('GIF89a....'))).toBe('image/gif');
    expect(sniffImage(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
  });

  it('icon links, best first', () => {
    const html = `<link rel="apple-touch-icon" href="/touch.png"><link href='https://cdn.example.com/f.ico' rel=icon><link rel="icon" href="data:image/png;base64,xx"><link rel="stylesheet" href="/s.css">`;
    expect(iconLinks(html, 'https://example.com/')).toEqual(['https://cdn.example.com/f.ico', 'https://example.com/touch.png']);
  });
});
