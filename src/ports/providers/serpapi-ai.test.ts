import { afterEach, describe, expect, it } from 'vitest';
import { ASK, FAKE_API_KEY, fastHttp, liveAdapterContract } from '../../../test/fakes/contract.js';
import { DEFAULT_SOURCES, startFakeProvider, type FakeProvider } from '../../../test/fakes/index.js';
import { createAiModeProvider, createCopilotProvider, parseSerpAi } from './serpapi-ai.js';

const aiMode = (fake: FakeProvider, http = fastHttp().http, apiKey = FAKE_API_KEY) => createAiModeProvider({ apiKey, baseUrl: fake.baseUrl, http });
const copilot = (fake: FakeProvider, http = fastHttp().http, apiKey = FAKE_API_KEY) => createCopilotProvider({ apiKey, baseUrl: fake.baseUrl, http });

describe('google_ai_mode and copilot adapters (SerpApi google_ai_mode, bing_copilot)', () => {
  let fake: FakeProvider;
  afterEach(() => fake?.close());

  it('google_ai_mode: markdown of the blocks, references by first use, gl/hl sent', async () => {
    fake = await startFakeProvider('google_ai_mode');
    const answer = await aiMode(fake).ask({ ...ASK, country: 'GB', language: 'EN' });
    expect(answer).toMatchObject({ provider: 'google_ai_mode', model: 'google-ai-mode', simulated: false });
    expect(answer.text).toBe(
      'The best CRM for a small sales team depends on budget and workflow.\n\n### Popular options\n\n' +
        '- HubSpot offers a free CRM with email tracking and simple pipelines.\n' +
        '- Pipedrive is built around visual deal pipelines, but it is not the cheapest option.\n' +
        '- Smaller teams on Reddit often recommend starting with a free plan.',
    );
    expect(answer.references.map((r) => r.link)).toEqual([0, 1, 2, 3, 4].map((i) => DEFAULT_SOURCES[i].url));
    const [req] = fake.apiRequests();
    expect(req.query).toMatchObject({ engine: 'google_ai_mode', q: ASK.prompt, gl: 'gb', hl: 'en', api_key: FAKE_API_KEY });
  });

  it('copilot: the header as a title, no market parameters (the engine takes none)', async () => {
    fake = await startFakeProvider('copilot');
    const answer = await copilot(fake).ask(ASK);
    expect(answer).toMatchObject({ provider: 'copilot', model: 'bing-copilot' });
    expect(answer.text.startsWith('## Best CRM for a small sales team\n\nThe best CRM')).toBe(true);
    expect(answer.references).toHaveLength(5);
    const [req] = fake.apiRequests();
    expect(req.query.engine).toBe('bing_copilot');
    expect(req.query.gl).toBeUndefined();
    expect(req.query.hl).toBeUndefined();
  });

  it("renders Copilot's code blocks, levelled headings and tables with headers", () => {
    const answer = parseSerpAi('copilot', {
      text_blocks: [
        { type: 'heading', level: 2, snippet: 'Sorting' },
        { type: 'code_block', language: 'python', code: 'print(1)' },
        { type: 'table', headers: ['Country', 'GDP'], table: [['US', '29'], ['CN', '18']] },
      ],
      references: [],
    });
    expect(answer.text).toBe('## Sorting\n\n```python\nprint(1)\n```\n\n| Country | GDP |\n| --- | --- |\n| US | 29 |\n| CN | 18 |');
  });
});

liveAdapterContract('google_ai_mode', (fake, http, apiKey) => aiMode(fake, http, apiKey), { authStatus: 401 });
liveAdapterContract('copilot', (fake, http, apiKey) => copilot(fake, http, apiKey), { authStatus: 401 });
