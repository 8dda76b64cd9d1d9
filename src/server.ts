import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyReply } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import cookie from '@fastify/cookie';
import compress from '@fastify/compress';
import {
  jsonSchemaTransform,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { HttpContext } from './http/context.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { registerAuth } from './http/auth.js';
import { registerAuditHook } from './http/audit-hook.js';
import { routeSerializerCompiler } from './http/serializer.js';
import { registerObservability, requestIdOf } from './http/observability.js';
import { lazyChildLoggerFactory } from './http/lazy-logger.js';
import { completeDocument, RESPONSE_HEADERS } from './http/openapi-document.js';
import { errorBody, registerErrorHandling } from './http/error-handler.js';
import { parseQuery } from './http/request-text.js';
import { clientErrorHandler, registerConnectRefusal } from './http/client-errors.js';
import { clientAddressReader } from './http/client-address.js';
import { refusalBeforeRouting } from './http/refusal-before-routing.js';
import { registerDashboard } from './dashboard/serve.js';
import { registerMcp } from './mcp/route.js';
import { v1Routes } from './http/routes/index.js';

export const BODY_LIMIT = 1024 * 1024;

export interface RouteEntry {
  method: string;
  url: string;
  auth: 'key' | 'public' | 'operator';
  scope?: 'admin';
  schema?: { body?: unknown; querystring?: unknown; params?: unknown; hide?: boolean };
}

declare module 'fastify' {
  interface FastifyInstance {
    routeTable: RouteEntry[];
  }
}

/** Fastify's trustProxy for TRUST_PROXY: a hop count becomes "trust the first n hops". */
function trustProxyOption(t: boolean | number | string[]): boolean | string[] | ((address: string, hop: number) => boolean) {
  return typeof t === 'number' ? (_address, hop) => hop < t : t;
}

/** The HTTP API: Fastify with zod schemas as the one source of validation, types and OpenAPI. */
export async function buildServer(ctx: HttpContext): Promise<FastifyInstance> {
  const clientAddress = clientAddressReader(trustProxyOption(ctx.services.config.trustProxy));
  const app = Fastify({
    loggerInstance: ctx.services.log as FastifyBaseLogger,
    // Fastify's own request lines are off: one access line per request (http/observability.ts).
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'request_id' }),
    // A request's child logger is made when it first writes (most requests write nothing).
    childLoggerFactory: lazyChildLoggerFactory,
    bodyLimit: BODY_LIMIT,
    trustProxy: trustProxyOption(ctx.services.config.trustProxy),
    requestIdHeader: false,
    genReqId: requestIdOf,
    routerOptions: {
      ignoreTrailingSlash: true,
      maxParamLength: 200,
      // Fastify's parsing rules, plus a note of escapes that are not UTF-8 (a 400, not a raw value).
      querystringParser: parseQuery,
      // A raw response (before Fastify's hooks), limited and described as every other answer.
      onMaxParamLength: (_path: string, req: IncomingMessage, res: ServerResponse) => {
        const tooLong = { status: 414, detail: 'A path segment is too long (at most 200 characters)' };
        void refusalBeforeRouting(ctx.limiter, clientAddress(req), requestIdOf(req), tooLong).then(({ status, headers, body }) => {
          res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
          res.end(JSON.stringify(body));
        });
      },
      // biome-ignore lint/suspicious/noExplicitAny: Fastify's typings do not list find-my-way's onMaxParamLength option, which it passes through.
    } as any,
    frameworkErrors: (err, req, reply: FastifyReply) => {
      // A malformed URL (bad percent-encoding): answered before routing, so before the
      // onRequest hooks that set the id and the limit headers on every other response.
      const malformed = { status: 400, detail: `Malformed URL: ${err.message}` };
      void refusalBeforeRouting(ctx.limiter, req.ip, req.id, malformed).then(({ status, headers, body }) => {
        reply.headers(headers).status(status).send(body);
      });
    },
    // Requests Node's parser refuses (bad method, header, length, URL): the API's error body too.
    clientErrorHandler,
    ajv: undefined,
  }).withTypeProvider<ZodTypeProvider>();

  registerConnectRefusal(app);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(routeSerializerCompiler);
  app.decorate('http', ctx);
  // Every route as registered, for the docs and for tests that walk all routes.
  const routeTable: RouteEntry[] = [];
  app.decorate('routeTable', routeTable);
  app.addHook('onRoute', (r) => {
    for (const method of [r.method].flat()) {
      if (method === 'HEAD' || !r.url.startsWith('/v1/')) continue;
      // a key_or_report route is a key route to whoever has no report token
      const auth = r.config?.auth === 'key_or_report' ? 'key' : (r.config?.auth ?? 'key');
      routeTable.push({ method, url: r.url, auth, scope: r.config?.scope, schema: r.schema as RouteEntry['schema'] });
    }
  });
  registerErrorHandling(app);

  registerObservability(app);

  // Responses compressed (brotli, else gzip) for clients that accept it, from 1 KB: an
  // analytics body is mostly repeated keys and icons (the 90-day overview of 100 prompts
  // shrinks about twentyfold). Requests stay as they are: no decompression of bodies (this
  // hook runs before the plugin's own, which would otherwise inflate gzip request bodies).
  // The MCP endpoint hijacks its reply (SSE streams), so no compression reaches it.
  app.addHook('onRoute', (route) => {
    route.decompress = false;
  });
  await app.register(compress, { global: true, encodings: ['br', 'gzip'], threshold: 1024 });

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Sightline public API',
        version: '1.0.0',
        description: 'Tracks how AI answer engines (ChatGPT, Perplexity, Google AI Overviews, Gemini, Claude) talk about a brand.',
      },
      // PUBLIC_URL: where clients reach the service (paths carry the /v1 prefix), never the request's Host.
      servers: [{ url: ctx.services.config.publicUrl, description: 'This Sightline service (PUBLIC_URL)' }],
      components: {
        securitySchemes: {
          ApiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
          Operator: { type: 'http', scheme: 'bearer' },
        },
        headers: RESPONSE_HEADERS,
      },
      security: [{ ApiKey: [] }],
    },
    // The library's pair: `transform` turns each route's zod schemas into JSON Schema with a
    // `$ref` for every schema registered with `.meta({ id })`; its `transformObject` (called
    // by completeDocument) writes those schemas into components.schemas, so the refs resolve.
    transform: jsonSchemaTransform,
    transformObject: completeDocument,
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });

  // Parsed before authentication, which reads the dashboard's session cookie.
  await app.register(cookie);
  registerAuth(app, ctx);
  registerAuditHook(app, ctx.services);

  await registerDashboard(app);
  // MCP (Streamable HTTP) and the agents' guide: explicit routes, ahead of any catch-all.
  registerMcp(app, ctx);
  // The process is up. With DATABASE_READ_URL, also what it knows of the read replica; a
  // replica that is down or lagging leaves the process healthy (reads go to the primary).
  app.get('/healthz', { schema: { hide: true } }, async () => {
    const replica = ctx.services.readRouter.status();
    return replica ? { status: 'ok', replica } : { status: 'ok' };
  });
  app.get('/readyz', { schema: { hide: true } }, async (req, reply) => {
    try {
      await ctx.services.store.ping();
      return { status: 'ready' };
    } catch {
      return reply.status(503).header('retry-after', '5').send(errorBody(req, 'Store is not reachable', 'unavailable'));
    }
  });
  app.get('/v1/openapi.json', { schema: { hide: true }, config: { auth: 'public' } }, async () => app.swagger());

  await app.register(
    async (v1) => {
      for (const routes of v1Routes) await v1.register(routes);
    },
    { prefix: '/v1' },
  );
  return app;
}
