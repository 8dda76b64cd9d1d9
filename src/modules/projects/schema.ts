import { z } from 'zod';
import { envA } from '../envelope.js';
import { IsoDate, ProjectParams } from '../common.js';

export const Project = z
  .object({
    id: z.uuid(),
    name: z.string(),
    brand_name: z.string().nullable(),
    website_url: z.string().nullable(),
    location: z.string().nullable(),
    language: z.string().nullable(),
    brand_aliases: z.array(z.string()),
    created_at: IsoDate,
  })
  .meta({ id: 'Project' });

/** GET /projects/{id}: the Project plus how its bootstrap went (extension fields; the list keeps the Project shape). */
export const ProjectDetail = Project.extend({
  bootstrap_status: z.enum(['initializing', 'completed', 'error']).meta({ description: 'initializing while the bootstrap runs' }),
  bootstrap_error: z.string().nullable().meta({ description: 'why the bootstrap failed; null unless bootstrap_status is error' }),
  callback_status: z
    .enum(['pending', 'delivered', 'failed'])
    .nullable()
    .meta({ description: "the bootstrap callback to webhook_url: pending while attempts remain; null before the bootstrap ends" }),
}).meta({ id: 'ProjectDetail' });

export { ProjectParams };
export const ProjectListEnvelope = envA(z.array(Project));
export const ProjectEnvelope = envA(ProjectDetail);
