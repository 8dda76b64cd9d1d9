import type { ListResourcesResult, ReadResourceResult, ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';
import type { RequestContext } from '../context.js';
import { Invalid } from '../lib/errors.js';
import { Uuid } from '../modules/common.js';
import { competitorsWithMetrics } from '../modules/competitors/metrics.js';
import { resolveWindow } from '../modules/analytics/window.js';
import { getProject, listProjects } from '../modules/projects/service.js';
import { visibilitySentence } from './tools-analytics.js';

const PREFIX = 'sightline://projects/';
const SUMMARY_DAYS = 30;

export const PROJECT_TEMPLATE: ResourceTemplate = {
  uriTemplate: `${PREFIX}{id}`,
  name: 'project',
  title: 'Project summary',
  description: `A project and its tracked brands with their last ${SUMMARY_DAYS} days of visibility and share of voice (JSON).`,
  mimeType: 'application/json',
};

export async function listProjectResources(ctx: RequestContext): Promise<ListResourcesResult> {
  const projects = await listProjects(ctx);
  return {
    resources: projects.map((p) => ({
      uri: `${PREFIX}${p.id}`,
      name: p.name,
      title: `${p.name} (project summary)`,
      description: `Brand ${p.brand_name ?? p.name}: last ${SUMMARY_DAYS} days of visibility and share of voice.`,
      mimeType: 'application/json',
    })),
  };
}

/**
 * The summary: the project (get_project's figures), the sentence get_visibility gives for
 * 30 days, and each tracked brand's metrics of those days (list_competitors' figures).
 */
export async function readProjectResource(ctx: RequestContext, uri: string): Promise<ReadResourceResult> {
  const id = uri.startsWith(PREFIX) ? uri.slice(PREFIX.length) : '';
  if (!Uuid.safeParse(id).success) throw new Invalid(`Unknown resource: expected ${PREFIX}{project_id}`);
  const project = await getProject(ctx, id);
  const w = resolveWindow({ duration_days: SUMMARY_DAYS });
  const [brands, visibility] = await Promise.all([competitorsWithMetrics(ctx, id, w), visibilitySentence(ctx, id, w)]);
  const summary = {
    project,
    period: w.period,
    visibility,
    brands: brands.active_competitors.map((c) => ({ competitor_id: c.competitor_id, name: c.name, is_own_brand: c.is_own_brand, metrics: c.metrics })),
  };
  return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(summary, null, 2) }] };
}
