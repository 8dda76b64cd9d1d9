import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { RequestContext } from '../context.js';
import { AppError } from '../lib/errors.js';
import { authInfoOf, checkKeyState, hitKey, lookupKey, tooMany } from '../http/auth.js';
import type { HttpContext } from '../http/context.js';
import { errorBody } from '../http/error-handler.js';
import { LLMS_TXT } from './llms-txt.js';
import { type Caller, mcpServerFor } from './server.js';

export const MCP_VERSION = '1.0.0';

/** The key of a request: X-API-Key, or Authorization: Bearer <key> (what MCP clients send). */
function keyOf(req: FastifyRequest): string | undefined {
  const raw = req.headers['x-api-key'];
  const key = Array.isArray(raw) ? raw[0] : raw;
  if (key) return key;
  const auth = req.headers.authorization ?? '';
  return auth.startsWith('Bearer ') ? auth.slice(7).trim() || undefined : undefined;
}

/** The caller of one HTTP request: a valid key, and its rate limit hit once per tool call. */
async function callerOf(http: HttpContext, req: FastifyRequest, reply: FastifyReply): Promise<Caller> {
  try {
    const record = await lookupKey(http, req, reply, keyOf(req), 'Missing API key: send X-API-Key or Authorization: Bearer <key>');
    checkKeyState(record);
    const ctx: RequestContext = { ...http.services, auth: authInfoOf(record), log: req.log };
    return {
      ctx,
      origin: { ip: req.ip, requestId: String(req.id) },
      limit: async () => {
        const { decision } = await hitKey(http, record);
        if (!decision.allowed) throw tooMany(decision);
      },
    };
  } catch (err) {
    if (err instanceof AppError && err.status === 401) reply.header('www-authenticate', 'Bearer realm="sightline"');
    throw err;
  }
}

/**
 * MCP over Streamable HTTP at /mcp, stateless: each POST carries its own key and gets a
 * fresh protocol server, so any API process can answer any request and nothing of a
 * session lives in memory (docs/mcp.md). GET (a server-to-client stream) and
 * DELETE (ending a session) have nothing to serve here: 405, as the transport's spec
 * allows. Registered as explicit routes, ahead of the dashboard's catch-all.
 */
export function registerMcp(app: FastifyInstance, http: HttpContext): void {
  const allowed = new Set(http.services.config.mcpAllowedOrigins);
  app.post('/mcp', { schema: { hide: true }, config: { ownTextRule: true } }, async (req, reply) => {
    // The transport's rule against DNS rebinding: a request from a web page (an Origin header)
    // is refused unless the operator allowed that origin. Desktop and agent clients send none.
    const origin = req.headers.origin;
    if (origin !== undefined && !allowed.has(origin.toLowerCase())) {
      return reply
        .status(403)
        .send(errorBody(req, `Origin ${origin.slice(0, 200)} may not call /mcp; set MCP_ALLOWED_ORIGINS to allow a browser client`, 'forbidden'));
    }
    const caller = await callerOf(http, req, reply);
    const server = mcpServerFor(caller, MCP_VERSION);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    reply.hijack();
    reply.raw.setHeader('x-request-id', req.id);
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req.raw, reply.raw, req.body);
  });
  const notAllowed = async (req: FastifyRequest, reply: FastifyReply) =>
    reply
      .status(405)
      .header('allow', 'POST')
      .send(errorBody(req, 'This MCP server is stateless: send each JSON-RPC message as a POST to /mcp', 'invalid_request'));
  app.get('/mcp', { schema: { hide: true } }, notAllowed);
  app.delete('/mcp', { schema: { hide: true } }, notAllowed);

  app.get('/llms.txt', { schema: { hide: true } }, async (_req, reply) => reply.type('text/plain; charset=utf-8').send(LLMS_TXT));
}
