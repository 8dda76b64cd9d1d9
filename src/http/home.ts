import type { FastifyInstance } from 'fastify';

// `GET /` before the dashboard exists: a small page that points to the docs, so a person who
// opens the service's address in a browser lands somewhere useful instead of a 404.
const PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Sightline</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem;color:#222}code{background:#f3f3f3;padding:0 .25rem}</style>
</head>
<body>
<h1>Sightline</h1>
<p>Sightline tracks how AI answer engines talk about a brand. This is its HTTP API; the dashboard is not built yet.</p>
<ul>
<li><a href="/docs">API docs</a> (interactive)</li>
<li><a href="/v1/openapi.json">OpenAPI document</a></li>
<li>API base URL: <code>/v1</code></li>
<li>Health: <a href="/healthz">/healthz</a>, readiness: <a href="/readyz">/readyz</a></li>
</ul>
</body>
</html>
`;

export function registerHome(app: FastifyInstance): void {
  app.get('/', { schema: { hide: true } }, async (_req, reply) => reply.type('text/html; charset=utf-8').send(PAGE));
}
