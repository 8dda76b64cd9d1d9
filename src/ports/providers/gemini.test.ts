import { afterEach, describe, expect, it } from 'vitest';
import { ASK, FAKE_API_KEY, fastHttp, liveAdapterContract } from '../../../test/fakes/contract.js';
import { DEFAULT_ANSWER, DEFAULT_SOURCES, startFakeProvider, type FakeProvider } from '../../../test/fakes/index.js';
import { createGeminiProvider, parseGeminiResponse } from './gemini.js';

const make = (fake: FakeProvider, http = fastHttp().http, apiKey = FAKE_API_KEY, resolveRedirects = true) =>
  createGeminiProvider({ apiKey, baseUrl: fake.baseUrl, http, resolveRedirects });
const TEXT = DEFAULT_ANSWER.segments.map((s) => s.text).join(' ');
const domain = (i: number) => new URL(DEFAULT_SOURCES[i].url).hostname.replace(/^www\./, '');
const claim = (seg: number) => DEFAULT_ANSWER.segments[seg].text;

describe('gemini adapter (generateContent + Google Search grounding)', () => {
  let fake: FakeProvider;
  afterEach(() => fake?.close());

  it('normalises the answer: text, modelVersion, grounding chunks in order of support, redirects followed', async () => {
    fake = await startFakeProvider('gemini');
    const answer = await make(fake).ask(ASK);
    expect(answer.provider).toBe('gemini');
    expect(answer.model).toBe('gemini-2.5-flash');
    expect(answer.text).toBe(TEXT);
    expect(answer.references).toEqual([
      { reference_index: 1, link: DEFAULT_SOURCES[0].url, title: domain(0), snippet: claim(0) },
      { reference_index: 2, link: DEFAULT_SOURCES[1].url, title: domain(1), snippet: claim(1) },
      { reference_index: 3, link: DEFAULT_SOURCES[2].url, title: domain(2), snippet: claim(2) },
      { reference_index: 4, link: DEFAULT_SOURCES[3].url, title: domain(3), snippet: claim(3) },
      { reference_index: 5, link: DEFAULT_SOURCES[4].url, title: domain(4), snippet: '' },
    ]);
    // One redirect look-up per chunk, outside the answering endpoint.
    expect(fake.requests.filter((r) => r.path.startsWith('/grounding-api-redirect/'))).toHaveLength(5);
  });

  it('keeps the grounding redirect links when asked not to follow them', async () => {
    fake = await startFakeProvider('gemini');
    const answer = await make(fake, fastHttp().http, FAKE_API_KEY, false).ask(ASK);
    expect(answer.references.map((r) => r.link)).toEqual([0, 1, 2, 3, 4].map((i) => `${fake.origin}/grounding-api-redirect/${i}`));
  });

  it('sends POST /v1beta/models/{model}:generateContent with x-goog-api-key and the google_search tool', async () => {
    fake = await startFakeProvider('gemini');
    await createGeminiProvider({ apiKey: FAKE_API_KEY, baseUrl: fake.baseUrl, model: 'gemini-2.5-pro', http: fastHttp().http }).ask(ASK);
    const [req] = fake.apiRequests();
    expect(req.path).toBe('/v1beta/models/gemini-2.5-pro:generateContent');
    expect(req.headers['x-goog-api-key']).toBe(FAKE_API_KEY);
    expect(req.query.key).toBeUndefined();
    // @google/genai writes the proto3 JSON names (googleSearch), which the API reads as google_search.
    expect(req.body).toEqual({ contents: [{ role: 'user', parts: [{ text: ASK.prompt }] }], tools: [{ googleSearch: {} }], generationConfig: {} });
  });

  it('reads a blocked prompt as an empty answer and skips thought parts', () => {
    expect(parseGeminiResponse({ promptFeedback: { blockReason: 'SAFETY' } }, 'gemini-2.5-flash')).toMatchObject({ text: '', references: [], model: 'gemini-2.5-flash' });
    const a = parseGeminiResponse({ candidates: [{ content: { parts: [{ text: 'thinking…', thought: true }, { text: 'Answer.' }] } }] }, 'm');
    expect(a.text).toBe('Answer.');
  });

  it('waits the RetryInfo delay Gemini puts in its 429 body', async () => {
    fake = await startFakeProvider('gemini', { replies: ['rate_limit'], retryAfterSeconds: 7 });
    const { http, delays } = fastHttp();
    await make(fake, http).ask(ASK);
    expect(delays).toEqual([7000]);
  });
});

liveAdapterContract('gemini', (fake, http, apiKey) => make(fake, http, apiKey), { authStatus: 400 });
