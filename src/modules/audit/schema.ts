import { z } from 'zod';
import { successEnvelopeSchema } from '../../lib/envelope.js';
import { IsoDate } from '../common.js';

const Day = z.iso.date({ error: 'dates are YYYY-MM-DD' });

export const AuditQuery = z
  .strictObject({
    actor: z.string().trim().min(1).max(254).optional().meta({ description: 'A user id, key id, email or key prefix' }),
    action: z.string().trim().min(1).max(100).optional().meta({ description: 'An action (member.remove) or a family (member)' }),
    date_from: Day.optional(),
    date_to: Day.optional(),
    page: z.coerce.number({ error: 'page must be a whole number from 1' }).int().min(1, 'page must be a whole number from 1').max(100_000).default(1),
    page_size: z.coerce.number({ error: 'page_size must be 1 to 200' }).int().min(1, 'page_size must be 1 to 200').max(200, 'page_size must be 1 to 200').default(50),
  })
  .refine((q) => !q.date_from || !q.date_to || q.date_from <= q.date_to, { error: 'date_from must not be after date_to' });

export const AuditItem = z
  .object({
    id: z.uuid(),
    actor: z.object({ user_id: z.uuid().nullable(), key_id: z.uuid().nullable(), label: z.string() }),
    action: z.string(),
    target_type: z.string().nullable(),
    target_id: z.string().nullable(),
    ip: z.string().nullable(),
    request_id: z.string().nullable(),
    created_at: IsoDate,
  })
  .meta({ id: 'AuditEntry' });

export const AuditPageEnvelope = successEnvelopeSchema(
  z.object({ total: z.number().int(), page: z.number().int(), page_size: z.number().int(), items: z.array(AuditItem) }),
);
