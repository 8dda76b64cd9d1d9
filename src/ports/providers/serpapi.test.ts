import { afterEach, describe, expect, it } from 'vitest';
import { ASK, FAKE_API_KEY, fastHttp, liveAdapterContract } from '../../../test/fakes/contract.js';
import { DEFAULT_SOURCES, startFakeProvider, type FakeProvider } from '../../../test/fakes/index.js';
import { ProviderError } from './types.js';
import { createSerpApiProvider, parseAiOverview } from './serpapi.js';

const make = (fake: FakeProvider, http = fastHttp().http, apiKey = FAKE_API_KEY) => createSerpApiProvider({ apiKey, baseUrl: fake.baseUrl, http });
const ref = (i: number, n: number) => ({ reference_index: n, link: DEFAULT_SOURCES[i].url, title: DEFAULT_SOURCES[i].title, snippet: DEFAULT_SOURCES[i].snippet });
const MARKDOWN =
  'The best CRM for a small sales team depends on budget and workflow.\n\n' +
  '### Popular options\n\n' +
  '- HubSpot offers a free CRM with email tracking and simple pipelines.\n' +
  '- Pipedrive is built around visual deal pipelines, but it is not the cheapest option.\n' +
  '- Smaller teams on Reddit often recommend starting with a free plan.';

describe('google_ai_overview adapter (SerpApi)', () => {
  let fake: FakeProvider;
  afterEach(() => fake?.close());

  it('normalises the overview: markdown text, references in order of first use', async () => {
    fake = await startFakeProvider('google_ai_overview');
    const answer = await make(fake).ask(ASK);
    expect(answer.provider).toBe('google_ai_overview');
    expect(answer.model).toBe('google-ai-overview');
    expect(answer.text).toBe(MARKDOWN);
    expect(answer.references).toEqual([ref(0, 1), ref(1, 2), ref(2, 3), ref(3, 4), ref(4, 5)]);
    expect(fake.apiRequests()).toHaveLength(1);
  });

  it('sends GET /search with engine=google, q, gl, hl and api_key', async () => {
    fake = await startFakeProvider('google_ai_overview');
    await make(fake).ask({ ...ASK, country: 'US', language: 'EN' });
    const [req] = fake.apiRequests();
    expect(req.method).toBe('GET');
    expect(req.path).toBe('/search');
    expect(req.query).toEqual({ engine: 'google', q: ASK.prompt, gl: 'us', hl: 'en', api_key: FAKE_API_KEY });
  });

  it('fetches the overview with a second call when only a page_token comes back', async () => {
    fake = await startFakeProvider('google_ai_overview', { replies: ['page_token'] });
    const answer = await make(fake).ask(ASK);
    const [first, second] = fake.apiRequests();
    expect(first.query.engine).toBe('google');
    expect(second.query).toEqual({ engine: 'google_ai_overview', page_token: 'KIVu-nictxwMj4bf5i6ar_1', api_key: FAKE_API_KEY });
    expect(answer.text).toBe(MARKDOWN);
    expect(answer.references).toHaveLength(5);
    expect(Object.keys(answer.raw as object)).toEqual(['search', 'ai_overview']);
  });

  it('retries the page_token call on its own', async () => {
    fake = await startFakeProvider('google_ai_overview', { replies: ['page_token', 'unavailable'] });
    const answer = await make(fake).ask(ASK);
    expect(answer.text).toBe(MARKDOWN);
    expect(fake.apiRequests().map((r) => r.query.engine)).toEqual(['google', 'google_ai_overview', 'google_ai_overview']);
  });

  it('reads a search without an AI Overview as an empty answer', async () => {
    fake = await startFakeProvider('google_ai_overview', { replies: ['no_overview'] });
    const answer = await make(fake).ask(ASK);
    expect(answer).toMatchObject({ text: '', references: [], model: 'google-ai-overview', simulated: false });
  });

  it('keeps the api_key out of error messages', async () => {
    fake = await startFakeProvider('google_ai_overview', { replies: ['server_error'] });
    const e = await make(fake, fastHttp({ maxRetries: 0 }).http).ask(ASK).catch((x) => x);
    expect(e).toBeInstanceOf(ProviderError);
    expect(e.message).toBe('google_ai_overview: GET /search (engine=google) answered 500: Internal error. Please contact support at contact@serpapi.com.');
    expect(e.message).not.toContain(FAKE_API_KEY);
  });

  it('renders titled and nested list items, expandable sections, tables and comparisons as markdown', () => {
    const answer = parseAiOverview(
      {
        ai_overview: {
          text_blocks: [
            { type: 'paragraph', snippet: 'Top picks:', reference_indexes: [2] },
            {
              type: 'list',
              list: [
                { title: 'HubSpot:', snippet: 'Free to start.', reference_indexes: [0] },
                { title: 'Pipedrive', snippet: 'Visual pipelines.', list: [{ snippet: 'From $14 per user.', reference_indexes: [2, 1] }] },
              ],
            },
            { type: 'expandable', title: 'How to choose', text_blocks: [{ type: 'paragraph', snippet: 'Try two tools.' }] },
            { type: 'table', table: [['Tool', 'Price'], ['HubSpot', 'Free'], ['Pipedrive', '$14']] },
            { type: 'comparison', product_labels: ['HubSpot', 'Pipedrive'], comparison: [{ feature: 'Free plan', values: ['Yes', 'No'] }] },
          ],
          references: [
            { title: 'A', link: 'https://a.com/', snippet: 'a', source: 'A', index: 0 },
            { title: 'B', link: 'https://b.com/', snippet: 'b', source: 'B', index: 1 },
            { title: 'C', link: 'https://c.com/', snippet: 'c', source: 'C', index: 2 },
            { title: 'A again', link: 'https://a.com/', snippet: 'a2', source: 'A', index: 3 },
          ],
        },
      },
      {},
    );
    expect(answer.text).toBe(
      [
        'Top picks:',
        '- **HubSpot:** Free to start.\n- **Pipedrive**: Visual pipelines.\n  - From $14 per user.',
        '### How to choose\n\nTry two tools.',
        '| Tool | Price |\n| --- | --- |\n| HubSpot | Free |\n| Pipedrive | $14 |',
        '|  | HubSpot | Pipedrive |\n| --- | --- | --- |\n| Free plan | Yes | No |',
      ].join('\n\n'),
    );
    expect(answer.references.map((r) => [r.reference_index, r.link])).toEqual([
      [1, 'https://c.com/'],
      [2, 'https://a.com/'],
      [3, 'https://b.com/'],
    ]);
  });
});

liveAdapterContract('google_ai_overview', (fake, http, apiKey) => make(fake, http, apiKey), { authStatus: 401 });
