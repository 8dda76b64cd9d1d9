import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config.js';
import { FAKE_LLM_KEY, startFakeChat, type ChatRequest, type FakeChat } from '../../../test/fakes/openai-chat.js';
import { createBuiltinWriter } from './builtin.js';
import { createWriter, WriterError, writerMeta, type FallbackEvent } from './index.js';
import { llmSettings } from './openai-compatible.js';
import type { ArticleBrief, SuggestEditsInput, Writer } from './types.js';

// The OpenAI-compatible writer against a local fake of the Chat Completions wire format.

const brand = { name: 'Pipewise', domain: 'pipewise.example' };
const PARAGRAPHS = [
  'Most small businesses start tracking customers in a spreadsheet. That works until the third salesperson joins.',
  'Your CRM should connect to your inbox and calendar on day one.',
];
const editsInput: SuggestEditsInput = {
  brand,
  page: { url: 'https://pipewise.example/blog', title: 'How to choose a CRM', paragraphs: PARAGRAPHS },
  prompts: ['What is the best CRM for a small business?'],
  competitors: ['HubSpot'],
};
const brief: ArticleBrief = { brand, title: 'Choosing a CRM', description: 'A guide.', keywords: ['crm'] };

/** What the fake model answers, by the JSON schema the request names. */
function answer(req: ChatRequest): object {
  const name = req.body.response_format?.json_schema?.name ?? 'unknown';
  switch (name) {
    case 'tracking_prompts':
      return { topics: [{ name: 'CRM', description: 'Choosing a CRM.' }], prompts: [1, 2, 3].map((i) => ({ topic: 'CRM', content: `CRM question ${i}?` })) };
    case 'action':
      return { title: 'Refresh the CRM guide', description: 'Answer buyers directly.', targets: [{ type: 'keyword', value: 'crm guide' }], execution_prompt: 'Edit the page.', effort: 'moderate', expected_impact_min: 4, expected_impact_max: 2 };
    case 'recommendation':
      return { title: 'Answer "best CRM" questions', description: 'Engines name HubSpot instead of Pipewise.' };
    case 'page_edits':
      return {
        edits: [
          { section: 'Intro', type: 'replace', before: PARAGRAPHS[0], after: `${PARAGRAPHS[0]} [add a figure from your own data]`, signal: 'add_statistics', reason: 'Figures help.' },
          { section: 'Made up', type: 'replace', before: 'A sentence that is not on the page.', after: 'x', signal: 'fluency', reason: 'r' },
          { section: 'FAQ', type: 'insert', before: null, after: '## FAQ', signal: 'answer_prompt', reason: 'Answer the prompt.' },
        ],
      };
    case 'forum_comment':
      return { comment: 'Check integrations first. Full disclosure: I work at Pipewise.' };
    case 'article_outline':
      return { outline: '# Choosing a CRM\n\n## Why it matters\n- point' };
    case 'article_draft':
      return { draft: '# Choosing a CRM\n\n## Why it matters\n\nBecause.' };
    case 'article_final':
      return { title: 'Choosing a CRM', content: '# Choosing a CRM\n\nFinal text.' };
    default:
      return {};
  }
}

let fake: FakeChat;
let fallbacks: FallbackEvent[];
let delays: number[];

function writer(env: Record<string, string> = {}): Writer {
  return createWriter(loadConfig({ LLM_PROVIDER: 'openai-compatible', LLM_MODEL: 'gpt-4o-mini', LLM_BASE_URL: fake.baseUrl, LLM_API_KEY: FAKE_LLM_KEY, ...env }), {
    http: { sleep: async (ms) => void delays.push(ms), timeoutMs: 5_000 },
    onFallback: (e) => fallbacks.push(e),
  });
}

beforeAll(async () => {
  fake = await startFakeChat({ content: answer });
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.behave({ content: answer });
  fake.requests.length = 0;
  fallbacks = [];
  delays = [];
});

describe('OpenAI-compatible writer', () => {
  it('is named <provider>:<model>, not built-in, and sends a Chat Completions request', async () => {
    const w = writer();
    expect(w.name).toBe('openai-compatible:gpt-4o-mini');
    expect(w.builtIn).toBe(false);
    const out = await w.wordRecommendation({ brand, category: 'new_content', facts: { competitors: ['HubSpot'] } });
    expect(out).toEqual({ title: 'Answer "best CRM" questions', description: 'Engines name HubSpot instead of Pipewise.' });
    expect(writerMeta(out)).toMatchObject({ writer: 'openai-compatible:gpt-4o-mini', fallback: false, usage: { total_tokens: expect.any(Number) } });
    const [req] = fake.requests;
    expect(req.path).toBe('/v1/chat/completions');
    expect(req.headers.authorization).toBe(`Bearer ${FAKE_LLM_KEY}`);
    expect(req.body.model).toBe('gpt-4o-mini');
    expect(req.body.messages.map((m: { role: string }) => m.role)).toEqual(['system', 'user']);
    expect(req.body.messages[1].content).toContain('HubSpot');
    expect(req.body.response_format).toMatchObject({ type: 'json_schema', json_schema: { name: 'recommendation', strict: true, schema: { type: 'object', additionalProperties: false } } });
    expect(JSON.stringify(out)).not.toContain('writer'); // metadata never reaches JSON
  });

  it('implements every method from the model output', async () => {
    const w = writer();
    expect((await w.suggestTopicsAndPrompts({ brandName: 'Pipewise', site: null, count: 3 })).prompts).toHaveLength(3);
    const action = await w.enrichAction({ brand, action_type: 'content_update', target_url: 'https://pipewise.example/blog' });
    expect(action).toMatchObject({ title: 'Refresh the CRM guide', effort: 'moderate', expected_impact_min: 2, expected_impact_max: 4 });
    expect(action.execution).toMatchObject({ type: 'prompt', prompt: 'Edit the page.', params: { target_url: 'https://pipewise.example/blog' } });
    expect(action.targets).toEqual([{ type: 'url', value: 'https://pipewise.example/blog' }, { type: 'keyword', value: 'crm guide' }]);
    // an edit whose `before` is not text of the page is dropped
    const edits = await w.suggestEdits(editsInput);
    expect(edits.map((e) => e.signal)).toEqual(['add_statistics', 'answer_prompt']);
    expect(edits[1].before).toBeNull();
    expect((await w.forumComment({ brand, thread: { url: 'https://forum.example/t/1', title: 'Best CRM?' } })).comment).toContain('disclosure');
    expect(await w.writeOutline(brief)).toContain('## Why it matters');
    expect(await w.writeDraft({ ...brief, outline: '# x' })).toContain('Because.');
    expect(await w.writeFinal({ ...brief, draft: '# x' })).toEqual({ title: 'Choosing a CRM', content: '# Choosing a CRM\n\nFinal text.' });
    expect(fallbacks).toEqual([]);
    expect(fake.requests.map((r) => r.body.response_format.json_schema.name)).toEqual([
      'tracking_prompts', 'action', 'page_edits', 'forum_comment', 'article_outline', 'article_draft', 'article_final',
    ]);
  });

  it('passes reviewer feedback to the model', async () => {
    await writer().writeOutline({ ...brief, feedback: 'Add a pricing section' });
    expect(fake.requests[0].body.messages[1].content).toContain('Add a pricing section');
  });

  it('retries 429 (honouring Retry-After) and 5xx', async () => {
    fake.behave({ content: answer, replies: ['rate_limit', 'server_error', 'ok'], retryAfterSeconds: 2 });
    const out = await writer().writeOutline(brief);
    expect(out).toContain('## Why it matters');
    expect(fake.requests).toHaveLength(3);
    expect(delays[0]).toBeGreaterThanOrEqual(2_000);
    expect(delays).toHaveLength(2);
  });

  it('gives up after the retries with a WriterError naming the status', async () => {
    fake.behave({ content: answer, replies: ['unavailable', 'unavailable', 'unavailable', 'unavailable', 'unavailable'] });
    const err = await writer().writeOutline(brief).catch((e) => e);
    expect(err).toBeInstanceOf(WriterError);
    expect(err.message).toMatch(/503.*after 4 attempts/);
  });

  it('asks again after invalid JSON, then falls back to the built-in writer and says so', async () => {
    fake.behave({ content: answer, replies: ['invalid_json', 'ok'] });
    expect(await writer().writeOutline(brief)).toContain('## Why it matters');
    expect(fake.requests[1].body.messages.at(-1).content).toMatch(/not valid JSON/);
    expect(fallbacks).toEqual([]);

    fake.behave({ content: answer, replies: ['invalid_json', 'invalid_json'] });
    const edits = await writer().suggestEdits(editsInput);
    expect(edits).toEqual(await createBuiltinWriter().suggestEdits(editsInput));
    expect(writerMeta(edits)).toMatchObject({ writer: 'builtin', fallback: true, reason: expect.stringContaining('not valid JSON') });
    expect(fallbacks).toEqual([{ writer: 'openai-compatible:gpt-4o-mini', method: 'suggestEdits', reason: expect.stringContaining('twice') }]);
  });

  it('treats JSON that fails the schema like invalid JSON', async () => {
    fake.behave({ content: () => ({ title: '' }) });
    const out = await writer().wordRecommendation({ brand, category: 'on_page_seo', facts: {} });
    expect(out).toEqual(await createBuiltinWriter().wordRecommendation({ brand, category: 'on_page_seo', facts: {} }));
    expect(fake.requests).toHaveLength(2);
    expect(fallbacks[0].reason).toMatch(/schema/);
  });

  it('fails on an auth error at once, with OpenAI\'s message', async () => {
    const err = await writer({ LLM_API_KEY: 'sk-wrong-key-000' }).writeOutline(brief).catch((e) => e);
    expect(err).toBeInstanceOf(WriterError);
    expect(err.status).toBe(401);
    expect(err.message).toMatch(/Incorrect API key provided.*invalid_request_error/);
    expect(fake.requests).toHaveLength(1);
  });

  it('falls back to json_object when the server refuses json_schema', async () => {
    fake.behave({ content: (req) => (req.body.response_format.type === 'json_object' ? { outline: '# A\n\n## B' } : {}), replies: ['no_json_schema'] });
    const w = writer();
    expect(await w.writeOutline(brief)).toBe('# A\n\n## B');
    expect(await w.writeOutline(brief)).toBe('# A\n\n## B');
    expect(fake.requests.map((r) => r.body.response_format.type)).toEqual(['json_schema', 'json_object', 'json_object']);
  });

  it('talks to a local server without a key', async () => {
    fake.behave({ content: answer, apiKey: null });
    const w = createWriter(loadConfig({ LLM_PROVIDER: 'ollama', LLM_MODEL: 'llama3.1', LLM_BASE_URL: fake.baseUrl }));
    expect(w.name).toBe('ollama:llama3.1');
    expect(await w.writeOutline(brief)).toContain('## Why it matters');
    expect(fake.requests[0].headers.authorization).toBeUndefined();
  });
});

describe('writer settings', () => {
  it('openai defaults to api.openai.com and OPENAI_API_KEY; LLM_* override', () => {
    expect(llmSettings({ LLM_PROVIDER: 'openai', LLM_MODEL: 'gpt-4o-mini', OPENAI_API_KEY: 'sk-a' })).toEqual({
      provider: 'openai', model: 'gpt-4o-mini', apiKey: 'sk-a', baseUrl: 'https://api.openai.com/v1',
    });
    expect(llmSettings({ LLM_PROVIDER: 'openai', LLM_MODEL: 'm', OPENAI_API_KEY: 'sk-a', LLM_API_KEY: 'sk-b', LLM_BASE_URL: 'http://127.0.0.1:1/v1' })).toMatchObject({
      apiKey: 'sk-b', baseUrl: 'http://127.0.0.1:1/v1',
    });
    expect(llmSettings({})).toBeNull();
  });

  it('refuses incomplete settings with a ConfigError', () => {
    expect(() => llmSettings({ LLM_PROVIDER: 'openai' })).toThrow(ConfigError);
    expect(() => llmSettings({ LLM_PROVIDER: 'openai', LLM_MODEL: 'm' })).toThrow(/OPENAI_API_KEY/);
    expect(() => llmSettings({ LLM_PROVIDER: 'vllm', LLM_MODEL: 'm', LLM_API_KEY: 'k' })).toThrow(/LLM_BASE_URL/);
  });
});
