import { describe, expect, it } from 'vitest';
import { DEFAULT_ANSWER } from '../../../test/fakes/answer.js';
import { messagesResponse } from '../../../test/fakes/anthropic.js';
import { geminiResponse } from '../../../test/fakes/gemini.js';
import { openAIResponse } from '../../../test/fakes/openai.js';
import { xaiResponse } from '../../../test/fakes/xai.js';
import { recording } from '../../../test/fixtures/providers/index.js';
import { searchQueriesOf } from './search-queries.js';
import { simulateAnswer } from './simulated.js';
import { PROVIDER_SURFACE, PROVIDERS } from './types.js';

describe('the searches behind an answer, read from the recorded bodies', () => {
  it('OpenAI: each web_search_call action query (a call without one adds none)', () => {
    expect(searchQueriesOf('chatgpt', recording('chatgpt/openai-web-search-tool.1.json'))).toEqual(['Vercel AI SDK next version features']);
  });

  it('Claude: each web_search server tool call, in order', () => {
    expect(searchQueriesOf('claude', recording('claude/anthropic-web-search-tool.1.json'))).toEqual([
      'tech news today September 26 2024',
      '"September 26 2024" tech news breaking',
    ]);
  });

  it('Claude: a paused turn and its continuation stored as {turns}', () => {
    const body = recording('claude/anthropic-web-search-tool.1.json');
    expect(searchQueriesOf('claude', { turns: [body, body] })).toHaveLength(2);
  });

  it("Gemini: the grounding metadata's webSearchQueries", () => {
    expect(searchQueriesOf('gemini', recording('gemini/google-search-docs-example.json'))).toEqual(['UEFA Euro 2024 winner', 'who won euro 2024']);
  });

  it('xAI: a web_search_call without an action reports no query', () => {
    expect(searchQueriesOf('grok', recording('grok/xai-web-search-tool.1.json'))).toEqual([]);
  });

  it("ChatGPT's web app through Oxylabs: results[].content.search_queries (absent from the recorded answer)", () => {
    expect(searchQueriesOf('chatgpt_ui', recording('chatgpt_ui/oxylabs-chatgpt-scraper-output.json'))).toEqual([]);
    // The shape of Oxylabs' documented example (github.com/oxylabs/chatgpt-scraper README, "Output samples").
    const documented = { results: [{ content: { search_queries: ['best supplements for sleep evidence melatonin magnesium valerian 2025'] } }] };
    expect(searchQueriesOf('chatgpt_ui', documented)).toEqual(['best supplements for sleep evidence melatonin magnesium valerian 2025']);
    expect(searchQueriesOf('chatgpt_ui', { results: [{ content: 'raw html' }] })).toEqual([]);
  });

  it('engines whose API does not report searches, and bodies of another shape, give none', () => {
    expect(searchQueriesOf('perplexity', recording('perplexity/perplexity-citations.json'))).toEqual([]);
    expect(searchQueriesOf('google_ai_overview', recording('google_ai_overview/serpapi-tutorials-google-coffee.json'))).toEqual([]);
    expect(searchQueriesOf('chatgpt', null)).toEqual([]);
    expect(searchQueriesOf('claude', { content: 'not a list' })).toEqual([]);
    expect(searchQueriesOf('gemini', { candidates: [{ groundingMetadata: { webSearchQueries: [1, ' ', 'x '] } }] })).toEqual(['x']);
  });

  it('each query once', () => {
    const body = { output: [1, 2].map(() => ({ type: 'web_search_call', action: { type: 'search', query: 'crm tools', queries: ['crm tools', 'crm pricing'] } })) };
    expect(searchQueriesOf('chatgpt', body)).toEqual(['crm tools', 'crm pricing']);
  });

  it("the fakes' bodies carry the prompt as their search, as the real engines' do", () => {
    const prompt = 'best crm for a small sales team';
    expect(searchQueriesOf('chatgpt', openAIResponse(DEFAULT_ANSWER, undefined, prompt))).toEqual([prompt]);
    expect(searchQueriesOf('claude', messagesResponse(DEFAULT_ANSWER, undefined, prompt))).toEqual([prompt]);
    expect(searchQueriesOf('gemini', geminiResponse(DEFAULT_ANSWER, 'http://127.0.0.1:1'))).toEqual(['best crm for small sales team']);
    expect(searchQueriesOf('grok', xaiResponse(DEFAULT_ANSWER, undefined, prompt))).toEqual([]);
  });
});

describe('simulated answers', () => {
  it('make up searches only for the engines whose API reports them, deterministically', () => {
    const input = { prompt: 'Best CRM for startups?', day: '2026-11-20' };
    const chatgpt = simulateAnswer('chatgpt', input);
    const queries = searchQueriesOf('chatgpt', chatgpt.raw);
    expect(queries[0]).toBe('best crm for startups');
    expect(queries.length).toBeGreaterThanOrEqual(1);
    expect(searchQueriesOf('chatgpt', simulateAnswer('chatgpt', input).raw)).toEqual(queries);
    expect(searchQueriesOf('perplexity', simulateAnswer('perplexity', input).raw)).toEqual([]);
    expect(searchQueriesOf('google_ai_overview', simulateAnswer('google_ai_overview', input).raw)).toEqual([]);
  });
});

describe('surfaces', () => {
  it('every engine has one: the SerpApi engines are search-result pages, chatgpt_ui a consumer interface, the rest search-grounded APIs', () => {
    expect(PROVIDERS.filter((p) => PROVIDER_SURFACE[p] === 'serp')).toEqual(['google_ai_overview', 'google_ai_mode', 'copilot']);
    expect(PROVIDERS.filter((p) => PROVIDER_SURFACE[p] === 'api_search')).toEqual(['chatgpt', 'perplexity', 'gemini', 'claude', 'grok']);
    // A capture service's engine of a consumer interface is an engine of its own.
    expect(PROVIDERS.filter((p) => PROVIDER_SURFACE[p] === 'ui')).toEqual(['chatgpt_ui']);
  });
});
