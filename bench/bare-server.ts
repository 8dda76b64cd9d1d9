import fs from 'node:fs';
import Fastify from 'fastify';

// The yardstick for the HTTP suites: Fastify 5 with nothing but a route that returns a
// fixed JSON body (BENCH_BODY). No auth, no store, no schemas, no hooks, no logger.
// BENCH_ROUTES_FILE instead: a JSON file { "/exact/path": body, … }, one such route each
// (a mix of requests, each answered with the body the real server gave it); a key with a
// query string ("/path?duration_days=90") answers that exact request (one path, a body per
// window).

const app = Fastify({ logger: false });
app.get('/healthz', async () => ({ status: 'ok' }));
if (process.env.BENCH_ROUTES_FILE) {
  const routes = JSON.parse(fs.readFileSync(process.env.BENCH_ROUTES_FILE, 'utf8')) as Record<string, unknown>;
  const byRequest = new Map<string, unknown>();
  for (const [route, routeBody] of Object.entries(routes)) {
    if (route.includes('?')) byRequest.set(route, routeBody);
    else app.get(route, async () => routeBody);
  }
  for (const routePath of new Set([...byRequest.keys()].map((route) => route.slice(0, route.indexOf('?'))))) {
    app.get(routePath, async (req, reply) => byRequest.get(req.url) ?? reply.code(404).send({ detail: 'no body for this request' }));
  }
} else {
  const body = JSON.parse(process.env.BENCH_BODY ?? '{}');
  app.get(process.env.BENCH_ROUTE ?? '/v1/projects/:project_id', async () => body);
}

await app.listen({ port: Number(process.env.PORT ?? 0), host: process.env.HOST ?? '127.0.0.1' });

const stop = async () => {
  await app.close();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
