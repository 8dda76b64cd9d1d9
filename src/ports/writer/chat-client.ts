import { abortableSleep, errorMessage, joinUrl, retryAfterMs } from '../providers/wire.js';

// One Chat Completions call (`POST {base}/chat/completions`) with a timeout per attempt and
// retries on 429, 5xx, timeouts and network errors, backing off exponentially with jitter
// and honouring Retry-After, as the provider adapters do (src/ports/providers/call.ts).
// Any OpenAI-compatible server answers it: OpenAI, Azure-style gateways, vLLM, llama.cpp,
// Ollama, LM Studio.

export class WriterError extends Error {
  constructor(
    message: string,
    readonly status?: number,
    readonly retryable = false,
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'WriterError';
  }
}

export interface ChatSettings {
  /** Per attempt. */
  timeoutMs: number;
  /** Retries after the first attempt. */
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** A longer Retry-After is not waited for: the call fails at once. */
  maxRetryAfterMs: number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  fetch: typeof fetch;
}

export const DEFAULT_CHAT_SETTINGS: ChatSettings = {
  timeoutMs: 60_000,
  maxRetries: 3,
  baseDelayMs: 1_000,
  maxDelayMs: 20_000,
  maxRetryAfterMs: 60_000,
  sleep: abortableSleep,
  fetch: (...args) => globalThis.fetch(...args),
};

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export type ResponseFormat =
  | { type: 'json_object' }
  | { type: 'json_schema'; json_schema: { name: string; strict: boolean; schema: Record<string, unknown> } };

export interface ChatUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  total_tokens?: number;
}

export interface ChatResult {
  content: string | null;
  refusal: string | null;
  finishReason: string | null;
  model: string | null;
  usage: ChatUsage | null;
}

export interface ChatClient {
  /** `<provider>:<model>`, for messages. */
  readonly label: string;
  complete(messages: ChatMessage[], responseFormat: ResponseFormat, signal?: AbortSignal): Promise<ChatResult>;
}

export interface ChatClientOptions {
  label: string;
  baseUrl: string;
  model: string;
  /** Sent as `Authorization: Bearer …`; local servers may need none. */
  apiKey?: string;
  settings?: Partial<ChatSettings>;
}

export function createChatClient(opts: ChatClientOptions): ChatClient {
  const s: ChatSettings = { ...DEFAULT_CHAT_SETTINGS, ...opts.settings };
  const url = joinUrl(opts.baseUrl, 'chat/completions');
  const headers: Record<string, string> = { accept: 'application/json', 'content-type': 'application/json' };
  if (opts.apiKey) headers.authorization = `Bearer ${opts.apiKey}`;

  async function attempt(body: string, signal?: AbortSignal): Promise<ChatResult> {
    const timeout = AbortSignal.timeout(s.timeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    let res: Response;
    let text: string;
    try {
      res = await s.fetch(url, { method: 'POST', headers, body, signal: combined });
      text = await res.text();
    } catch (e) {
      if (signal?.aborted) throw new WriterError(`${opts.label}: call cancelled`);
      if (timeout.aborted) throw new WriterError(`${opts.label}: chat completion timed out after ${s.timeoutMs} ms`, undefined, true);
      const cause = (e as { cause?: { code?: string; message?: string } }).cause;
      throw new WriterError(`${opts.label}: chat completion failed: ${cause?.code ?? cause?.message ?? (e as Error).message}`, undefined, true);
    }
    // biome-ignore lint/suspicious/noExplicitAny: an OpenAI-compatible server's JSON, checked field by field below.
    let json: any;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    if (!res.ok) {
      const retryable = res.status === 408 || res.status === 409 || res.status === 429 || res.status >= 500;
      const message = errorMessage(json, text);
      throw new WriterError(`${opts.label}: chat completion answered ${res.status}${message ? `: ${message}` : ''}`, res.status, retryable, retryable ? retryAfterMs(res.headers) : undefined);
    }
    const choice = json?.choices?.[0];
    if (!choice?.message) throw new WriterError(`${opts.label}: chat completion returned no choices`, res.status, true);
    return {
      content: typeof choice.message.content === 'string' ? choice.message.content : null,
      refusal: typeof choice.message.refusal === 'string' ? choice.message.refusal : null,
      finishReason: choice.finish_reason ?? null,
      model: typeof json.model === 'string' ? json.model : null,
      usage: json.usage ?? null,
    };
  }

  return {
    label: opts.label,
    async complete(messages, responseFormat, signal) {
      const body = JSON.stringify({ model: opts.model, messages, response_format: responseFormat });
      for (let n = 0; ; n++) {
        let error: WriterError;
        try {
          return await attempt(body, signal);
        } catch (e) {
          error = e instanceof WriterError ? e : new WriterError(`${opts.label}: ${String(e)}`);
        }
        if (!error.retryable || n >= s.maxRetries || (error.retryAfterMs ?? 0) > s.maxRetryAfterMs) {
          if (n > 0 && error.retryable) throw new WriterError(`${error.message} (after ${n + 1} attempts)`, error.status, true);
          throw error;
        }
        const backoff = Math.min(s.maxDelayMs, s.baseDelayMs * 2 ** n);
        const delay = Math.max(error.retryAfterMs ?? 0, Math.round(backoff / 2 + Math.random() * (backoff / 2)));
        try {
          await s.sleep(delay, signal);
        } catch {
          throw new WriterError(`${opts.label}: call cancelled`);
        }
      }
    },
  };
}
