import { afterEach, describe, expect, it } from 'vitest';
import { ASK, FAKE_API_KEY, fastHttp, liveAdapterContract } from '../../../test/fakes/contract.js';
import { DEFAULT_SOURCES, startFakeProvider, type FakeProvider } from '../../../test/fakes/index.js';
import { createGrokProvider } from './grok.js';

const make = (fake: FakeProvider, http = fastHttp().http, apiKey = FAKE_API_KEY) => createGrokProvider({ apiKey, baseUrl: fake.baseUrl, http });

describe('grok adapter (xAI Responses API + web_search)', () => {
  let fake: FakeProvider;
  afterEach(() => fake?.close());

  it('normalises the answer: text, model, cited URLs in the order given, no positions', async () => {
    fake = await startFakeProvider('grok');
    const answer = await make(fake).ask(ASK);
    expect(answer.provider).toBe('grok');
    expect(answer.simulated).toBe(false);
    expect(answer.model).toBe('grok-4-fast-reasoning');
    expect(answer.text).toBe(
      'The best CRM for a small sales team depends on budget and workflow. HubSpot offers a free CRM with email tracking and simple pipelines. ' +
        'Pipedrive is built around visual deal pipelines, but it is not the cheapest option. Smaller teams on Reddit often recommend starting with a free plan.',
    );
    expect(answer.references.map((r) => r.link)).toEqual([0, 1, 2, 3].map((i) => DEFAULT_SOURCES[i].url));
  });

  it('sends POST /v1/responses with Bearer auth and the web_search tool', async () => {
    fake = await startFakeProvider('grok');
    await createGrokProvider({ apiKey: FAKE_API_KEY, baseUrl: fake.baseUrl, model: 'grok-4', http: fastHttp().http }).ask({ ...ASK, country: 'de' });
    const [req] = fake.apiRequests();
    expect(req.path).toBe('/v1/responses');
    expect(req.headers.authorization).toBe(`Bearer ${FAKE_API_KEY}`);
    expect(req.body).toEqual({ model: 'grok-4', input: ASK.prompt, tools: [{ type: 'web_search' }], store: false });
  });
});

liveAdapterContract('grok', (fake, http, apiKey) => make(fake, http, apiKey), { authStatus: 400 });
