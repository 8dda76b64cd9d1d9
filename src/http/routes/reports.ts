import type { FastifyInstance } from 'fastify';
import { MarketParam } from '../../modules/analytics/window.js';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ctxOf, servicesOf } from '../request.js';
import { IsoDate, ProjectParams, Uuid } from '../../modules/common.js';
import { successEnvelope, successEnvelopeSchema, errorResponses } from '../../lib/envelope.js';
import { dailyCsv } from '../../modules/export/service.js';
import { withProjectReads } from '../../modules/projects/routed-reads.js';
import { reportContextFor } from '../../modules/reports/service.js';
import * as reports from '../../modules/reports/service.js';

const days = (field: string) =>
  z.number().int(`${field} must be an integer from 1 to 365`).min(1, `${field} must be an integer from 1 to 365`).max(365, `${field} must be an integer from 1 to 365`);
const CreateReportBody = z.strictObject({ window_days: days('window_days').optional(), expires_in_days: days('expires_in_days').optional() });
const ReportCreated = successEnvelopeSchema(
  z.object({
    report_id: z.uuid(),
    url: z.string().meta({ description: 'PUBLIC_URL/r/{token}: the read-only, print-ready overview. Shown once.' }),
    token: z.string().meta({ description: 'The token of the url; also opens the project’s daily.csv export as ?token=.' }),
    window_days: z.number().int(),
    expires_at: IsoDate,
    created_at: IsoDate,
  }),
);
const ReportList = successEnvelopeSchema(z.array(z.object({ report_id: z.uuid(), window_days: z.number().int(), expires_at: IsoDate, created_at: IsoDate, status: z.enum(['active', 'expired', 'revoked']) })));
const ReportParams = z.strictObject({ project_id: Uuid, report_id: Uuid });
const day = (field: string) => z.string().regex(/^\d{4}-\d{2}-\d{2}$/, `${field} must be a date in the form YYYY-MM-DD`).optional();
const ExportQuery = z.strictObject({ start_date: day('start_date'), end_date: day('end_date'), market: MarketParam, token: z.string().max(100).optional() });

/** Shared reports and the BI export (issue 27). */
export default async function reportRoutes(base: FastifyInstance) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['reports'];

  app.post(
    '/projects/:project_id/reports',
    {
      config: { scope: 'admin' },
      schema: {
        operationId: 'createReport',
        tags,
        summary: 'Create a read-only link to the overview (expiring, revocable)',
        description: 'window_days (default 30) and expires_in_days (default 30), each 1 to 365. The token is stored hashed: keep the url.',
        params: ProjectParams,
        body: CreateReportBody,
        response: { 200: ReportCreated, ...errorResponses(400, 401, 403, 404, 414, 429) },
      },
    },
    async (req) => successEnvelope(await reports.createReport(ctxOf(req), req.params.project_id, req.body)),
  );

  app.get(
    '/projects/:project_id/reports',
    { schema: { operationId: 'listReports', tags, summary: "The project's report links (without tokens)", params: ProjectParams, response: { 200: ReportList, ...errorResponses(400, 401, 403, 404, 414, 429) } } },
    async (req) => successEnvelope(await reports.listReports(ctxOf(req), req.params.project_id)),
  );

  app.delete(
    '/projects/:project_id/reports/:report_id',
    {
      config: { scope: 'admin' },
      schema: {
        operationId: 'revokeReport',
        tags,
        summary: 'Revoke a report link: it shows "not found" from now on',
        params: ReportParams,
        response: { 200: successEnvelopeSchema(z.object({ report_id: z.uuid(), message: z.string() })), ...errorResponses(400, 401, 403, 404, 414, 429) },
      },
    },
    async (req) => successEnvelope(await reports.revokeReport(ctxOf(req), req.params.project_id, req.params.report_id)),
  );

  app.get(
    '/projects/:project_id/export/daily.csv',
    {
      config: { auth: 'key_or_report' },
      schema: {
        operationId: 'exportDailyCsv',
        tags: ['export'],
        summary: 'The daily long table as CSV, for BI tools',
        description:
          'One row per day, provider, prompt and brand: date, provider, prompt_id, prompt, brand_id, brand, responses, mentions, visibility, avg_position, sentiment, citations. Default: the 30 days ending end_date (default today). A report token may stand for the key as ?token= (read-only, that project only).',
        params: ProjectParams,
        querystring: ExportQuery,
        response: { 200: z.string().meta({ description: 'text/csv; charset=utf-8' }), ...errorResponses(400, 401, 403, 404, 414, 429) },
      },
    },
    async (req, reply) => {
      const caller = req.query.token !== undefined && !req.headers['x-api-key'] ? await reportContextFor(servicesOf(req), req.query.token, req.params.project_id) : ctxOf(req);
      const csv = await dailyCsv(await withProjectReads(caller, req.params.project_id), req.params.project_id, req.query);
      return reply.type('text/csv; charset=utf-8').header('content-disposition', 'inline; filename="daily.csv"').send(csv);
    },
  );
}
