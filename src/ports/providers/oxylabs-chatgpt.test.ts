import { afterEach, describe, expect, it } from 'vitest';
import { ASK, FAKE_API_KEY, fastHttp, liveAdapterContract } from '../../../test/fakes/contract.js';
import { DEFAULT_SOURCES, startFakeProvider, type FakeProvider } from '../../../test/fakes/index.js';
import type { HttpSettings } from './call.js';
import { countryName, createChatGptUiProvider, parseChatGptUi } from './oxylabs-chatgpt.js';
import { searchQueriesOf } from './search-queries.js';
import { PROVIDER_SURFACE, ProviderError } from './types.js';

const fast = (extra: Partial<HttpSettings> = {}) => fastHttp({ pollIntervalMs: 5, ...extra }).http;
const make = (fake: FakeProvider, http: Partial<HttpSettings> = fast(), apiKey = FAKE_API_KEY) =>
  createChatGptUiProvider({ apiKey, baseUrl: fake.baseUrl, http: { pollIntervalMs: 5, ...http } });

describe('chatgpt_ui adapter (Oxylabs Web Scraper API, source chatgpt, Push-Pull)', () => {
  let fake: FakeProvider;
  afterEach(() => fake?.close());

  it('submits the prompt, asks about the job until done, reads the parsed result', async () => {
    fake = await startFakeProvider('chatgpt_ui');
    const answer = await make(fake, fast(), 'sightline:s3cret').ask({ ...ASK, country: 'gb' });
    expect(PROVIDER_SURFACE.chatgpt_ui).toBe('ui');
    expect(answer).toMatchObject({ provider: 'chatgpt_ui', model: 'gpt-4o', simulated: false });
    // The first paragraph comes indented (as in the recording): trimmed, it is markdown again.
    expect(answer.text).toBe(
      'The best CRM for a small sales team depends on budget and workflow.\n\n### Popular options\n\n' +
        '* HubSpot offers a free CRM with email tracking and simple pipelines.\n' +
        '* Pipedrive is built around visual deal pipelines, but it is not the cheapest option.\n' +
        '* Smaller teams on Reddit often recommend starting with a free plan.',
    );
    // Cited sources in order of first citation, then the one under "More"; utm_source=chatgpt.com removed.
    expect(answer.references.map((r) => r.link)).toEqual([0, 1, 2, 3, 4].map((i) => DEFAULT_SOURCES[i].url));
    expect(answer.references[0]).toEqual({ reference_index: 1, link: DEFAULT_SOURCES[0].url, title: DEFAULT_SOURCES[0].title, snippet: DEFAULT_SOURCES[0].snippet });
    expect(answer.sent).toEqual({ country: 'GB', language: null });
    expect(answer.usage).toEqual({ searches: 2 });
    expect(searchQueriesOf('chatgpt_ui', answer.raw)).toEqual(['What is the best CRM for a small sales team 2025', 'hubspot vs pipedrive pricing small team']);

    const [submit, ...rest] = fake.requests;
    expect(submit).toMatchObject({ method: 'POST', path: '/v1/queries' });
    expect(submit.body).toEqual({ source: 'chatgpt', prompt: ASK.prompt, parse: true, search: true, geo_location: 'United Kingdom' });
    expect(submit.headers.authorization).toBe(`Basic ${Buffer.from('sightline:s3cret').toString('base64')}`);
    const id = (answer.raw as { job: { id: string } }).job.id;
    // One poll says pending, the next done, then the results.
    expect(rest.map((r) => `${r.method} ${r.path}`)).toEqual([`GET /v1/queries/${id}`, `GET /v1/queries/${id}`, `GET /v1/queries/${id}/results`]);
    for (const r of rest) expect(r.headers.authorization).toBe(submit.headers.authorization);
    expect((answer.raw as { job: { status: string } }).job.status).toBe('done');
  });

  it('no country: no geo_location, nothing sent', async () => {
    fake = await startFakeProvider('chatgpt_ui');
    const answer = await make(fake).ask({ prompt: ASK.prompt, day: ASK.day });
    expect(fake.apiRequests()[0].body.geo_location).toBeUndefined();
    expect(answer.sent).toEqual({ country: null, language: null });
  });

  it('a faulted job fails retryable without asking for results', async () => {
    fake = await startFakeProvider('chatgpt_ui', { replies: ['faulted'] });
    const e = await make(fake, fast({ maxRetries: 0 })).ask(ASK).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ProviderError);
    expect((e as ProviderError).retryable).toBe(true);
    expect((e as ProviderError).message).toMatch(/chatgpt_ui: Oxylabs job \d+ faulted/);
    expect(fake.requests.some((r) => r.path.endsWith('/results'))).toBe(false);
  });

  it('a job not done within maxJobMs fails retryable', async () => {
    fake = await startFakeProvider('chatgpt_ui');
    const e = await make(fake, fast({ maxJobMs: 0, pollIntervalMs: 1 })).ask(ASK).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ProviderError);
    expect((e as ProviderError).retryable).toBe(true);
    expect((e as ProviderError).message).toMatch(/not done after 0 ms/);
  });

  it('a failed poll is retried on its own: the prompt is submitted once', async () => {
    fake = await startFakeProvider('chatgpt_ui');
    let polls = 0;
    const http = fast({
      fetch: async (url, init) => {
        if (String(url).match(/\/v1\/queries\/\d+$/) && polls++ === 0) return new Response(JSON.stringify({ message: 'Internal server error' }), { status: 500 });
        return fetch(url, init);
      },
    });
    const answer = await make(fake, http).ask(ASK);
    expect(answer.text).toContain('HubSpot');
    expect(fake.apiRequests()).toHaveLength(1);
  });

  it('cancelling while waiting between polls stops at once', async () => {
    fake = await startFakeProvider('chatgpt_ui');
    const ctl = new AbortController();
    const pending = make(fake, fast({ pollIntervalMs: 60_000 })).ask(ASK, ctl.signal);
    while (fake.apiRequests().length === 0) await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => setTimeout(r, 20));
    ctl.abort();
    const e = await pending.catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ProviderError);
    expect((e as ProviderError).message).toMatch(/cancelled/);
    expect((e as ProviderError).retryable).toBe(false);
  });

  it('a 401 names the credentials to check, never their value', async () => {
    fake = await startFakeProvider('chatgpt_ui', { apiKey: 'sightline:right' });
    const e = await make(fake, fast(), 'sightline:wrong').ask(ASK).catch((x: unknown) => x);
    expect((e as ProviderError).status).toBe(401);
    expect((e as ProviderError).message).toBe(
      "chatgpt_ui: POST /v1/queries (source=chatgpt) answered 401: Client not found (check OXYLABS_CREDENTIALS, the API user's username:password)",
    );
  });

  it('a result without parsed content, or a failed capture, is a retryable bad body', () => {
    expect(() => parseChatGptUi({ results: [] })).toThrow(/no parsed result/);
    expect(() => parseChatGptUi({ results: [{ content: { markdown_text: 'x' }, status_code: 613 }] })).toThrow(/the capture answered 613/);
    expect(() => parseChatGptUi({ results: [{ content: { markdown_text: '  ', parse_status_code: 12004 } }] })).toThrow(/no answer text \(parse_status_code 12004\)/);
  });

  it('an answer without llm_model is recorded as chatgpt-ui; inline links follow the citations', () => {
    const a = parseChatGptUi({
      results: [
        {
          content: {
            markdown_text: 'Answer',
            citations: [
              { url: 'https://more.example/?utm_source=chatgpt.com', title: 'More', section: 'more' },
              { url: 'https://cited.example/a?utm_source=chatgpt.com', title: 'Cited', description: 'why' },
            ],
            links: [{ url: 'https://inline.example/', text: 'inline' }],
          },
        },
      ],
    });
    expect(a.model).toBe('chatgpt-ui');
    expect(a.references.map((r) => [r.reference_index, r.link, r.title])).toEqual([
      [1, 'https://cited.example/a', 'Cited'],
      [2, 'https://inline.example/', 'inline'],
      [3, 'https://more.example/', 'More'],
    ]);
  });

  it("geo_location is the country's English name", () => {
    expect(countryName('US')).toBe('United States');
    expect(countryName('DE')).toBe('Germany');
  });
});

liveAdapterContract('chatgpt_ui', (fake, http, apiKey) => make(fake, http, apiKey), { authStatus: 401 });
