import { hostOf, type FakeAnswer } from './answer.js';
import type { FakeWire, RecordedRequest } from './wire.js';

// Gemini API: POST /v1beta/models/{model}:generateContent with x-goog-api-key (or ?key=).
// Grounding with Google Search puts sources in groundingMetadata: groundingChunks (web
// uri = a vertexaisearch redirect, title = the domain) and groundingSupports (byte offsets).
const gErr = (code: number, status: string, message: string, details: unknown[] = []) => ({ error: { code, message, status, ...(details.length ? { details } : {}) } });

export function geminiResponse(answer: FakeAnswer, origin: string, model = 'gemini-2.5-flash') {
  let text = '';
  const supports: unknown[] = [];
  answer.segments.forEach((seg, i) => {
    if (i) text += ' ';
    const start = Buffer.byteLength(text);
    text += seg.text;
    if (seg.cites.length) {
      // proto3 JSON leaves out a zero startIndex, as the real API does.
      supports.push({ segment: { ...(start ? { startIndex: start } : {}), endIndex: Buffer.byteLength(text), text: seg.text }, groundingChunkIndices: seg.cites });
    }
  });
  return {
    candidates: [
      {
        content: { parts: [{ text }], role: 'model' },
        finishReason: 'STOP',
        groundingMetadata: {
          searchEntryPoint: { renderedContent: '<style>.container{}</style><div class="container">…</div>' },
          groundingChunks: answer.sources.map((s, i) => ({ web: { uri: `${origin}/grounding-api-redirect/${i}`, title: hostOf(s.url) } })),
          groundingSupports: supports,
          webSearchQueries: ['best crm for small sales team'],
        },
        index: 0,
      },
    ],
    usageMetadata: { promptTokenCount: 11, candidatesTokenCount: 160, totalTokenCount: 420, toolUsePromptTokenCount: 249 },
    modelVersion: model,
    responseId: 'mK6vaJ3fLc6Yz7IPtJ3e-Qs',
  };
}

const keyOf = (req: RecordedRequest) => req.headers['x-goog-api-key'] ?? req.query.key ?? '';

export const geminiWire: FakeWire = {
  basePath: '/v1beta',
  env: { key: 'GEMINI_API_KEY', baseUrl: 'GEMINI_BASE_URL' },
  isApi: (req) => req.method === 'POST' && /^\/v1beta\/models\/[^/:]+:generateContent$/.test(req.path),
  auth(req, expected) {
    const key = keyOf(req);
    if (!key) return { status: 403, body: gErr(403, 'PERMISSION_DENIED', "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.") };
    if (expected && key !== expected) return geminiWire.error('unauthorized', 0);
    return null;
  },
  prompt: (req) => req.body?.contents?.at(-1)?.parts?.map((p: { text?: string }) => p.text ?? '').join('') ?? '',
  ok: (req, answer, state, model) => ({ status: 200, body: geminiResponse(answer, state.origin, answer.model ?? model ?? req.path.match(/models\/([^:]+)/)?.[1]) }),
  extra(req, answer) {
    const m = req.path.match(/^\/grounding-api-redirect\/(\d+)$/);
    const src = m ? answer.sources[Number(m[1])] : undefined;
    return src ? { status: 302, headers: { location: src.url } } : null;
  },
  error(kind, retryAfter) {
    switch (kind) {
      case 'rate_limit':
        return {
          status: 429,
          body: gErr(429, 'RESOURCE_EXHAUSTED', 'You exceeded your current quota, please check your plan and billing details.', [
            { '@type': 'type.googleapis.com/google.rpc.QuotaFailure', violations: [{ quotaMetric: 'generativelanguage.googleapis.com/generate_content_free_tier_requests', quotaId: 'GenerateRequestsPerMinutePerProjectPerModel-FreeTier' }] },
            { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: `${retryAfter}s` },
          ]),
        };
      case 'server_error':
        return { status: 500, body: gErr(500, 'INTERNAL', 'An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting') };
      case 'unavailable':
        return { status: 503, body: gErr(503, 'UNAVAILABLE', 'The model is overloaded. Please try again later.') };
      case 'bad_request':
        return { status: 400, body: gErr(400, 'INVALID_ARGUMENT', '* GenerateContentRequest.contents: contents is not specified\n') };
      case 'unauthorized':
        // Gemini answers a wrong key with 400, not 401.
        return {
          status: 400,
          body: gErr(400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.', [
            { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com', metadata: { service: 'generativelanguage.googleapis.com' } },
          ]),
        };
    }
  },
};
