import { afterEach, describe, expect, it } from 'vitest';
import { ASK, FAKE_API_KEY, fastHttp, liveAdapterContract } from '../../../test/fakes/contract.js';
import { DEFAULT_SOURCES, startFakeProvider, type FakeProvider } from '../../../test/fakes/index.js';
import { createPerplexityProvider } from './perplexity.js';

const make = (fake: FakeProvider, http = fastHttp().http, apiKey = FAKE_API_KEY) => createPerplexityProvider({ apiKey, baseUrl: fake.baseUrl, http });
const ref = (i: number, n: number) => ({ reference_index: n, link: DEFAULT_SOURCES[i].url, title: DEFAULT_SOURCES[i].title, snippet: DEFAULT_SOURCES[i].snippet });

describe('perplexity adapter (Sonar chat completions)', () => {
  let fake: FakeProvider;
  afterEach(() => fake?.close());

  it('normalises the answer: text with [n] markers, model, citations with search_results titles and snippets', async () => {
    fake = await startFakeProvider('perplexity');
    const answer = await make(fake).ask(ASK);
    expect(answer.provider).toBe('perplexity');
    expect(answer.model).toBe('sonar');
    expect(answer.simulated).toBe(false);
    expect(answer.text).toBe(
      'The best CRM for a small sales team depends on budget and workflow.[1] ' +
        'HubSpot offers a free CRM with email tracking and simple pipelines.[2][1] ' +
        'Pipedrive is built around visual deal pipelines, but it is not the cheapest option.[3] ' +
        'Smaller teams on Reddit often recommend starting with a free plan.[4][2]',
    );
    // The uncited fifth source is still one of the engine's references, after the cited ones.
    expect(answer.references).toEqual([ref(0, 1), ref(1, 2), ref(2, 3), ref(3, 4), ref(4, 5)]);
  });

  it('orders references by first citation and renumbers the markers to match', async () => {
    fake = await startFakeProvider('perplexity', {
      answer: {
        segments: [
          { text: 'Pipedrive is a favourite of small teams.', cites: [2] },
          { text: 'HubSpot is free to start.', cites: [1, 2] },
        ],
        sources: DEFAULT_SOURCES.slice(0, 3),
      },
    });
    const answer = await make(fake).ask(ASK);
    expect(answer.text).toBe('Pipedrive is a favourite of small teams.[1] HubSpot is free to start.[2][1]');
    expect(answer.references).toEqual([ref(2, 1), ref(1, 2), ref(0, 3)]);
  });

  it('sends POST /chat/completions with Bearer auth, the sonar model and the user location', async () => {
    fake = await startFakeProvider('perplexity');
    await make(fake).ask({ ...ASK, country: 'gb' });
    const [req] = fake.apiRequests();
    expect(req.path).toBe('/chat/completions');
    expect(req.headers.authorization).toBe(`Bearer ${FAKE_API_KEY}`);
    expect(req.body).toEqual({
      model: 'sonar',
      messages: [{ role: 'user', content: ASK.prompt }],
      web_search_options: { user_location: { country: 'GB' } },
    });
  });

  it('leaves out the user location when no country is given', async () => {
    fake = await startFakeProvider('perplexity');
    await make(fake).ask({ prompt: 'best crm', day: '2025-08-27' });
    expect(fake.apiRequests()[0].body.web_search_options).toBeUndefined();
  });
});

liveAdapterContract('perplexity', (fake, http, apiKey) => make(fake, http, apiKey), { authStatus: 401 });
