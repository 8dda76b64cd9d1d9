import { z } from 'zod';
import { successEnvelopeSchema } from '../../lib/envelope.js';

export const PatchMeBody = z.strictObject({ digest: z.boolean({ error: 'digest must be true or false' }) });

export const MyDigest = z.object({
  user_id: z.uuid().nullable(),
  email: z.string().nullable(),
  digest: z.boolean().meta({ description: 'Receives the weekly digest e-mail (Monday 08:00 UTC).' }),
  mail_enabled: z.boolean().meta({ description: 'Extension: whether this server sends mail (SMTP_URL and MAIL_FROM set); when false no digest goes out.' }),
});

export const DigestPreview = z.object({
  subject: z.string(),
  html: z.string().meta({ description: 'The HTML part; the chart is inlined here as a data: URI (the mail carries it as a cid: attachment).' }),
  text: z.string(),
});

export const DigestSent = z.object({ sent: z.number().int(), recipients: z.array(z.string()) });

export const MyDigestEnvelope = successEnvelopeSchema(MyDigest);
export const DigestPreviewEnvelope = successEnvelopeSchema(DigestPreview);
export const DigestSentEnvelope = successEnvelopeSchema(DigestSent);
