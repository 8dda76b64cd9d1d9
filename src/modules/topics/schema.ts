import { z } from 'zod';
import { successEnvelopeSchema, statusEnvelopeSchema } from '../../lib/envelope.js';
import { IsoDate, ProjectParams, Uuid } from '../common.js';

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
export const TopicListEnvelope = successEnvelopeSchema(z.array(Topic));
export const TopicEnvelope = successEnvelopeSchema(Topic);

export const TopicParams = z.strictObject({ project_id: Uuid, topic_id: Uuid });

/** PATCH a topic (extension): send only what changes; `description: null` clears it. */
export const PatchTopicBody = z.strictObject({
  name: z.string({ error: 'name must be a string' }).trim().min(1, 'name must not be empty').max(200, 'name must be at most 200 characters').optional(),
  description: z.string().trim().max(2000, 'description must be at most 2000 characters').nullable().optional(),
});

export const DeleteTopicQuery = z.strictObject({
  move_to: Uuid.optional().meta({ description: "A topic of the same project that takes this topic's prompts" }),
});

export const TopicDeleted = statusEnvelopeSchema(z.object({ topicId: z.uuid(), message: z.string(), moved_prompts: z.number().int() })).meta({ id: 'TopicDeleted' });
