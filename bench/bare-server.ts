import Fastify from 'fastify';

// The yardstick for the HTTP suites: Fastify 5 with nothing but a route that returns a
// fixed JSON body (BENCH_BODY). No auth, no store, no schemas, no hooks, no logger.
const body = JSON.parse(process.env.BENCH_BODY ?? '{}');
const routePath = process.env.BENCH_ROUTE ?? '/v1/projects/:project_id';

const app = Fastify({ logger: false });
app.get('/healthz', async () => ({ status: 'ok' }));
app.get(routePath, async () => body);

await app.listen({ port: Number(process.env.PORT ?? 0), host: process.env.HOST ?? '127.0.0.1' });

const stop = async () => {
  await app.close();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
