import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboundError } from '../http/safe-request.js';
import { fetchPage, PageFetchError } from './fetcher.js';
import { fixtureBytes, startFixtureServer, type FixtureServer } from '../../../test/fixtures/page-fixtures.js';

let server: FixtureServer;

const redirect = (to: string) => (_req: unknown, res: import('node:http').ServerResponse) => {
  res.writeHead(301, { location: to });
  res.end();
};

beforeAll(async () => {
  server = await startFixtureServer({
    '/': redirect('/crm-vendor.html'),
    '/hop1': redirect('hop2'), // relative location
    '/hop2': redirect('/hop3'),
    '/hop3': redirect('/crm-vendor.html'),
    '/loop': redirect('/loop'),
    '/to-metadata': redirect('http://169.254.169.254/latest/meta-data/'),
    '/to-ftp': redirect('ftp://example.com/file'),
    '/no-location': (_req, res) => {
      res.writeHead(302);
      res.end();
    },
    '/json': (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"a":1}');
    },
    '/xhtml': (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/xhtml+xml' });
      res.end('<html xmlns="http://www.w3.org/1999/xhtml"><head><title>X</title></head><body/></html>');
    },
    '/untyped': (_req, res) => res.end('<!DOCTYPE html><html><body>no header</body></html>'),
    '/latin1': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' }); // charset only in <meta>
      res.end(fixtureBytes('latin1'));
    },
    '/latin1-header': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=ISO-8859-1' });
      res.end(fixtureBytes('latin1'));
    },
    '/big': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<html><body>${'<p>filler text</p>'.repeat(20_000)}</body></html>`);
    },
    '/hang': () => {},
    '/error': (_req, res) => {
      res.writeHead(500, { 'content-type': 'text/html' });
      res.end('<h1>oops</h1>');
    },
  });
});
afterAll(() => server.close());

const open = { allowPrivate: true, timeoutMs: 3000 };

async function failure(promise: Promise<unknown>): Promise<Error> {
  return promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (e: Error) => e,
  );
}

describe('fetchPage', () => {
  it('fetches an HTML page', async () => {
    const page = await fetchPage(`${server.base}/crm-vendor.html`, open);
    expect(page.status).toBe(200);
    expect(page.contentType).toBe('text/html');
    expect(page.url).toBe(`${server.base}/crm-vendor.html`);
    expect(page.html).toContain('Pipewise');
    expect(page.truncated).toBe(false);
  });

  it('follows up to 3 redirects, relative ones included, and reports the final URL', async () => {
    const page = await fetchPage(`${server.base}/hop1`, open);
    expect(page.url).toBe(`${server.base}/crm-vendor.html`);
    expect(page.html).toContain('Pipewise');
  });

  it('gives up after 3 redirects', async () => {
    const err = await failure(fetchPage(`${server.base}/loop`, open));
    expect(err).toBeInstanceOf(PageFetchError);
    expect((err as PageFetchError).code).toBe('too_many_redirects');
    expect(server.hits.filter((h) => h === '/loop').length).toBeGreaterThanOrEqual(4);
  });

  it('re-checks every redirect hop against the address rules', async () => {
    const err = await failure(fetchPage(`${server.base}/to-metadata`, open));
    expect(err).toBeInstanceOf(OutboundError);
    expect((err as OutboundError).code).toBe('blocked_address');
  });

  it('refuses a private address when allowPrivate is false', async () => {
    const err = await failure(fetchPage(`${server.base}/crm-vendor.html`, { allowPrivate: false }));
    expect((err as OutboundError).code).toBe('blocked_address');
  });

  it('refuses redirects to other schemes and redirects without a location', async () => {
    expect(((await failure(fetchPage(`${server.base}/to-ftp`, open))) as PageFetchError).code).toBe('bad_redirect');
    expect(((await failure(fetchPage(`${server.base}/no-location`, open))) as PageFetchError).code).toBe('bad_redirect');
  });

  it('refuses non-http URLs', async () => {
    const err = await failure(fetchPage('file:///etc/passwd', open));
    expect((err as OutboundError).code).toBe('invalid_url');
  });

  it('accepts only HTML and XHTML', async () => {
    const err = await failure(fetchPage(`${server.base}/json`, open));
    expect((err as PageFetchError).code).toBe('not_html');
    expect(err.message).toContain('application/json');
    expect((await fetchPage(`${server.base}/xhtml`, open)).contentType).toBe('application/xhtml+xml');
    expect((await fetchPage(`${server.base}/untyped`, open)).html).toContain('no header');
  });

  it('fails on an error status', async () => {
    const err = (await failure(fetchPage(`${server.base}/error`, open))) as PageFetchError;
    expect(err.code).toBe('http_status');
    expect(err.status).toBe(500);
    expect(((await failure(fetchPage(`${server.base}/missing.html`, open))) as PageFetchError).status).toBe(404);
  });

  it('decodes the declared charset (header or meta)', async () => {
    for (const route of ['/latin1', '/latin1-header']) {
      const page = await fetchPage(`${server.base}${route}`, open);
      expect(page.html).toContain('Café de la Gare');
      expect(page.html).toContain('crème');
    }
  });

  it('cuts a page at maxBytes', async () => {
    const page = await fetchPage(`${server.base}/big`, { ...open, maxBytes: 5_000 });
    expect(page.truncated).toBe(true);
    expect(page.html.length).toBe(5_000);
  });

  it('times out', async () => {
    const err = await failure(fetchPage(`${server.base}/hang`, { ...open, timeoutMs: 200 }));
    expect((err as OutboundError).code).toBe('timeout');
  });
});
