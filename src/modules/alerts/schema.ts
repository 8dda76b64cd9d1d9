import { z } from 'zod';
import { isHttpsUrl } from '../../lib/url.js';
import { PROVIDERS } from '../../ports/providers/types.js';
import { IsoDate, Uuid } from '../common.js';
import { successEnvelopeSchema } from '../../lib/envelope.js';

export const METRICS = ['visibility', 'share_of_voice', 'position', 'sentiment', 'own_citations', 'new_competitor', 'new_cited_domain'] as const;
export const CONDITIONS = ['significant_drop', 'significant_rise', 'significant_change', 'below', 'above'] as const;
export type Metric = (typeof METRICS)[number];
export type Condition = (typeof CONDITIONS)[number];
/** The event kinds: counted, not tested (condition `above` a threshold, default 0). */
export const NEW_THING_METRICS: readonly Metric[] = ['new_competitor', 'new_cited_domain'];

const oneOf = <T extends readonly string[]>(field: string, values: T) =>
  z.enum(values, { error: (iss) => `${field} must be one of ${values.join(', ')}${iss.input === undefined ? '' : ` (got ${JSON.stringify(iss.input)})`}` });

const Email = z.email({ error: 'each address in to must be an e-mail address' }).max(320);

export const Channel = z.discriminatedUnion(
  'type',
  [
    z.strictObject({ type: z.literal('email'), to: z.array(Email, { error: 'to must be a list of e-mail addresses' }).min(1, 'to needs at least one address').max(20) }),
    z.strictObject({
      type: z.literal('slack'),
      url: z.string({ error: 'url is required' }).trim().max(2048).refine(isHttpsUrl, 'a Slack url must be a valid HTTPS URL'),
    }),
    z.strictObject({ type: z.literal('webhook') }),
  ],
  { error: 'each channel must be {type:"email", to}, {type:"slack", url} or {type:"webhook"}' },
);
export type ChannelInput = z.infer<typeof Channel>;

const RuleShape = {
  name: z.string({ error: 'name is required' }).trim().min(1, 'name is required').max(200, 'name must be at most 200 characters'),
  metric: oneOf('metric', METRICS),
  condition: oneOf('condition', CONDITIONS),
  threshold: z.number({ error: 'threshold must be a number' }).finite().nullable(),
  window_days: z
    .number()
    .int('window_days must be an integer from 1 to 90')
    .min(1, 'window_days must be an integer from 1 to 90')
    .max(90, 'window_days must be an integer from 1 to 90')
    .meta({ description: 'Extension: days of each window compared (this window against the one before it). Default 7.' }),
  providers: z.array(oneOf('providers', PROVIDERS)).max(PROVIDERS.length).nullable(),
  prompt_ids: z.array(Uuid).max(100, 'prompt_ids takes at most 100 ids').nullable(),
  brand_id: Uuid.nullable().meta({ description: 'A competitor_id as /competitors lists it (the own brand is the all-zero id); default the own brand.' }),
  channels: z.array(Channel, { error: 'channels must be a list' }).max(10, 'at most 10 channels'),
  is_active: z.boolean(),
};

export const CreateAlertBody = z.strictObject({
  ...RuleShape,
  condition: RuleShape.condition.optional(),
  threshold: RuleShape.threshold.optional(),
  window_days: RuleShape.window_days.optional(),
  providers: RuleShape.providers.optional(),
  prompt_ids: RuleShape.prompt_ids.optional(),
  brand_id: RuleShape.brand_id.optional(),
  channels: RuleShape.channels.default([]),
  is_active: RuleShape.is_active.optional(),
});
export type CreateAlertInput = z.infer<typeof CreateAlertBody>;

export const PatchAlertBody = z.strictObject({
  name: RuleShape.name.optional(),
  metric: RuleShape.metric.optional(),
  condition: RuleShape.condition.optional(),
  threshold: RuleShape.threshold.optional(),
  window_days: RuleShape.window_days.optional(),
  providers: RuleShape.providers.optional(),
  prompt_ids: RuleShape.prompt_ids.optional(),
  brand_id: RuleShape.brand_id.optional(),
  channels: RuleShape.channels.optional(),
  is_active: RuleShape.is_active.optional(),
});
export type PatchAlertInput = z.infer<typeof PatchAlertBody>;

export const AlertParams = z.strictObject({ project_id: Uuid, alert_id: Uuid });

export const Alert = z
  .object({
    alert_id: z.uuid(),
    project_id: z.uuid(),
    name: z.string(),
    metric: z.enum(METRICS),
    condition: z.enum(CONDITIONS),
    threshold: z.number().nullable(),
    window_days: z.number().int(),
    providers: z.array(z.string()).nullable(),
    prompt_ids: z.array(z.string()).nullable(),
    brand_id: z.string().nullable(),
    channels: z.array(Channel),
    is_active: z.boolean(),
    evaluated_at: IsoDate.nullable(),
    created_at: IsoDate,
    updated_at: IsoDate,
  })
  .meta({ id: 'AlertRule' });

const Delivery = z.object({
  type: z.enum(['email', 'slack', 'webhook']),
  status: z.enum(['pending', 'delivered', 'failed']).meta({ description: 'pending while attempts remain' }),
  attempts: z.number().int(),
  last_error: z.string().nullable(),
});

export const AlertEvent = z
  .object({
    event_id: z.uuid(),
    alert_id: z.uuid(),
    metric: z.enum(METRICS),
    condition: z.enum(CONDITIONS),
    value: z.number().meta({ description: "The figure in this window, in the metric's unit; for new_* the number of new brands or domains." }),
    previous: z.number().nullable().optional().meta({ description: 'The figure in the window before.' }),
    p_value: z.number().nullable().optional().meta({ description: 'Two-sided p-value of the trend test (significant_* conditions).' }),
    window: z.object({
      start_date: z.string(),
      end_date: z.string(),
      previous_start_date: z.string(),
      previous_end_date: z.string(),
      responses: z.number().int(),
      previous_responses: z.number().int(),
    }),
    names: z.array(z.string()).optional().meta({ description: 'new_competitor: the brands; new_cited_domain: the domains.' }),
    deliveries: z.array(Delivery).meta({ description: "Each channel's delivery: failures are visible here." }),
    fired_at: IsoDate,
  })
  .meta({ id: 'AlertEvent' });

export const EventsQuery = z.strictObject({
  limit: z.coerce.number().int('limit must be an integer from 1 to 200').min(1, 'limit must be an integer from 1 to 200').max(200, 'limit must be an integer from 1 to 200').optional(),
  alert_id: Uuid.optional(),
});

export const TestResult = z.object({ type: z.enum(['email', 'slack', 'webhook']), ok: z.boolean(), detail: z.string() });

export const AlertEnvelope = successEnvelopeSchema(Alert);
export const AlertListEnvelope = successEnvelopeSchema(z.array(Alert));
export const AlertDeletedEnvelope = successEnvelopeSchema(z.object({ alert_id: z.uuid(), message: z.string() }));
export const AlertEventsEnvelope = successEnvelopeSchema(z.array(AlertEvent));
export const TestResultsEnvelope = successEnvelopeSchema(z.array(TestResult));
