import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServiceContext } from '../context.js';
import { recordAudit } from '../modules/audit/service.js';

export interface AuditConfig {
  /** The action's name (`member.remove`); derived from the route when left out. */
  action?: string;
  targetType?: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** How the audit hook names this route's writes; false: the route logs its own entries. */
    audit?: AuditConfig | false;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const VERBS: Record<string, string> = { POST: 'create', PUT: 'replace', PATCH: 'update', DELETE: 'delete' };

/** Crude but stable singular of a path segment: prompts → prompt, batch-transition stays. */
const singular = (seg: string) => (seg.endsWith('ies') ? `${seg.slice(0, -3)}y` : seg.endsWith('s') && !seg.endsWith('ss') ? seg.slice(0, -1) : seg);

/**
 * An action name from the route: `DELETE /v1/projects/:project_id/prompts/:prompt_id` is
 * `prompt.delete`, `POST /v1/keys` is `key.create`, `POST …/actions/:action_id/execute` is
 * `action.execute`, `POST …/actions/batch-transition` is `action.batch-transition`.
 */
export function deriveAction(method: string, routeUrl: string): { action: string; targetType: string } {
  const segs = routeUrl.replace(/^\/v1\//, '').split('/').filter(Boolean);
  const last = segs[segs.length - 1] ?? '';
  const isParam = (s: string | undefined) => !!s && s.startsWith(':');
  if (isParam(last)) {
    const type = singular(segs[segs.length - 2] ?? 'record');
    return { action: `${type}.${VERBS[method] ?? method.toLowerCase()}`, targetType: type };
  }
  const prev = segs[segs.length - 2];
  if (method === 'POST' && prev !== undefined && (isParam(prev) || !/s$/.test(last))) {
    // A verb on a record (execute, respond, enrich-content) or on a collection (batch-transition).
    const owner = isParam(prev) ? segs[segs.length - 3] : prev;
    const type = singular(owner ?? last);
    return { action: `${type}.${last}`, targetType: type };
  }
  const type = singular(last);
  return { action: `${type}.${VERBS[method] ?? method.toLowerCase()}`, targetType: type };
}

/** The record a write touched: the route's last path parameter, else the created record's id. */
function targetOf(req: FastifyRequest, payload: unknown): string | null {
  const params = (req.params ?? {}) as Record<string, string>;
  const names = (req.routeOptions.url ?? '').split('/').filter((s) => s.startsWith(':')).map((s) => s.slice(1));
  if (req.method === 'POST' && typeof payload === 'string' && payload.length < 1_000_000) {
    try {
      const data = JSON.parse(payload)?.data;
      if (data && typeof data.id === 'string') return data.id;
    } catch {
      // not JSON: fall back to the path
    }
  }
  const last = names[names.length - 1];
  return last ? (params[last] ?? null) : null;
}

/**
 * The audit log's one hook: every successful write made with a key or a session is logged
 * (who, what, which record, when, from which address, the request id) before the answer
 * leaves, so a client that reads the log right after sees its own write. Public routes
 * (invitation accept, password reset, sign-in) log their own entries; bodies never go in.
 */
export function registerAuditHook(app: FastifyInstance, services: ServiceContext): void {
  app.addHook('onSend', async (req, reply, payload) => {
    if (SAFE_METHODS.has(req.method) || reply.statusCode >= 400 || !req.auth) return payload;
    const url = req.routeOptions.url;
    const cfg = req.routeOptions.config?.audit;
    if (!url?.startsWith('/v1/') || cfg === false) return payload;
    const derived = deriveAction(req.method, url);
    let targetId = targetOf(req, payload);
    if (!targetId && cfg?.targetType === 'user') targetId = req.auth.userId ?? null;
    try {
      await recordAudit(services, {
        teamId: req.auth.teamId,
        actorUserId: req.auth.userId ?? null,
        actorKeyId: req.auth.userId ? null : req.auth.keyId,
        actorLabel: req.auth.email ?? null,
        action: cfg?.action ?? derived.action,
        targetType: cfg?.targetType ?? derived.targetType,
        targetId,
        ip: req.ip,
        requestId: req.id,
      });
    } catch (err) {
      // The write itself is done: a failed audit entry is logged loudly, never turned into a 500.
      req.log.error({ err, action: cfg?.action ?? derived.action }, 'audit entry failed');
    }
    return payload;
  });
}
