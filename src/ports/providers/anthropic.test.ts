import { afterEach, describe, expect, it } from 'vitest';
import { ASK, FAKE_API_KEY, fastHttp, liveAdapterContract } from '../../../test/fakes/contract.js';
import { DEFAULT_ANSWER, DEFAULT_SOURCES, startFakeProvider, type FakeProvider } from '../../../test/fakes/index.js';
import { createAnthropicProvider } from './anthropic.js';

const make = (fake: FakeProvider, http = fastHttp().http, apiKey = FAKE_API_KEY) => createAnthropicProvider({ apiKey, baseUrl: fake.baseUrl, http });
const ref = (i: number, n: number) => ({ reference_index: n, link: DEFAULT_SOURCES[i].url, title: DEFAULT_SOURCES[i].title, snippet: DEFAULT_SOURCES[i].snippet });
const TEXT = DEFAULT_ANSWER.segments.map((s) => s.text).join(' ');

describe('claude adapter (Anthropic Messages + web search tool)', () => {
  let fake: FakeProvider;
  afterEach(() => fake?.close());

  it('normalises the answer: text blocks after the search, dated model, cited results with cited_text', async () => {
    fake = await startFakeProvider('claude');
    const answer = await make(fake).ask(ASK);
    expect(answer.provider).toBe('claude');
    expect(answer.model).toBe('claude-sonnet-4-5-20250929');
    // The "I'll search for …" preamble is not part of the answer.
    expect(answer.text).toBe(TEXT);
    // Only cited results are references (the uncited G2 result is not).
    expect(answer.references).toEqual([ref(0, 1), ref(1, 2), ref(2, 3), ref(3, 4)]);
    expect((answer.raw as { stop_reason: string }).stop_reason).toBe('end_turn');
  });

  it('sends POST /v1/messages with the key, anthropic-version and the web_search_20250305 tool', async () => {
    fake = await startFakeProvider('claude');
    await make(fake).ask({ ...ASK, country: 'fr' });
    const [req] = fake.apiRequests();
    expect(req.path).toBe('/v1/messages');
    // @anthropic-ai/sdk 1.x sends the key as a Bearer token (x-api-key is still accepted).
    expect(req.headers.authorization).toBe(`Bearer ${FAKE_API_KEY}`);
    expect(req.headers['anthropic-version']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(req.body).toEqual({
      model: 'claude-sonnet-4-6',
      max_tokens: 2048,
      messages: [{ role: 'user', content: ASK.prompt }],
      tools: [{ type: 'web_search_20250305', name: 'web_search', max_uses: 5, user_location: { type: 'approximate', country: 'FR' } }],
    });
  });

  it('continues a pause_turn by sending the paused content back, and joins both turns', async () => {
    fake = await startFakeProvider('claude', { replies: ['pause_turn'] });
    const answer = await make(fake).ask(ASK);
    const [first, second] = fake.apiRequests();
    expect(first.body.messages).toHaveLength(1);
    expect(second.body.messages).toHaveLength(2);
    expect(second.body.messages[1].role).toBe('assistant');
    expect(second.body.messages[1].content.map((b: { type: string }) => b.type)).toEqual(['text', 'server_tool_use', 'web_search_tool_result']);
    expect(answer.text).toBe(TEXT);
    expect(answer.references).toHaveLength(4);
    expect((answer.raw as { turns: unknown[] }).turns).toHaveLength(2);
  });

  it('retries 529 overloaded', async () => {
    fake = await startFakeProvider('claude', { replies: ['unavailable'] });
    const answer = await make(fake).ask(ASK);
    expect(answer.text).toBe(TEXT);
    expect(fake.apiRequests()).toHaveLength(2);
  });
});

liveAdapterContract('claude', (fake, http, apiKey) => make(fake, http, apiKey), { authStatus: 401 });
