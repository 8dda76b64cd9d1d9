import { z } from 'zod';
import { successEnvelopeSchema, statusEnvelopeSchema } from '../../lib/envelope.js';
import { ProvidersList } from '../projects/schema.js';
import { CONTRACT_PROVIDERS } from '../../ports/providers/types.js';

const EMAIL = 'A valid email is required';

export const CreateAccountBody = z.strictObject({
  email: z
    .string({ error: EMAIL })
    .trim()
    .toLowerCase()
    .max(254, EMAIL)
    .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, EMAIL),
  password: z.string().max(1000).optional().meta({ description: 'Ignored: a secure password is generated' }),
});

export const AccountCreated = statusEnvelopeSchema(
  z.object({ user_id: z.uuid(), team_id: z.uuid(), email: z.string(), password: z.string() }),
).meta({ id: 'AccountCreated' });

export const ApiKeyBody = z.strictObject({
  email: z.string({ error: 'email is required' }).trim().toLowerCase().min(1, 'email is required').max(254),
  password: z.string({ error: 'password is required' }).min(1, 'password is required').max(1000),
});

export const ApiKeyResult = statusEnvelopeSchema(
  z.object({
    api_key: z.string(),
    team_id: z.uuid(),
    key_prefix: z.string(),
    rate_limit_tier: z.enum(['standard', 'premium']),
  }),
).meta({ id: 'ApiKeyResult' });

const required = (name: string) => ({ error: `${name} is required` });
// Missing, empty or not a URL: the spec's one text for each URL field.
const validUrl = (name: string) =>
  z
    .string({ error: `${name} must be a valid URL` })
    .trim()
    .min(1, `${name} must be a valid URL`)
    .max(2048, `${name} must be a valid URL`)
    .refine(
      (v) => {
        try {
          const u = new URL(v);
          return (u.protocol === 'http:' || u.protocol === 'https:') && !!u.hostname && !/\s/.test(v);
        } catch {
          return false;
        }
      },
      `${name} must be a valid URL`,
    );

export const CreateProjectBody = z.strictObject({
  brand_name: z.string(required('brand_name')).trim().min(1, 'brand_name is required').max(200, 'brand_name must be at most 200 characters'),
  brand_url: validUrl('brand_url'),
  webhook_url: validUrl('webhook_url')
    .optional()
    .meta({
      description:
        "Required with an API key (the contract). Extension: a person signed in to the dashboard may leave it out; the dashboard follows the bootstrap by polling GET /projects/{project_id} and no callback is sent.",
    }),
  language: z.string().trim().min(2).max(35).optional(),
  location: z.string().trim().min(2).max(35).optional(),
  providers: ProvidersList.optional().meta({
    description: `Extension: the engines the project tracks (duplicates dropped); default the five of the contract (${CONTRACT_PROVIDERS.join(', ')}). The bootstrap asks those of chatgpt, perplexity and google_ai_overview it tracks, else its first three.`,
  }),
});

export const ProjectAccepted = statusEnvelopeSchema(z.object({ project_id: z.uuid(), status: z.literal('initializing') })).meta({
  id: 'ProjectAccepted',
});

export const AccountSummary = z
  .object({
    team_id: z.uuid(),
    plan: z.string(),
    rate_limit_tier: z.string(),
    scope: z.enum(['admin', 'viewer']).meta({ description: 'The scope of the calling key or session' }),
    credits_month: z.string().meta({ description: 'YYYY-MM (UTC): credits are counted per calendar month' }),
    credits_included: z.number().int(),
    credits_used: z.number().int(),
    credits_left: z.number().int(),
    max_projects: z.number().int(),
    max_active_prompts: z.number().int(),
  })
  .meta({ id: 'AccountSummary' });
export const AccountSummaryEnvelope = successEnvelopeSchema(AccountSummary);
