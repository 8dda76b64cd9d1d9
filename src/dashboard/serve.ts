import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import helmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { registerReportPage } from './report-page.js';

// The dashboard (web/, built by scripts/build.mjs into dist/web) served at `/` by every API
// process. Its client routes are listed here one by one, so the app never shadows /v1,
// /docs, /healthz, /readyz, /mcp or /llms.txt: an unknown path stays the API's JSON 404.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const WEB_DIR = path.join(ROOT, 'dist', 'web');

/** Paths the single-page app draws itself (index.html, then the client router). */
export const CLIENT_ROUTES = ['/', '/sign-in', '/create-account', '/projects', '/projects/*', '/settings', '/team', '/team/*', '/accept-invitation', '/reset-password'];

/** A script-free CSP: the app's own files only, no inline script, no remote anything. */
const CSP = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'"],
  imgSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  fontSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'none'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  upgradeInsecureRequests: null,
};

const NOT_BUILT = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sightline</title></head>
<body><h1>Sightline</h1><p>The dashboard is not built: run <code>npm run build</code>. The API is at <a href="/docs">/docs</a>.</p></body></html>`;

export async function registerDashboard(app: FastifyInstance): Promise<void> {
  await app.register(async (web) => {
    // Encapsulated: these headers go on the dashboard's responses, not on the API's or /docs'.
    await web.register(helmet, { contentSecurityPolicy: { useDefaults: false, directives: CSP }, crossOriginEmbedderPolicy: false });
    const indexFile = path.join(WEB_DIR, 'index.html');
    const built = fs.existsSync(indexFile);
    const index = built ? fs.readFileSync(indexFile, 'utf8') : NOT_BUILT;
    if (built) {
      // Hashed file names: cached for a year; index.html is never cached (it names them).
      await web.register(fastifyStatic, {
        root: path.join(WEB_DIR, 'assets'),
        prefix: '/assets/',
        wildcard: false,
        immutable: true,
        maxAge: '365d',
        index: false,
      });
    }
    registerReportPage(web);
    for (const url of CLIENT_ROUTES) {
      web.get(url, { schema: { hide: true } }, async (_req, reply) =>
        reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(index),
      );
    }
  });
}
