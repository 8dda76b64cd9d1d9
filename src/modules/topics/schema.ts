import { z } from 'zod';
import { envA } from '../envelope.js';
import { IsoDate, ProjectParams } from '../common.js';

export const Topic = z
  .object({
    topic_id: z.uuid(),
    project_id: z.uuid(),
    name: z.string(),
    description: z.string().nullable(),
    created_at: IsoDate,
  })
  .meta({ id: 'Topic' });

export const CreateTopicBody = z.strictObject({
  name: z.string({ error: 'name is required' }).trim().min(1, 'name is required').max(200, 'name must be at most 200 characters'),
  description: z.string().trim().max(2000, 'description must be at most 2000 characters').optional(),
});

export { ProjectParams };
export const TopicListEnvelope = envA(z.array(Topic));
export const TopicEnvelope = envA(Topic);
