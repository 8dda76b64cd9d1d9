import { z } from 'zod';
import { successEnvelopeSchema } from '../../lib/envelope.js';
import { IsoDate, Uuid } from '../common.js';

export const KeyRecord = z
  .object({
    id: z.uuid(),
    key_prefix: z.string(),
    scope: z.enum(['admin', 'viewer']),
    name: z.string().nullable(),
    is_active: z.boolean(),
    expires_at: IsoDate,
    rate_limit_tier: z.enum(['standard', 'premium']),
    created_at: IsoDate,
    created_by: z
      .object({ user_id: z.uuid(), email: z.string() })
      .nullable()
      .meta({ description: 'Extension: the person who made the key (it stays with the team when they leave); null when made with an API key' }),
  })
  .meta({ id: 'ApiKey' });

export const KeyCreated = KeyRecord.extend({ api_key: z.string() }).meta({ id: 'ApiKeyCreated' });

export const CreateKeyBody = z.strictObject({
  scope: z.enum(['admin', 'viewer'], { error: "scope must be 'admin' or 'viewer'" }),
  name: z.string().trim().min(1).max(100).optional(),
  expires_at: z.iso
    .datetime({ offset: true, error: 'expires_at must be an ISO 8601 date-time' })
    .refine((v) => Date.parse(v) > Date.now(), 'expires_at must be in the future')
    .optional(),
});

export const KeyParams = z.strictObject({ key_id: Uuid });
export const PatchKeyBody = z.strictObject({ is_active: z.boolean({ error: 'is_active must be a boolean' }) });

export const KeyCreatedEnvelope = successEnvelopeSchema(KeyCreated);
export const KeyEnvelope = successEnvelopeSchema(KeyRecord);
export const KeyListEnvelope = successEnvelopeSchema(z.array(KeyRecord));
export const KeyDeletedEnvelope = successEnvelopeSchema(z.object({ id: z.uuid(), message: z.string() }));
