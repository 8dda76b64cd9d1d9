import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import helmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { registerFavicons } from './favicons.js';
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

const NOT_APP = /^\/(v1|mcp|docs|assets|favicons|healthz|readyz|llms\.txt)(\/|$|\?)/;
const CSP_HEADER = Object.entries(CSP)
  .filter(([, v]) => v !== null)
  .map(([k, v]) => `${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} ${(v as string[]).join(' ')}`)
  .join('; ');
let indexHtml: string | null | undefined;

/**
 * A person's browser asking for a path the app does not have gets the app with a 404
 * status, and the app says "Page not found" with a way home. Programs (no text/html in
 * Accept) and the API's, docs' and probes' paths keep the JSON 404.
 */
export function sendAppNotFound(req: FastifyRequest, reply: FastifyReply): boolean {
  if (req.method !== 'GET' || NOT_APP.test(req.url) || !String(req.headers.accept ?? '').includes('text/html')) return false;
  if (indexHtml === undefined) {
    const file = path.join(WEB_DIR, 'index.html');
    indexHtml = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null;
  }
  if (!indexHtml) return false;
  reply.status(404).type('text/html; charset=utf-8').header('cache-control', 'no-cache').header('content-security-policy', CSP_HEADER).send(indexHtml);
  return true;
}

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
    registerFavicons(web);
    for (const url of CLIENT_ROUTES) {
      web.get(url, { schema: { hide: true } }, async (_req, reply) =>
        reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(index),
      );
    }
  });
}
