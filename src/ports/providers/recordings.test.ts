import { describe, expect, it } from 'vitest';
import { DEFAULT_ANSWER } from '../../../test/fakes/answer.js';
import { messagesResponse } from '../../../test/fakes/anthropic.js';
import { geminiResponse } from '../../../test/fakes/gemini.js';
import { oxylabsChatGptWire, oxylabsJob, oxylabsResult } from '../../../test/fakes/oxylabs.js';
import { openAIResponse } from '../../../test/fakes/openai.js';
import { sonarResponse } from '../../../test/fakes/perplexity.js';
import { serpAiBody } from '../../../test/fakes/serpapi-ai.js';
import { serpApiWire } from '../../../test/fakes/serpapi.js';
import { xaiResponse } from '../../../test/fakes/xai.js';
import { keyPaths, recording, recordingLines, unknownPaths } from '../../../test/fixtures/providers/index.js';
import { parseAnthropicResponse } from './anthropic.js';
import { parseGeminiResponse } from './gemini.js';
import { parseOpenAIResponse } from './openai.js';
import { parsePerplexityResponse } from './perplexity.js';
import { parseGrokResponse } from './grok.js';
import { parseChatGptUi } from './oxylabs-chatgpt.js';
import { parseAiOverview } from './serpapi.js';
import { anthropicUsage, geminiUsage, perplexityUsage, responsesUsage } from './usage.js';

// Responses recorded from the real services (test/fixtures/providers/README.md names the
// repository, path and commit of each). Each adapter must read them; each fake must not send
// a field that no recording has (a renamed or made-up field fails here, not in production).

const chunks = (file: string) => recordingLines(file);

describe('chatgpt reads a recorded Responses API answer with web_search', () => {
  const body = recording('chatgpt/openai-web-search-tool.1.json');
  const answer = parseOpenAIResponse(body, 'fallback');

  it('text, model and url_citation references in text order, tracking removed', () => {
    expect(answer.model).toBe('gpt-4o-2024-07-18');
    expect(answer.text).toBe(body.output[2].content[0].text);
    expect(answer.references.map((r) => [r.reference_index, r.link, r.title])).toEqual([
      [1, 'https://www.axios.com/local/san-francisco/2025/03/07/bruce-lee-statue-sf-chinatown', 'Bruce Lee statue to be installed in SF Chinatown'],
      [2, 'https://www.axios.com/local/san-francisco/2025/03/03/bay-area-office-leasing-activity', 'The Bay Area is set to make an office leasing comeback'],
      [3, 'https://www.axios.com/local/san-francisco/2025/03/03/where-to-see-spring-blooms-bay-area', 'Where to see spring blooms in the Bay Area'],
      [4, 'https://www.axios.com/local/san-francisco/2025/03/03/great-highway-park-opening-april-recall-campaign', 'Oceanfront Great Highway park set to open in April'],
      [5, 'https://www.axios.com/local/san-francisco/2025/03/03/climate-weather-spring-temperatures-warmer-sf', "San Francisco's spring seasons are getting warmer"],
    ]);
    // The claim a citation supports is the sentence its annotation follows.
    expect(answer.references[0].snippet).toBe('Artist Arnie Kim has been commissioned for the project, with a fundraising goal of $150,000.');
    expect(answer.raw).toBe(body);
  });
});

describe('claude reads a recorded Messages answer with two web searches', () => {
  const body = recording('claude/anthropic-web-search-tool.1.json');
  const answer = parseAnthropicResponse(body, 'fallback');

  it('the text after the searches (not the narration between them), model, cited results', () => {
    expect(answer.model).toBe('claude-sonnet-4-20250514');
    expect(answer.text.startsWith('Based on the search results, here are the key tech news highlights')).toBe(true);
    expect(answer.text).not.toContain('Let me search');
    expect(answer.text).toContain('Caroline Ellison, Sam Bankman-Fried');
    expect(answer.text.endsWith('specific breaking stories from September 26, 2024.')).toBe(true);
    expect(answer.references).toEqual([
      {
        reference_index: 1,
        link: 'https://acecomments.mu.nu/?post=411647',
        title: 'Daily Tech News 26 September 2024',
        snippet: body.content[6].citations[0].cited_text,
      },
      {
        reference_index: 2,
        link: 'https://www.crescendo.ai/news/latest-ai-news-and-updates',
        title: 'The Latest AI News and AI Breakthroughs that Matter Most: 2025 | News',
        snippet: body.content[8].citations[0].cited_text,
      },
    ]);
  });
});

describe('perplexity reads recorded Sonar answers', () => {
  it('citations only (no search_results): references by first [n], markers renumbered, uncited last', () => {
    const body = recording('perplexity/perplexity-citations.json');
    const answer = parsePerplexityResponse(body, 'fallback');
    const c: string[] = body.citations;
    expect(answer.model).toBe('sonar');
    // First cited: [2][3][5][7], then [6], [1]; [4] is never cited.
    expect(answer.references.map((r) => r.link)).toEqual([c[1], c[2], c[4], c[6], c[5], c[0], c[3]]);
    expect(answer.references.every((r) => r.title === '')).toBe(true);
    expect(answer.text).toContain('authoritative U.S. data sources.[1][2][3][4]');
    expect(answer.text).toContain('(2026 city estimate from populationstat.com).[6]');
  });

  it('an answer with no citations', () => {
    const answer = parsePerplexityResponse(recording('perplexity/perplexity-usage-raw-live.json'), 'fallback');
    expect(answer).toMatchObject({ text: 'OK', model: 'sonar', references: [] });
  });
});

describe('gemini reads recorded generateContent answers', () => {
  it("Google's documented grounding response: text, chunks in order of support", () => {
    const answer = parseGeminiResponse(recording('gemini/google-search-docs-example.json'), 'gemini-2.5-flash');
    expect(answer.text).toBe("Spain won Euro 2024, defeating England 2-1 in the final. This victory marks Spain's record fourth European Championship title.");
    // No modelVersion in the example: the configured model. Both chunks carry the same
    // (abbreviated) redirect URI in Google's example, so they make one reference.
    expect(answer.model).toBe('gemini-2.5-flash');
    expect(answer.references).toEqual([
      { reference_index: 1, link: 'https://vertexaisearch.cloud.google.com.....', title: 'aljazeera.com', snippet: 'Spain won Euro 2024, defeatin...' },
    ]);
  });

  it('a recorded live answer: modelVersion, no grounding', () => {
    const [first] = chunks('gemini/issue-19822-google-search-live.chunks.txt');
    const answer = parseGeminiResponse(first, 'fallback');
    expect(answer).toMatchObject({ text: 'The current date is Wednesday, August 26, 2026.', model: 'gemini-2.5-flash', references: [] });
  });
});

describe('grok reads a recorded xAI Responses answer with web_search', () => {
  it('text, model, url_citation annotations without positions or titles, in the given order', () => {
    const body = recording('grok/xai-web-search-tool.1.json');
    const answer = parseGrokResponse(body, 'fallback');
    expect(answer.provider).toBe('grok');
    expect(answer.model).toBe('grok-4-fast-reasoning');
    expect(answer.text).toBe(body.output[1].content[0].text);
    expect(answer.references.map((r) => [r.reference_index, r.link, r.title, r.snippet])).toEqual([
      [1, 'https://www.ibm.com/think/topics/explainable-ai', '', ''],
      [2, 'https://x.ai/company', '', ''],
      [3, 'https://en.wikipedia.org/wiki/XAI_%28company%29', '', ''],
      [4, 'https://x.ai/', '', ''],
      [5, 'https://www.owkin.com/a-z-of-ai-for-healthcare/xai', '', ''],
    ]);
  });
});

describe('google_ai_overview reads a recorded SerpApi Google search with an inline AI Overview', () => {
  it('text blocks as markdown, references in order of first use, the model Sightline names', () => {
    const body = recording('google_ai_overview/serpapi-tutorials-google-coffee.json');
    const answer = parseAiOverview(body, body);
    expect(answer).toMatchObject({ provider: 'google_ai_overview', model: 'google-ai-overview', simulated: false });
    expect(answer.raw).toBe(body);
    const parts = answer.text.split('\n\n');
    expect(parts).toHaveLength(8);
    expect(parts[0]).toBe(body.ai_overview.text_blocks[0].snippet);
    expect(parts[1]).toBe('Step 1: Grind your coffee');
    expect(parts[2]).toBe(
      '- Grind your coffee beans fresh just before brewing for the best flavor.\n' +
        '- The grind size will depend on your brewing method. For example, use a coarser grind for a French press and a medium grind for a moka pot.',
    );
    expect(parts[3]).toBe('This video demonstrates how to grind coffee beans for different brewing methods:');
    expect(parts[7].split('\n').map((l) => l.slice(0, 40))).toEqual([
      '- **For a drip coffee maker:** Place a f',
      '- **For a pour-over:** Place a filter in',
      '- **For a French press:** Add coarse cof',
      '- **For a moka pot:** Fill the bottom ch',
    ]);
    // reference_indexes in reading order: 1 2 6 7 | 5 | 4 6 | 1 3 | 3 4 5 7 | 0 | 2 7 | 6 8 9 | 4
    const firstUse = [1, 2, 6, 7, 5, 4, 3, 0, 8, 9];
    expect(answer.references.map((r) => [r.reference_index, r.link, r.title])).toEqual(
      firstUse.map((i, n) => [n + 1, body.ai_overview.references[i].link, body.ai_overview.references[i].title]),
    );
  });
});

describe("chatgpt_ui reads Oxylabs' recorded capture of ChatGPT's web app", () => {
  const body = recording('chatgpt_ui/oxylabs-chatgpt-scraper-output.json');
  const answer = parseChatGptUi(body);

  it('the markdown (its indented first paragraph trimmed), the model the app named, no sources', () => {
    expect(answer.provider).toBe('chatgpt_ui');
    expect(answer.model).toBe('gpt-4o');
    expect(answer.text).toBe(body.results[0].content.markdown_text.trim());
    expect(answer.text.startsWith('Improving sleep through supplements can be helpful')).toBe(true);
    expect(answer.text).toContain('### 1. **Melatonin**');
    // This answer cited nothing: the recording has no citations or links (both conditional).
    expect(answer.references).toEqual([]);
    expect(answer.raw).toBe(body);
  });
});

describe('the usage each vendor reports, read from the recordings', () => {
  it('tokens, searches and a stated price where there is one', () => {
    expect(responsesUsage(recording('chatgpt/openai-web-search-tool.1.json'))).toEqual({ input_tokens: 327, output_tokens: 770, searches: 2 });
    expect(responsesUsage(recording('grok/xai-web-search-tool.1.json'))).toEqual({ input_tokens: 1941, output_tokens: 583, searches: 1 });
    expect(anthropicUsage([recording('claude/anthropic-web-search-tool.1.json')])).toEqual({ input_tokens: 27118, output_tokens: 600, searches: 2 });
    expect(perplexityUsage(recording('perplexity/perplexity-usage-raw-live.json'))).toEqual({ input_tokens: 6, output_tokens: 1, cost_usd: 0.00501 });
    expect(perplexityUsage(recording('perplexity/perplexity-citations.json'))).toEqual({ input_tokens: 10, output_tokens: 251 });
    // Tool-use prompt tokens count as input, thinking tokens as output.
    const [, last] = chunks('gemini/issue-19822-google-search-live.chunks.txt');
    expect(geminiUsage(last)).toEqual({ input_tokens: 17 + 308, output_tokens: 37 + 333 });
    expect(geminiUsage(recording('gemini/google-search-docs-example.json'))).toEqual({ searches: 2 });
  });
});

/**
 * The fields SerpApi documents for its Bing Copilot (https://serpapi.com/bing-copilot-api,
 * "JSON structure overview") and Google AI Mode engines; no recording of either was found.
 */
const SERPAPI_BLOCK_FIELDS = [
  'text_blocks',
  'text_blocks[].type',
  'text_blocks[].snippet',
  'text_blocks[].snippet_links',
  'text_blocks[].snippet_links[].text',
  'text_blocks[].snippet_links[].link',
  'text_blocks[].snippet_highlighted_words',
  'text_blocks[].reference_indexes',
  'text_blocks[].level',
  'text_blocks[].list',
  'text_blocks[].list[].snippet',
  'text_blocks[].list[].snippet_links',
  'text_blocks[].list[].snippet_highlighted_words',
  'text_blocks[].list[].reference_indexes',
  'text_blocks[].code',
  'text_blocks[].language',
  'text_blocks[].headers',
  'text_blocks[].table',
  'text_blocks[].formatted',
  'references',
  'references[].index',
  'references[].title',
  'references[].link',
  'references[].snippet',
  'references[].source',
  'search_metadata.*',
  'search_parameters.*',
];
const SERPAPI_DOCUMENTED: Record<string, string[]> = {
  // https://serpapi.com/ai-overview: the overview in a Google search, or only its page_token
  google_ai_overview: [...SERPAPI_BLOCK_FIELDS.map((f) => (f.startsWith('search_') ? f : `ai_overview.${f}`)), 'ai_overview.page_token', 'ai_overview.serpapi_link'],
  copilot: [...SERPAPI_BLOCK_FIELDS, 'header', 'header_video.*', 'images_link', 'videos_link'],
  google_ai_mode: [...SERPAPI_BLOCK_FIELDS, 'reconstructed_markdown'],
};

/**
 * Oxylabs' ChatGPT fields the recording lacks (returned only when the answer has them), as
 * github.com/oxylabs/chatgpt-scraper's README ("JSON output structure") lists them.
 */
const OXYLABS_CHATGPT_DOCUMENTED = [
  'results[].content.citations',
  'results[].content.citations[].title',
  'results[].content.citations[].url',
  'results[].content.citations[].text',
  'results[].content.citations[].description',
  'results[].content.citations[].section',
  'results[].content.search_queries',
  'results[].content.links',
  'results[].content.links[].url',
  'results[].content.links[].text',
];

/**
 * Fields the vendors declare (their SDKs' response types) that the recordings happen not to
 * carry; a fake may send these and nothing else the recordings lack.
 */
const DECLARED: Record<string, string[]> = {
  // openai-node ResponseOutputText.logprobs
  chatgpt: ['output[].content[].logprobs'],
  // @perplexity-ai/perplexity_ai ApiPublicSearchResultOutput (search_results)
  perplexity: ['search_results', 'search_results[].title', 'search_results[].url', 'search_results[].date', 'search_results[].last_updated', 'search_results[].snippet'],
};

describe('each fake sends only fields the real service sends', () => {
  const cases: Array<{ name: string; fake: unknown; real: unknown[] }> = [
    { name: 'chatgpt', fake: openAIResponse(DEFAULT_ANSWER), real: [recording('chatgpt/openai-web-search-tool.1.json')] },
    { name: 'claude', fake: messagesResponse(DEFAULT_ANSWER), real: [recording('claude/anthropic-web-search-tool.1.json')] },
    { name: 'perplexity', fake: sonarResponse(DEFAULT_ANSWER), real: [recording('perplexity/perplexity-citations.json'), recording('perplexity/perplexity-usage-raw-live.json')] },
    {
      name: 'gemini',
      fake: geminiResponse(DEFAULT_ANSWER, 'http://127.0.0.1:1'),
      real: [recording('gemini/google-search-docs-example.json'), ...chunks('gemini/issue-19822-google-search-live.chunks.txt')],
    },
  ];
  cases.push({ name: 'grok', fake: xaiResponse(DEFAULT_ANSWER), real: [recording('grok/xai-web-search-tool.1.json')] });
  for (const c of cases) {
    it(`${c.name}: no field outside the recordings`, () => {
      expect(unknownPaths(c.fake, c.real, DECLARED[c.name])).toEqual([]);
    });
  }

  const req = { method: 'GET', path: '/search', query: { q: 'best crm', gl: 'us', hl: 'en' }, headers: {}, body: undefined };
  it('chatgpt_ui: no field outside the recording and Oxylabs\' documented ChatGPT fields', () => {
    const real = [recording('chatgpt_ui/oxylabs-chatgpt-scraper-output.json')];
    const job = oxylabsJob('7352996936896485378', { prompt: 'best crm', geo_location: 'United States', polls: 2 }, 'http://127.0.0.1:1');
    const result = oxylabsResult('7352996936896485378', 'best crm', DEFAULT_ANSWER);
    // The job as Submit and Status answer it, and the results as Results does: together, the recording's shape.
    expect(unknownPaths({ job, results: [result] }, real, OXYLABS_CHATGPT_DOCUMENTED)).toEqual([]);
    expect(oxylabsChatGptWire.env.key).toBe('OXYLABS_CREDENTIALS');
  });
  it('copilot: no field outside SerpApi\'s documented Bing Copilot JSON', () => {
    expect(unknownPaths(serpAiBody('bing_copilot', req, DEFAULT_ANSWER), [], SERPAPI_DOCUMENTED.copilot)).toEqual([]);
  });
  it('google_ai_overview: no field outside the recording and SerpApi\'s documented AI Overview JSON', () => {
    const real = [recording('google_ai_overview/serpapi-tutorials-google-coffee.json')];
    const state = { origin: 'http://127.0.0.1:1', tokens: new Map<string, string>(), counter: 0 };
    const search = serpApiWire.ok({ ...req, query: { ...req.query, engine: 'google' } }, DEFAULT_ANSWER, state).body;
    const lazy = serpApiWire.special?.('page_token', { ...req, query: { ...req.query, engine: 'google' } }, DEFAULT_ANSWER, state)?.body;
    const token = [...state.tokens.keys()][0];
    const overview = serpApiWire.ok({ ...req, query: { engine: 'google_ai_overview', page_token: token } }, DEFAULT_ANSWER, state).body;
    for (const body of [search, lazy, overview]) expect(unknownPaths(body, real, SERPAPI_DOCUMENTED.google_ai_overview)).toEqual([]);
    // a renamed field of the overview is caught against the recording
    const renamed = JSON.parse(JSON.stringify(search)) as { ai_overview: { references: Array<Record<string, unknown>> } };
    renamed.ai_overview.references[0].url = renamed.ai_overview.references[0].link;
    delete renamed.ai_overview.references[0].link;
    expect(unknownPaths(renamed, real, SERPAPI_DOCUMENTED.google_ai_overview)).toEqual(['ai_overview.references[].url']);
  });
  it('google_ai_mode: no field outside SerpApi\'s documented AI Mode JSON', () => {
    expect(unknownPaths(serpAiBody('google_ai_mode', req, DEFAULT_ANSWER), [], SERPAPI_DOCUMENTED.google_ai_mode)).toEqual([]);
  });

  it('a renamed field is caught', () => {
    const body = openAIResponse(DEFAULT_ANSWER);
    const [message] = body.output.filter((o) => o.type === 'message') as unknown as Array<{ content: Array<Record<string, unknown>> }>;
    message.content[0].annotation = message.content[0].annotations;
    delete message.content[0].annotations;
    expect(unknownPaths(body, cases[0].real, DECLARED.chatgpt)).toContain('output[].content[].annotation');
    expect(keyPaths({ a: [{ b: 1 }] })).toEqual(new Set(['a', 'a[].b']));
  });
});
