import { z } from 'zod';
import { successEnvelopeSchema } from '../../lib/envelope.js';
import { IsoDate, Uuid } from '../common.js';

export const STATUSES = ['suggested', 'accepted', 'in_progress', 'completed', 'ignored'] as const;
export const CATEGORIES = ['on_page_seo', 'new_content', 'content_update', 'forum_engagement'] as const;
export const PRIORITIES = ['critical', 'high', 'medium', 'low'] as const;
export const EFFORTS = ['quick-win', 'moderate', 'major'] as const;
export const EXECUTION_TYPES = ['prompt', 'publishable_content', 'forum_reply', 'manual'] as const;
export const TARGET_TYPES = ['url', 'keyword', 'page_type', 'domain'] as const;
export const OPERATIONS = ['accept', 'start', 'complete', 'ignore', 'reopen'] as const;

export type ActionStatus = (typeof STATUSES)[number];
export type Operation = (typeof OPERATIONS)[number];

/**
 * `x must be one of: a, b` for a bad value, `x is required` when absent. Nested fields pass
 * no name: the error handler prefixes their path (`execution.type: must be one of ...`).
 */
const oneOf = <T extends readonly [string, ...string[]]>(name: string | null, values: T) =>
  z.enum(values, {
    error: (iss) =>
      [name, iss.input === undefined ? 'is required' : `must be one of: ${values.join(', ')}`].filter(Boolean).join(' '),
  });

const named = (name: string | null, rest: string) => (name ? `${name} ${rest}` : rest);

const requiredText = (name: string | null, max: number) =>
  z
    .string({ error: (iss) => named(name, iss.input === undefined ? 'is required' : 'must be a string') })
    .trim()
    .min(1, named(name, 'must not be empty'))
    .max(max, named(name, `must be at most ${max} characters`));

const optionalText = (name: string | null, max: number) =>
  z.string({ error: named(name, 'must be a string') }).max(max, named(name, `must be at most ${max} characters`));

export const Target = z.object({ type: z.enum(TARGET_TYPES), value: z.string() }).meta({ id: 'ActionTarget' });

export const Execution = z
  .object({
    type: z.enum(EXECUTION_TYPES),
    prompt: z.string().nullable(),
    skill: z.string().nullable(),
    params: z.record(z.string(), z.unknown()).nullable(),
  })
  .meta({ id: 'ActionExecution' });

export const ActionItem = z
  .object({
    id: z.uuid(),
    priority: z.enum(PRIORITIES),
    title: z.string(),
    description: z.string(),
    category: z.enum(CATEGORIES),
    effort: z.enum(EFFORTS).nullable(),
    expected_impact_min: z.number().nullable(),
    expected_impact_max: z.number().nullable(),
    status: z.enum(STATUSES),
    targets: z.array(Target),
    execution: Execution,
    group: z.string().nullable(),
    depends_on: z.array(z.uuid()),
    created_at: IsoDate,
    updated_at: IsoDate,
  })
  .meta({ id: 'ActionItem' });

const TargetInput = z.strictObject({
  type: oneOf(null, TARGET_TYPES),
  value: requiredText(null, 2048),
});

const ExecutionInput = z.strictObject(
  {
    type: oneOf(null, EXECUTION_TYPES),
    prompt: optionalText(null, 20_000).nullable().optional(),
    skill: optionalText(null, 200).nullable().optional(),
    params: z.record(z.string(), z.unknown(), { error: 'must be an object' }).nullable().optional(),
  },
  { error: (iss) => (iss.input === undefined ? 'execution is required' : 'execution must be an object {type, prompt?, skill?}') },
);

const Impact = (name: string) =>
  z
    .number({ error: `${name} must be a number from 0 to 100` })
    .min(0, `${name} must be a number from 0 to 100`)
    .max(100, `${name} must be a number from 0 to 100`);

export const CreateActionBody = z
  .strictObject({
    title: requiredText('title', 300),
    description: requiredText('description', 10_000),
    category: oneOf('category', CATEGORIES),
    priority: oneOf('priority', PRIORITIES),
    execution: ExecutionInput,
    targets: z.array(TargetInput, { error: 'targets must be an array of {type, value}' }).max(50, 'targets must contain at most 50 items').optional(),
    effort: oneOf('effort', EFFORTS).nullable().optional(),
    expected_impact_min: Impact('expected_impact_min').nullable().optional(),
    expected_impact_max: Impact('expected_impact_max').nullable().optional(),
    /** Extension: the group shown on ActionItem. */
    group: optionalText('group', 100).nullable().optional(),
  })
  .refine(
    (b) => b.expected_impact_min == null || b.expected_impact_max == null || b.expected_impact_min <= b.expected_impact_max,
    { message: 'expected_impact_min must not be greater than expected_impact_max', path: ['expected_impact_min'] },
  );
export type CreateActionInput = z.infer<typeof CreateActionBody>;

export const ListActionsQuery = z.strictObject({
  status: oneOf('status', STATUSES).optional(),
  group: z.string().max(100, 'group must be at most 100 characters').optional(),
});

export const ActionParams = z.strictObject({ project_id: Uuid, action_id: Uuid });
export const TransitionParams = z.strictObject({ project_id: Uuid, action_id: Uuid, action: oneOf('action', OPERATIONS) });
export const TaskParams = z.strictObject({ project_id: Uuid, task_id: Uuid });

/** Only `ignore` takes a body; the others accept none (Fastify hands over null) or `{}`. */
export const TransitionBody = z
  .strictObject({ reason: optionalText('reason', 2000).optional(), feedback: optionalText('feedback', 5000).optional() })
  .nullish();
export type TransitionInput = z.infer<typeof TransitionBody>;

export const BatchTransitionBody = z.strictObject({
  ids: z
    .array(z.string({ error: 'must be a string' }), {
      error: (iss) => (iss.input === undefined ? 'ids is required' : 'ids must be an array of action ids'),
    })
    .min(1, 'ids must not be empty')
    .max(100, 'ids must contain at most 100 items'),
  action: oneOf('action', OPERATIONS),
});

export const EnrichActionBody = z.strictObject({
  action_type: oneOf('action_type', CATEGORIES),
  title: optionalText('title', 300).optional(),
  description: optionalText('description', 10_000).optional(),
  target_url: z
    .url({ protocol: /^https?$/, error: 'target_url must be an http(s) URL' })
    .max(2048, 'target_url must be at most 2048 characters')
    .optional(),
  keywords: z
    .array(z.string({ error: 'must be a string' }).max(300, 'must be at most 300 characters'), {
      error: 'keywords must be an array of strings',
    })
    .max(50, 'keywords must contain at most 50 items')
    .optional(),
  instructions: optionalText('instructions', 5000).optional(),
});
export type EnrichActionBodyInput = z.infer<typeof EnrichActionBody>;

export const EnrichedAction = z
  .object({
    title: z.string(),
    description: z.string(),
    targets: z.array(Target),
    execution: Execution,
    effort: z.enum(EFFORTS).nullable(),
    expected_impact_min: z.number().nullable(),
    expected_impact_max: z.number().nullable(),
  })
  .meta({ id: 'EnrichedAction' });

export const BatchResult = z.object({ succeeded: z.number().int(), failed: z.number().int(), total: z.number().int() });
export const TaskStatus = z.object({
  status: z.enum(['running', 'completed', 'failed']),
  item_count: z.number().int(),
  error: z.string().nullable(),
});

export const ActionEnvelope = successEnvelopeSchema(ActionItem);
export const ActionListEnvelope = successEnvelopeSchema(z.array(ActionItem));
export const BatchEnvelope = successEnvelopeSchema(BatchResult);
export const TaskCreatedEnvelope = successEnvelopeSchema(z.object({ task_id: z.uuid() }));
export const TaskEnvelope = successEnvelopeSchema(TaskStatus);
export const EnrichedEnvelope = successEnvelopeSchema(EnrichedAction);

/** What enrich-content and enrich-forum return (REST and MCP alike). */
export const EditSchema = z
  .object({
    section: z.string(),
    type: z.enum(['replace', 'insert', 'delete']),
    before: z.string().nullable(),
    after: z.string().nullable(),
    signal: z.string(),
    reason: z.string(),
  })
  .meta({ id: 'Edit' });

export const ForumDraftSchema = z.object({
  comment: z.string(),
  comment_word_count: z.number().int(),
  thread_title: z.string(),
  thread_url: z.string(),
});
