import { z } from 'zod';
import { ConfigError, type Env } from '../../config.js';
import { createBuiltinWriter } from './builtin.js';
import { createChatClient, WriterError, type ChatMessage, type ChatSettings, type ChatUsage, type ResponseFormat } from './chat-client.js';
import {
  ACTION_TASK, actionSchema, commentTask, draftTask, editsTask, finalTask, mergeAction, outlineTask, suggestionsTask,
  SYSTEM_PROMPT, WORDING_TASK, wordingSchema, type Task,
} from './llm-tasks.js';
import type { Writer } from './types.js';

// The Writer behind any OpenAI-compatible Chat Completions API (LLM_PROVIDER / LLM_MODEL).
// Each method sends the task, its input as JSON and the reply's JSON schema; the reply is
// validated with zod. An answer that is not valid JSON for the schema is asked for once
// more (with what was wrong); after a second bad answer the method returns the built-in
// writer's output and marks it (writerMeta). HTTP failures are not hidden: after the
// retries they throw WriterError.

export { WriterError };

export const DEFAULT_LLM_BASE_URL = 'https://api.openai.com/v1';
const MAX_PAGE_CHARS = 24_000;

export interface WriterMeta {
  /** Who wrote it: `<provider>:<model>`, or `builtin` after a fallback. */
  writer: string;
  fallback: boolean;
  /** Why the model's output was not used. */
  reason?: string;
  usage?: ChatUsage | null;
}

const META = Symbol.for('sightline.writerMeta');

/** Who wrote an object or array a Writer returned (absent for strings and the built-in writer). */
export function writerMeta(value: unknown): WriterMeta | undefined {
  return value && typeof value === 'object' ? (value as Record<symbol, WriterMeta>)[META] : undefined;
}

function mark<T>(value: T, meta: WriterMeta): T {
  // Not enumerable: it never reaches JSON responses or the store.
  if (value && typeof value === 'object') Object.defineProperty(value, META, { value: meta, enumerable: false, configurable: true });
  return value;
}

export interface FallbackEvent {
  writer: string;
  method: string;
  reason: string;
}

export interface OpenAICompatibleOptions {
  /** LLM_PROVIDER as set, e.g. `openai`, `openai-compatible`, `ollama`. */
  provider: string;
  model: string;
  baseUrl?: string;
  apiKey?: string;
  http?: Partial<ChatSettings>;
  /** Called when a method falls back to the built-in writer (default: a warning on stderr). */
  onFallback?: (event: FallbackEvent) => void;
}

/** The model settings from the environment; ConfigError when they are incomplete. */
export function llmSettings(env: Pick<Env, 'LLM_PROVIDER' | 'LLM_MODEL' | 'LLM_API_KEY' | 'LLM_BASE_URL' | 'OPENAI_API_KEY' | 'OPENAI_BASE_URL'>) {
  const provider = env.LLM_PROVIDER?.trim();
  if (!provider) return null;
  const model = env.LLM_MODEL?.trim();
  if (!model) throw new ConfigError(`LLM_MODEL is required when LLM_PROVIDER is set (LLM_PROVIDER=${provider})`);
  const isOpenAI = provider.toLowerCase() === 'openai';
  const apiKey = env.LLM_API_KEY ?? (isOpenAI ? env.OPENAI_API_KEY : undefined);
  const baseUrl = env.LLM_BASE_URL ?? (isOpenAI ? (env.OPENAI_BASE_URL ?? DEFAULT_LLM_BASE_URL) : undefined);
  if (isOpenAI && !apiKey) throw new ConfigError('LLM_PROVIDER=openai needs LLM_API_KEY or OPENAI_API_KEY');
  if (!baseUrl) throw new ConfigError(`LLM_BASE_URL is required for LLM_PROVIDER=${provider} (only openai has a default base URL)`);
  return { provider, model, apiKey, baseUrl };
}

/** The reply's JSON schema, as OpenAI's strict structured outputs accept it. */
function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema) as Record<string, unknown>;
  return rest;
}

function parseReply<T>(content: string, task: Task<T>): { value: T } | { error: string } {
  // Some local models wrap JSON in a code fence even when told not to.
  const text = content.trim().replace(/^```(?:json)?\s*([\s\S]*?)\s*```$/, '$1');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { error: 'the reply is not valid JSON' };
  }
  const parsed = task.schema.safeParse(json);
  if (!parsed.success) return { error: `the reply does not match the schema: ${parsed.error.issues.slice(0, 5).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}` };
  const checked = task.check ? task.check(parsed.data) : parsed.data;
  if (checked === null) return { error: 'the reply does not hold for the input (e.g. a `before` that is not text of the page)' };
  return { value: checked };
}

export function createOpenAICompatibleWriter(opts: OpenAICompatibleOptions): Writer {
  const name = `${opts.provider}:${opts.model}`;
  const client = createChatClient({ label: name, baseUrl: opts.baseUrl ?? DEFAULT_LLM_BASE_URL, model: opts.model, apiKey: opts.apiKey, settings: opts.http });
  const builtin = createBuiltinWriter();
  const onFallback = opts.onFallback ?? ((e: FallbackEvent) => console.warn(`writer ${e.writer}: ${e.method} used the built-in writer: ${e.reason}`));
  // Servers that refuse `json_schema` get `json_object` (the schema is in the prompt either way).
  let strictSchemas = true;

  async function complete(messages: ChatMessage[], task: Task<unknown>) {
    const format = (): ResponseFormat =>
      strictSchemas ? { type: 'json_schema', json_schema: { name: task.name, strict: true, schema: jsonSchemaOf(task.schema) } } : { type: 'json_object' };
    try {
      return await client.complete(messages, format());
    } catch (e) {
      if (!(e instanceof WriterError) || e.status !== 400 || !strictSchemas || !/response_format|json_schema/i.test(e.message)) throw e;
      strictSchemas = false;
      return client.complete(messages, format());
    }
  }

  async function ask<T, R = T>(method: string, task: Task<T>, input: unknown, fallback: () => Promise<R>, convert: (v: T) => R): Promise<R> {
    const messages: ChatMessage[] = [
      { role: 'system', content: SYSTEM_PROMPT },
      { role: 'user', content: `Task: ${task.instructions}\n\nInput (JSON):\n${JSON.stringify(input, null, 2)}\n\nReply with JSON matching this schema:\n${JSON.stringify(jsonSchemaOf(task.schema))}` },
    ];
    let reason = '';
    for (let attempt = 0; attempt < 2; attempt++) {
      const result = await complete(messages, task as Task<unknown>);
      const content = result.content ?? '';
      const outcome = result.refusal ? { error: `the model refused: ${result.refusal}` } : result.finishReason === 'length' ? { error: 'the reply was cut off (finish_reason length)' } : parseReply(content, task);
      if ('value' in outcome) return mark(convert(outcome.value), { writer: name, fallback: false, usage: result.usage });
      reason = outcome.error;
      messages.push({ role: 'assistant', content: content || '(empty)' }, { role: 'user', content: `That reply cannot be used: ${reason}. Reply again with only the JSON object, matching the schema.` });
    }
    const reasonText = `the model returned unusable output twice (${reason})`;
    onFallback({ writer: name, method, reason: reasonText });
    return mark(await fallback(), { writer: builtin.name, fallback: true, reason: `${name}: ${reasonText}` });
  }

  const id = <T>(v: T) => v;
  return {
    name,
    builtIn: false,
    suggestTopicsAndPrompts: (input) => ask('suggestTopicsAndPrompts', suggestionsTask(input), input, () => builtin.suggestTopicsAndPrompts(input), id),
    enrichAction: (input) =>
      ask('enrichAction', { name: 'action', schema: actionSchema, instructions: ACTION_TASK }, input, () => builtin.enrichAction(input), (v) => mergeAction(input, v)),
    wordRecommendation: (input) => ask('wordRecommendation', { name: 'recommendation', schema: wordingSchema, instructions: WORDING_TASK }, input, () => builtin.wordRecommendation(input), id),
    suggestEdits: (input) => {
      const paragraphs: string[] = [];
      let size = 0;
      for (const p of input.page.paragraphs) if ((size += p.length) <= MAX_PAGE_CHARS) paragraphs.push(p);
      const sent = { ...input, page: { ...input.page, paragraphs } };
      return ask('suggestEdits', editsTask(sent), sent, () => builtin.suggestEdits(input), (v) => v.edits);
    },
    forumComment: (input) => ask('forumComment', commentTask(input), input, () => builtin.forumComment(input), id),
    writeOutline: (input) => ask('writeOutline', outlineTask(input), input, () => builtin.writeOutline(input), (v) => v.outline),
    writeDraft: (input) => ask('writeDraft', draftTask(input), input, () => builtin.writeDraft(input), (v) => v.draft),
    writeFinal: (input) => ask('writeFinal', finalTask(input), input, () => builtin.writeFinal(input), id),
  };
}
