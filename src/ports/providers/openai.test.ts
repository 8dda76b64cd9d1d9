import { afterEach, describe, expect, it } from 'vitest';
import { ASK, FAKE_API_KEY, fastHttp, liveAdapterContract } from '../../../test/fakes/contract.js';
import { startFakeProvider, type FakeProvider } from '../../../test/fakes/index.js';
import { createOpenAIProvider, withoutOpenAITracking } from './openai.js';

const make = (fake: FakeProvider, http = fastHttp().http, apiKey = FAKE_API_KEY) => createOpenAIProvider({ apiKey, baseUrl: fake.baseUrl, http });

describe('chatgpt adapter (OpenAI Responses API + web_search)', () => {
  let fake: FakeProvider;
  afterEach(() => fake?.close());

  it('normalises the answer: text, dated model id, url_citation references in order, deduplicated', async () => {
    fake = await startFakeProvider('chatgpt');
    const answer = await make(fake).ask(ASK);
    const u = (url: string) => `${url}${url.includes('?') ? '&' : '?'}utm_source=openai`;
    expect(answer.provider).toBe('chatgpt');
    expect(answer.simulated).toBe(false);
    expect(answer.model).toBe('gpt-4.1-mini-2025-04-14');
    expect(answer.text).toBe(
      'The best CRM for a small sales team depends on budget and workflow. ' +
        `([forbes.com](${u('https://www.forbes.com/advisor/business/software/best-crm-small-business/')})) ` +
        'HubSpot offers a free CRM with email tracking and simple pipelines. ' +
        `([hubspot.com](${u('https://www.hubspot.com/products/crm')})) ([forbes.com](${u('https://www.forbes.com/advisor/business/software/best-crm-small-business/')})) ` +
        'Pipedrive is built around visual deal pipelines, but it is not the cheapest option. ' +
        `([pipedrive.com](${u('https://www.pipedrive.com/en/pricing')})) ` +
        'Smaller teams on Reddit often recommend starting with a free plan. ' +
        `([reddit.com](${u('https://www.reddit.com/r/sales/comments/1abc234/best_crm_for_a_small_team/')})) ([hubspot.com](${u('https://www.hubspot.com/products/crm')}))`,
    );
    expect(answer.references).toEqual([
      {
        reference_index: 1,
        link: 'https://www.forbes.com/advisor/business/software/best-crm-small-business/',
        title: 'Best CRM For Small Business Of 2025 – Forbes Advisor',
        snippet: 'The best CRM for a small sales team depends on budget and workflow.',
      },
      {
        reference_index: 2,
        link: 'https://www.hubspot.com/products/crm',
        title: 'Free CRM Software & Tools for Your Whole Team | HubSpot',
        snippet: 'HubSpot offers a free CRM with email tracking and simple pipelines.',
      },
      {
        reference_index: 3,
        link: 'https://www.pipedrive.com/en/pricing',
        title: 'Pricing plans | Pipedrive',
        snippet: 'Pipedrive is built around visual deal pipelines, but it is not the cheapest option.',
      },
      {
        reference_index: 4,
        link: 'https://www.reddit.com/r/sales/comments/1abc234/best_crm_for_a_small_team/',
        title: 'Best CRM for a small team? : r/sales',
        snippet: 'Smaller teams on Reddit often recommend starting with a free plan.',
      },
    ]);
    expect((answer.raw as { id: string }).id).toMatch(/^resp_/);
  });

  it('sends the prompt to POST /v1/responses with Bearer auth, the web_search tool and the country', async () => {
    fake = await startFakeProvider('chatgpt');
    await createOpenAIProvider({ apiKey: FAKE_API_KEY, baseUrl: `${fake.baseUrl}/`, model: 'gpt-4.1', http: fastHttp().http }).ask({ ...ASK, country: 'de' });
    const [req] = fake.apiRequests();
    expect(req.path).toBe('/v1/responses');
    expect(req.headers.authorization).toBe(`Bearer ${FAKE_API_KEY}`);
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.body).toEqual({
      model: 'gpt-4.1',
      input: ASK.prompt,
      tools: [{ type: 'web_search', user_location: { type: 'approximate', country: 'DE' } }],
      store: false,
    });
  });

  it('sends a persona as the instructions, and records it as sent', async () => {
    fake = await startFakeProvider('chatgpt');
    const answer = await createOpenAIProvider({ apiKey: FAKE_API_KEY, baseUrl: `${fake.baseUrl}/`, model: 'gpt-4.1', http: fastHttp().http }).ask({
      ...ASK,
      persona: '  a CFO at a 50-person firm ',
    });
    const [req] = fake.apiRequests();
    expect((req.body as { instructions: string }).instructions).toBe('About the person asking: a CFO at a 50-person firm');
    expect(answer.sent).toEqual({ country: ASK.country?.toUpperCase() ?? null, language: null, persona: '  a CFO at a 50-person firm ' });
  });

  it('uses the configured model when the body names none', async () => {
    fake = await startFakeProvider('chatgpt', { model: '' });
    expect((await make(fake).ask(ASK)).model).toBe('gpt-4.1-mini');
  });

  it('drops only the utm_source=openai OpenAI adds to cited URLs', () => {
    expect(withoutOpenAITracking('https://a.com/x?utm_source=openai')).toBe('https://a.com/x');
    expect(withoutOpenAITracking('https://a.com/x?id=3&utm_source=openai')).toBe('https://a.com/x?id=3');
    expect(withoutOpenAITracking('https://a.com/x?utm_source=news')).toBe('https://a.com/x?utm_source=news');
  });
});

liveAdapterContract('chatgpt', (fake, http, apiKey) => make(fake, http, apiKey), { authStatus: 401 });
