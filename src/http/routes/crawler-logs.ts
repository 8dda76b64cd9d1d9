import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError, Invalid } from '../../lib/errors.js';
import { ctxOf } from '../request.js';
import { ProjectParams } from '../../modules/common.js';
import { requireProject } from '../../modules/projects/service.js';
import { successEnvelope, successEnvelopeSchema, errorResponses } from '../../lib/envelope.js';
import { aiTrafficReport, crawlerReport } from '../../modules/crawler-logs/reads.js';
import * as schemas from '../../modules/crawler-logs/schema.js';
import { EMPTY_LOG_DETAIL, ingestLog } from '../../modules/crawler-logs/service.js';

export const LOG_TYPES = ['text/plain', 'application/x-ndjson'];
const TYPE_DETAIL = 'Content-Type must be text/plain (combined log format) or application/x-ndjson';

/**
 * The access log a request carries, as its stream: text/plain or application/x-ndjson (any
 * type with `anyType`: a drain takes what a CDN sends, each line is read as what it is),
 * gzip or not; with `allowEmpty`, a request without a body reads as an empty log. A refused
 * body is drained first, so the connection stays usable.
 */
export function logBodyOf(req: FastifyRequest, opts: { allowEmpty: boolean; anyType: boolean }): { body: Readable; gzip: boolean } {
  const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  const body = req.body as Readable | undefined;
  if (!body || typeof body.pipe !== 'function') {
    if (opts.allowEmpty && (!type || opts.anyType)) return { body: Readable.from([]), gzip: false };
    if (!type) throw new Invalid(EMPTY_LOG_DETAIL);
    throw new AppError(415, TYPE_DETAIL);
  }
  if (!opts.anyType && !LOG_TYPES.includes(type)) {
    body.resume();
    throw new AppError(415, TYPE_DETAIL);
  }
  const encoding = (req.headers['content-encoding'] ?? 'identity').toLowerCase().trim();
  if (encoding !== 'gzip' && encoding !== 'identity') {
    body.resume();
    throw new AppError(415, 'Content-Encoding must be gzip or absent');
  }
  return { body, gzip: encoding === 'gzip' };
}


export default async function crawlerLogRoutes(base: FastifyInstance) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['crawlers'];

  // Within this plugin only: a log body is handed to the route as the request stream, never
  // buffered, so its size is bounded by CRAWLER_LOG_MAX_MB (counted as it is read), not by
  // the 1 MiB JSON limit. Any type but JSON reaches the route, which answers 415 itself.
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser('*', (_req, payload, done) => done(null, payload));

  app.post(
    '/projects/:project_id/crawler-logs',
    {
      config: { scope: 'admin', ownTextRule: true },
      schema: {
        tags,
        operationId: 'ingestCrawlerLogs',
        summary: 'Ingest an access log (nginx/Apache combined, or Cloudflare / Vercel / CloudFront NDJSON; gzip with Content-Encoding: gzip)',
        description:
          "Counts AI crawler requests per page and agent (verified against the operators' published addresses) and AI engine referrals per landing page, as daily aggregates; raw lines are not kept. A file sent again (same uncompressed bytes) adds nothing. Only the project's domain counts.",
        params: ProjectParams,
        consumes: LOG_TYPES,
        response: { 200: successEnvelopeSchema(schemas.IngestResult), ...errorResponses(400, 401, 403, 404, 413, 415, 429) },
      },
    },
    async (req) => {
      // the project first: a caller learns nothing of the body rules of a project not theirs
      await requireProject(ctxOf(req), req.params.project_id);
      const { body, gzip } = logBodyOf(req, { allowEmpty: false, anyType: false });
      return successEnvelope(await ingestLog(ctxOf(req), req.params.project_id, body, gzip));
    },
  );

  const errs = errorResponses(400, 401, 403, 404, 429);
  app.get(
    '/projects/:project_id/crawlers',
    {
      schema: {
        tags,
        operationId: 'getCrawlers',
        summary: 'AI crawlers per agent and per page (hits, verified hits, answers citing the page) over a window',
        params: ProjectParams,
        querystring: schemas.DayRangeQuery,
        response: { 200: successEnvelopeSchema(schemas.CrawlerReport), ...errs },
      },
    },
    async (req) => successEnvelope(await crawlerReport(ctxOf(req), req.params.project_id, schemas.dayRange(req.query))),
  );

  app.get(
    '/projects/:project_id/ai-traffic',
    {
      schema: {
        tags,
        operationId: 'getAiTraffic',
        summary: 'Visits referred by AI engines, per engine and per landing page, over a window',
        params: ProjectParams,
        querystring: schemas.DayRangeQuery,
        response: { 200: successEnvelopeSchema(schemas.AiTrafficReport), ...errs },
      },
    },
    async (req) => successEnvelope(await aiTrafficReport(ctxOf(req), req.params.project_id, schemas.dayRange(req.query))),
  );
}
