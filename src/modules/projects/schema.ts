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

export { ProjectParams };
export const ProjectListEnvelope = envA(z.array(Project));
export const ProjectEnvelope = envA(Project);
