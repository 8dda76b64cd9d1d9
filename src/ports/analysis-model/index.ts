import pLimit from 'p-limit';
import { z } from 'zod';
import type { AnalysisModelSettings } from '../../config.js';
import { createChatClient, WriterError, type ChatMessage, type ChatSettings, type ChatUsage, type ResponseFormat } from '../writer/chat-client.js';
import { DEFAULT_LLM_BASE_URL } from '../writer/openai-compatible.js';
import {
  BANDS, MAX_ANSWER_CHARS, SENTIMENT_SCHEMA, SENTIMENT_SCHEMA_NAME, SENTIMENT_SYSTEM_PROMPT, SENTIMENT_TASK,
} from './instructions.js';

// The analysis model (ANALYSIS_MODEL): asks a model behind an OpenAI-compatible Chat
// Completions API, the writer's client and retry policy (chat-client.ts), for the sentiment
// an answer expresses toward each brand named, with structured output (`response_format`
// json_schema, strict). It knows nothing of the analysis: src/analysis/model.ts merges what
// it returns. Every failure is thrown; the caller falls back to the lexicon.

export { BANDS, MAX_ANSWER_CHARS, SENTIMENT_SCHEMA, SENTIMENT_SCHEMA_NAME } from './instructions.js';

export type ModelBand = (typeof BANDS)[number];

export interface BrandToJudge {
  name: string;
  aliases: readonly string[];
}

export interface BrandJudgement {
  name: string;
  band: ModelBand;
  evidence: string;
}

export interface ModelVerdict {
  judgements: BrandJudgement[];
  /** The model string the server answered with (may be more precise than the one asked). */
  model: string | null;
  usage: ChatUsage | null;
}

/** A reply that came back but cannot be used (refused, cut off, not JSON, not the schema). */
export class ModelReplyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ModelReplyError';
  }
}

export interface AnalysisModel {
  /** `<provider>:<model>`, as ANALYSIS_MODEL names it. */
  readonly label: string;
  /** The sentiment toward each brand; throws WriterError (HTTP, after the retries) or ModelReplyError. */
  judge(input: { text: string; brands: readonly BrandToJudge[] }, signal?: AbortSignal): Promise<ModelVerdict>;
}

const Reply = z.object({
  brands: z.array(z.object({ name: z.string(), band: z.enum(BANDS), evidence: z.string() })),
});

/** Per attempt: an analysis reply is short, and an answer must not wait a minute for it. */
const ANALYSIS_TIMEOUT_MS = 30_000;

/** The user message: the task, then the input as JSON (brands, then the answer, cut to MAX_ANSWER_CHARS). */
export function judgeMessages(text: string, brands: readonly BrandToJudge[]): ChatMessage[] {
  const answer = text.length > MAX_ANSWER_CHARS ? `${text.slice(0, MAX_ANSWER_CHARS)}\n[… the rest of the answer was cut]` : text;
  const input = { brands: brands.map((b) => ({ name: b.name, aliases: b.aliases })), answer };
  return [
    { role: 'system', content: SENTIMENT_SYSTEM_PROMPT },
    { role: 'user', content: `${SENTIMENT_TASK}\n\nInput (JSON):\n${JSON.stringify(input)}\n\nReply with JSON matching this schema:\n${JSON.stringify(SENTIMENT_SCHEMA)}` },
  ];
}

/** The judgements of a reply's content, or why it cannot be used. */
export function parseJudgements(content: string | null): BrandJudgement[] {
  // Some local models wrap JSON in a code fence even when told not to (as the writer reads them).
  const text = (content ?? '').trim().replace(/^```(?:json)?\s*([\s\S]*?)\s*```$/, '$1');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ModelReplyError('the reply is not valid JSON');
  }
  const parsed = Reply.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, 3).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
    throw new ModelReplyError(`the reply does not match the schema: ${issues.join('; ')}`);
  }
  return parsed.data.brands;
}

export function createAnalysisModel(settings: AnalysisModelSettings, http: Partial<ChatSettings> = {}): AnalysisModel {
  const client = createChatClient({
    label: settings.label,
    baseUrl: settings.baseUrl ?? DEFAULT_LLM_BASE_URL,
    model: settings.model,
    apiKey: settings.apiKey,
    settings: { timeoutMs: ANALYSIS_TIMEOUT_MS, ...http },
  });
  // One limit per process: every collection run and re-analysis of the process shares it.
  const limit = pLimit(settings.concurrency);
  // A server that refuses `json_schema` (older or local models) gets `json_object`; the schema is in the prompt either way.
  let strictSchema = true;
  const format = (): ResponseFormat =>
    strictSchema ? { type: 'json_schema', json_schema: { name: SENTIMENT_SCHEMA_NAME, strict: true, schema: SENTIMENT_SCHEMA } } : { type: 'json_object' };

  async function complete(messages: ChatMessage[], signal?: AbortSignal) {
    try {
      return await client.complete(messages, format(), signal);
    } catch (e) {
      if (!(e instanceof WriterError) || e.status !== 400 || !strictSchema || !/response_format|json_schema/i.test(e.message)) throw e;
      strictSchema = false;
      return client.complete(messages, format(), signal);
    }
  }

  return {
    label: settings.label,
    judge: (input, signal) =>
      limit(async () => {
        // a call queued behind others may have been called off meanwhile (src/analysis/model.ts)
        if (signal?.aborted) throw new WriterError(`${settings.label}: call cancelled`);
        const result = await complete(judgeMessages(input.text, input.brands), signal);
        if (result.refusal) throw new ModelReplyError(`the model refused: ${result.refusal}`);
        if (result.finishReason === 'length') throw new ModelReplyError('the reply was cut off (finish_reason length)');
        return { judgements: parseJudgements(result.content), model: result.model, usage: result.usage };
      }),
  };
}
