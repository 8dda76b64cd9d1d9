import { createCaller, once, type HttpSettings, type LiveProviderOptions } from './call.js';
import { numberReferences, type SourceRef } from './references.js';
import { personaInstructions, type AskInput, type ProviderAdapter, type ProviderAnswer } from './types.js';
import { geminiUsage } from './usage.js';
import { badBody, plainBody } from './wire.js';

export const GEMINI_DEFAULT_BASE_URL = 'https://generativelanguage.googleapis.com/v1beta';
export const GEMINI_DEFAULT_MODEL = 'gemini-2.5-flash';

// generateContent wire format (only the fields read here). Offsets are UTF-8 bytes and,
// as in all proto3 JSON, a zero startIndex is left out.
interface GroundingSupport {
  segment?: { startIndex?: number; endIndex?: number; text?: string };
  groundingChunkIndices?: number[];
}
interface GeminiBody {
  modelVersion?: string;
  candidates?: Array<{
    content?: { parts?: Array<{ text?: string; thought?: boolean }> };
    finishReason?: string;
    groundingMetadata?: {
      groundingChunks?: Array<{ web?: { uri?: string; title?: string } }>;
      groundingSupports?: GroundingSupport[];
      webSearchQueries?: string[];
    };
  }>;
  promptFeedback?: { blockReason?: string };
}

export interface GeminiProviderOptions extends LiveProviderOptions {
  /**
   * Grounding chunk URIs are redirects through vertexaisearch.cloud.google.com; follow each
   * one hop to learn the cited page (kept as given when that fails). Default true.
   */
  resolveRedirects?: boolean;
}

/** gemini: generateContent with the google_search tool; citations from groundingMetadata. */
export function createGeminiProvider(opts: GeminiProviderOptions): ProviderAdapter {
  const caller = createCaller('gemini', opts);
  const s = caller.settings;
  // GEMINI_BASE_URL names the versioned root (…/v1beta); the SDK takes host and version apart.
  const { baseUrl, apiVersion } = splitVersion(opts.baseUrl ?? GEMINI_DEFAULT_BASE_URL);
  const client = once(
    async () =>
      new (await import('@google/genai')).GoogleGenAI({
        apiKey: opts.apiKey,
        // No retryOptions: the SDK does not retry; the caller does.
        httpOptions: { baseUrl, apiVersion, timeout: s.timeoutMs, fetch: s.fetch },
      }),
  );
  const model = opts.model ?? GEMINI_DEFAULT_MODEL;
  return {
    name: 'gemini',
    simulated: false,
    async ask(input: AskInput, signal?: AbortSignal): Promise<ProviderAnswer> {
      const systemInstruction = personaInstructions(input.persona);
      const res = await caller.run(
        `POST /models/${model}:generateContent`,
        async (sig) =>
          (await client()).models.generateContent({
            model,
            contents: [{ role: 'user', parts: [{ text: input.prompt }] }],
            config: { tools: [{ googleSearch: {} }], abortSignal: sig, ...(systemInstruction ? { systemInstruction } : {}) },
          }),
        signal,
      );
      // The SDK adds the HTTP headers as `sdkHttpResponse`; the stored body is the vendor's own.
      const answer = parseGeminiResponse(plainBody(res, ['sdkHttpResponse']) as GeminiBody, model);
      // The google_search tool takes no location or language.
      answer.sent = { country: null, language: null, ...(systemInstruction ? { persona: input.persona } : {}) };
      answer.usage = geminiUsage(answer.raw);
      if (opts.resolveRedirects !== false && answer.references.length) {
        await resolveGroundingRedirects(answer, s, signal);
        // Two redirects may lead to one page: one reference of it.
        answer.references = numberReferences(answer.references);
      }
      return answer;
    },
  };
}

/** https://host/v1beta → {baseUrl: https://host/, apiVersion: v1beta}; a base with no version keeps the SDK's. */
export function splitVersion(base: string): { baseUrl: string; apiVersion?: string } {
  const m = base.replace(/\/+$/, '').match(/^(.*?)\/(v\d+(?:alpha|beta)?\d*)$/);
  return m ? { baseUrl: `${m[1]}/`, apiVersion: m[2] } : { baseUrl: base };
}

export function parseGeminiResponse(body: GeminiBody, fallbackModel: string): ProviderAnswer {
  if (!body || !Array.isArray(body.candidates)) {
    // A blocked prompt has no candidate: no answer to analyse, not an error to retry.
    if (body?.promptFeedback?.blockReason) return answerOf(body, fallbackModel, '', []);
    throw badBody('gemini', 'no candidates');
  }
  const cand = body.candidates[0] ?? {};
  const text = (cand.content?.parts ?? [])
    .filter((p) => typeof p.text === 'string' && !p.thought)
    .map((p) => p.text)
    .join('');
  const chunks = cand.groundingMetadata?.groundingChunks ?? [];
  const supports = cand.groundingMetadata?.groundingSupports ?? [];
  const firstAt = new Map<number, { at: number; claim: string }>();
  for (const s of supports) {
    const at = s.segment?.startIndex ?? 0;
    for (const i of s.groundingChunkIndices ?? []) {
      const seen = firstAt.get(i);
      if (!seen || at < seen.at) firstAt.set(i, { at, claim: s.segment?.text ?? '' });
    }
  }
  const order = chunks
    .map((_, i) => i)
    .sort((a, b) => (firstAt.get(a)?.at ?? Infinity) - (firstAt.get(b)?.at ?? Infinity) || a - b);
  const sources: SourceRef[] = order
    .filter((i) => chunks[i]?.web?.uri)
    .map((i) => ({ link: chunks[i].web!.uri!, title: chunks[i].web!.title, snippet: firstAt.get(i)?.claim }));
  return answerOf(body, fallbackModel, text, sources);
}

function answerOf(body: GeminiBody, fallbackModel: string, text: string, sources: SourceRef[]): ProviderAnswer {
  return { provider: 'gemini', model: body.modelVersion || fallbackModel, text, references: numberReferences(sources), raw: body, simulated: false };
}

async function resolveGroundingRedirects(answer: ProviderAnswer, s: HttpSettings, signal?: AbortSignal): Promise<void> {
  await Promise.all(
    answer.references.map(async (ref) => {
      if (!ref.link.includes('/grounding-api-redirect/')) return;
      try {
        const timeout = AbortSignal.timeout(Math.min(5_000, s.timeoutMs));
        const res = await s.fetch(ref.link, {
          method: 'GET',
          redirect: 'manual',
          signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        });
        await res.body?.cancel();
        const location = res.status >= 300 && res.status < 400 ? res.headers.get('location') : null;
        if (location) ref.link = new URL(location, ref.link).toString();
      } catch {
        // Keep the redirect: still a citation, only its domain is unknown.
      }
    }),
  );
}
