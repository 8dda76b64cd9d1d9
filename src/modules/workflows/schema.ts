import { z } from 'zod';
import { successEnvelopeSchema } from '../../lib/envelope.js';
import { IsoDate, Uuid } from '../common.js';

export const ActionParams = z.strictObject({ project_id: Uuid, action_id: Uuid });

export const Workflow = z
  .object({
    workflow_id: z.uuid(),
    status: z.enum(['running', 'awaiting_approval', 'completed', 'failed', 'rejected']),
    checkpoint: z.enum(['outline', 'draft', 'final']).nullable(),
    content: z.string().nullable(),
    result: z.object({ title: z.string(), content: z.string() }).nullable(),
    error: z.string().nullable(),
    created_at: IsoDate,
    updated_at: IsoDate,
  })
  .meta({ id: 'Workflow' });

export const RespondBody = z.strictObject({
  workflow_id: z.uuid({ error: 'workflow_id must be a UUID' }),
  checkpoint: z.enum(['outline', 'draft', 'final'], { error: "checkpoint must be 'outline', 'draft' or 'final'" }),
  action: z.enum(['approve', 'edit', 'regenerate', 'reject'], { error: "action must be 'approve', 'edit', 'regenerate' or 'reject'" }),
  content: z.string().max(200_000, 'content must be at most 200000 characters').optional(),
  feedback: z.string().max(5_000, 'feedback must be at most 5000 characters').optional(),
});

export const ExecuteEnvelope = successEnvelopeSchema(z.object({ workflow_id: z.uuid(), status: z.literal('running') }));
export const WorkflowEnvelope = successEnvelopeSchema(Workflow);
