import { z } from 'zod';
import { SAMPLING_MODES } from '../../lib/plans.js';
import { isHttpUrl } from '../../lib/url.js';
import { successEnvelopeSchema, statusEnvelopeSchema } from '../../lib/envelope.js';
import { IsoDate, ProjectParams } from '../common.js';
import { CONTRACT_PROVIDERS, PROVIDERS } from '../../ports/providers/types.js';

const ENGINES = `${PROVIDERS.join(', ')} (the five of the contract are ${CONTRACT_PROVIDERS.join(', ')})`;
export const ProviderNameSchema = z
  .enum(PROVIDERS, { error: `providers[] must be one of ${PROVIDERS.join(', ')}` })
  .meta({ id: 'ProviderName', description: `An answer engine: ${ENGINES}` });

/** A project's engines (POST /account/projects and PATCH /projects/{id}, extension field). */
export const ProvidersList = z
  .array(ProviderNameSchema, { error: 'providers must be an array of provider names' })
  .min(1, 'providers must name at least one engine')
  .max(PROVIDERS.length, `providers must name at most ${PROVIDERS.length} engines`);

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
  providers: z.array(ProviderNameSchema).meta({
    description: 'The engines the project tracks (extension field); the five of the contract unless changed with PATCH',
  }),
  samples_per_run: z.int().meta({
    description:
      'How many times each prompt is asked of each provider in one run (each sample is one response and one credit); runs ask at most the plan maximum: skip_trial 1, basic 2, pro 3, enterprise 5',
  }),
  sampling: z.enum(SAMPLING_MODES).meta({
    description:
      "Extension: 'fixed' asks every prompt samples_per_run samples of each engine; 'adaptive' spends the same credits on the prompts whose visibility interval over the last 30 days is wider than ±sampling_margin points, closest first, then on the widest (every prompt keeps one sample per engine; at most the plan maximum each)",
  }),
  sampling_margin: z.number().meta({
    description: "Extension: the ± percentage points adaptive sampling aims each prompt's 95% visibility interval at (1 to 25; 5 by default)",
  }),
}).meta({ id: 'ProjectDetail' });

export { ProjectParams };
export const ProjectListEnvelope = successEnvelopeSchema(z.array(Project));
export const ProjectEnvelope = successEnvelopeSchema(ProjectDetail);

const trimmed = (name: string, max: number) =>
  z
    .string({ error: `${name} must be a string` })
    .trim()
    .min(1, `${name} must not be empty`)
    .max(max, `${name} must be at most ${max} characters`);

/** PATCH /projects/{id} (extension): send only what changes. */
export const PatchProjectBody = z.strictObject({
  name: trimmed('name', 200).optional(),
  brand_name: trimmed('brand_name', 200).optional(),
  brand_aliases: z
    .array(trimmed('brand_aliases[]', 100), { error: 'brand_aliases must be an array of strings' })
    .max(20, 'brand_aliases must hold at most 20 names')
    .optional()
    .meta({ description: 'Other names of the brand, matched like the brand name (replaces the list)' }),
  website_url: z
    .string({ error: 'website_url must be a valid URL' })
    .trim()
    .max(2048, 'website_url must be a valid URL')
    .refine(isHttpUrl, 'website_url must be a valid URL')
    .optional(),
  location: z.string().trim().min(2).max(35).nullable().optional(),
  language: z.string().trim().min(2).max(35).nullable().optional(),
  providers: ProvidersList.optional().meta({ description: 'The engines the project tracks from its next run (replaces the list); answers already stored stay' }),
  samples_per_run: z
    .int({ error: 'samples_per_run must be an integer from 1 to 5' })
    .min(1, 'samples_per_run must be an integer from 1 to 5')
    .max(5, 'samples_per_run must be an integer from 1 to 5')
    .optional()
    .meta({ description: 'Samples per prompt and provider in each run, 1 to the plan maximum (skip_trial 1, basic 2, pro 3, enterprise 5)' }),
  sampling: z
    .enum(SAMPLING_MODES, { error: "sampling must be 'fixed' or 'adaptive'" })
    .optional()
    .meta({ description: "'fixed' or 'adaptive': where each run's samples go (same credits either way)" }),
  sampling_margin: z
    .number({ error: 'sampling_margin must be a number of percentage points from 1 to 25' })
    .min(1, 'sampling_margin must be a number of percentage points from 1 to 25')
    .max(25, 'sampling_margin must be a number of percentage points from 1 to 25')
    .multipleOf(0.1, 'sampling_margin must have at most one decimal')
    .optional()
    .meta({ description: "The ± points adaptive sampling aims each prompt's 95% interval at, from its next run" }),
});
export type PatchProjectInput = z.infer<typeof PatchProjectBody>;

export const ProjectDeleted = statusEnvelopeSchema(z.object({ projectId: z.uuid(), message: z.string() })).meta({ id: 'ProjectDeleted' });
