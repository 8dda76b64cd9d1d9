import fs from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig, type AnalysisModelSettings } from '../../config.js';
import { chatCompletion, FAKE_LLM_KEY, startFakeChat, type FakeChat } from '../../../test/fakes/openai-chat.js';
import { WriterError } from '../writer/chat-client.js';
import { createAnalysisModel, MAX_ANSWER_CHARS, ModelReplyError, SENTIMENT_SCHEMA, type AnalysisModel } from './index.js';

// The analysis model's port against a local fake of the Chat Completions wire format, and the
// recorded bodies of test/fixtures/analysis-model (README there) replayed through it.

const recording = (name: string): any => JSON.parse(fs.readFileSync(new URL(`../../../test/fixtures/analysis-model/${name}`, import.meta.url), 'utf8'));
const RECORDED = ['openai-python-structured-output.json', 'openai-python-refusal.json', 'openai-python-length.json', 'vercel-ai-openai-text.json'].map(recording);

const ANSWER = 'Pipedrive is built around visual deal pipelines. HubSpot is clunky once you grow.';
const BRANDS = [
  { name: 'Pipedrive', aliases: [] },
  { name: 'HubSpot', aliases: ['HubSpot CRM'] },
];
const REPLY = {
  brands: [
    { name: 'Pipedrive', band: 'neutral', evidence: '' },
    { name: 'HubSpot', band: 'negative', evidence: 'HubSpot is clunky once you grow' },
  ],
};

let fake: FakeChat;
let delays: number[];

function settings(extra: Partial<AnalysisModelSettings> = {}): AnalysisModelSettings {
  return { label: 'openai-compatible:gpt-4.1-mini', provider: 'openai-compatible', model: 'gpt-4.1-mini', baseUrl: fake.baseUrl, apiKey: FAKE_LLM_KEY, concurrency: 4, ...extra };
}
function model(extra: Partial<AnalysisModelSettings> = {}, http = {}): AnalysisModel {
  return createAnalysisModel(settings(extra), { sleep: async (ms: number) => void delays.push(ms), ...http });
}

beforeAll(async () => {
  fake = await startFakeChat({ content: () => REPLY });
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.behave({ content: () => REPLY });
  fake.requests.length = 0;
  delays = [];
});

describe('analysis model port (Chat Completions, structured output)', () => {
  it('sends the answer, the brands and the strict json_schema, and returns the parsed judgements', async () => {
    const verdict = await model().judge({ text: ANSWER, brands: BRANDS });
    expect(verdict.judgements).toEqual(REPLY.brands);
    expect(verdict.model).toBe('gpt-4.1-mini');
    expect(verdict.usage).toMatchObject({ prompt_tokens: 812 });
    expect(fake.requests).toHaveLength(1);
    const req = fake.requests[0];
    expect(req.path).toBe('/v1/chat/completions');
    expect(req.headers.authorization).toBe(`Bearer ${FAKE_LLM_KEY}`);
    expect(req.body.model).toBe('gpt-4.1-mini');
    expect(req.body.response_format).toEqual({ type: 'json_schema', json_schema: { name: 'brand_sentiments', strict: true, schema: SENTIMENT_SCHEMA } });
    expect(req.body.messages.map((m: { role: string }) => m.role)).toEqual(['system', 'user']);
    const user = req.body.messages[1].content as string;
    const input = JSON.parse(user.slice(user.indexOf('{'), user.indexOf('\n\nReply with JSON')));
    expect(input).toEqual({ brands: BRANDS, answer: ANSWER });
  });

  it('cuts a long answer before sending it', async () => {
    await model().judge({ text: 'x'.repeat(MAX_ANSWER_CHARS + 500), brands: BRANDS });
    const user = fake.requests[0].body.messages[1].content as string;
    expect(user).toContain(`${'x'.repeat(MAX_ANSWER_CHARS)}\\n[… the rest of the answer was cut]`);
    expect(user).not.toContain('x'.repeat(MAX_ANSWER_CHARS + 1));
  });

  it('asks again with json_object when the server refuses json_schema, and keeps to it', async () => {
    fake.behave({ content: () => REPLY, replies: ['no_json_schema'] });
    const m = model();
    expect((await m.judge({ text: ANSWER, brands: BRANDS })).judgements).toEqual(REPLY.brands);
    await m.judge({ text: ANSWER, brands: BRANDS });
    expect(fake.requests.map((r) => r.body.response_format.type)).toEqual(['json_schema', 'json_object', 'json_object']);
  });

  it('retries 429 and 5xx per the chat client policy, then gives up with a WriterError', async () => {
    fake.behave({ content: () => REPLY, replies: ['rate_limit', 'server_error'] });
    expect((await model().judge({ text: ANSWER, brands: BRANDS })).judgements).toHaveLength(2);
    expect(fake.requests).toHaveLength(3);
    expect(delays[0]).toBeGreaterThanOrEqual(1000); // the 429's Retry-After: 1 s

    fake.requests.length = 0;
    fake.behave({ content: () => REPLY, replies: ['server_error', 'server_error', 'unavailable', 'server_error'] });
    await expect(model().judge({ text: ANSWER, brands: BRANDS })).rejects.toThrow(WriterError);
    expect(fake.requests).toHaveLength(4); // the first attempt and 3 retries
  });

  it('throws ModelReplyError on prose, on a reply out of schema, and never asks again for it', async () => {
    fake.behave({ content: () => REPLY, replies: ['invalid_json'] });
    await expect(model().judge({ text: ANSWER, brands: BRANDS })).rejects.toThrow(/not valid JSON/);
    fake.behave({ content: () => ({ brands: [{ name: 'HubSpot', band: 'great', evidence: '' }] }) });
    await expect(model().judge({ text: ANSWER, brands: BRANDS })).rejects.toThrow(ModelReplyError);
    expect(fake.requests).toHaveLength(2);
  });

  it('keeps to ANALYSIS_CONCURRENCY calls in flight, and a call called off while queued is never sent', async () => {
    let inFlight = 0;
    let most = 0;
    const gates: Array<() => void> = [];
    const fetchGated: typeof fetch = async (...args) => {
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise<void>((resolve) => gates.push(resolve));
      try {
        return await fetch(...args);
      } finally {
        inFlight--;
      }
    };
    const m = model({ concurrency: 2 }, { fetch: fetchGated });
    const stop = new AbortController();
    const calls = [0, 1, 2, 3].map(() => m.judge({ text: ANSWER, brands: BRANDS }));
    const called = m.judge({ text: ANSWER, brands: BRANDS }, stop.signal).then(() => 'sent', (e: Error) => e.message);
    stop.abort();
    while (gates.length < 2) await new Promise((r) => setImmediate(r));
    expect(inFlight).toBe(2);
    // let every gated request through, as the queue hands them on
    while ((await Promise.race([Promise.all(calls).then(() => true), new Promise((r) => setImmediate(() => r(false)))])) === false) {
      for (const open of gates.splice(0)) open();
    }
    expect(await called).toMatch(/call cancelled/);
    expect(most).toBe(2);
    expect(fake.requests).toHaveLength(4);
  });
});

describe('recorded Chat Completions bodies', () => {
  it('the fake sends no field the recordings lack', () => {
    const union = (objs: unknown[]) => new Set(objs.flatMap((o) => Object.keys((o as object) ?? {})));
    const sent = chatCompletion('{"brands":[]}', 'gpt-4.1-mini');
    const levels: Array<[string, unknown, unknown[]]> = [
      ['body', sent, RECORDED],
      ['choice', sent.choices[0], RECORDED.map((r) => r.choices[0])],
      ['message', sent.choices[0].message, RECORDED.map((r) => r.choices[0].message)],
      ['usage', sent.usage, RECORDED.map((r) => r.usage)],
      ['prompt_tokens_details', sent.usage.prompt_tokens_details, RECORDED.map((r) => r.usage.prompt_tokens_details)],
      ['completion_tokens_details', sent.usage.completion_tokens_details, RECORDED.map((r) => r.usage.completion_tokens_details)],
    ];
    for (const [level, fakeObj, recorded] of levels) {
      const known = union(recorded);
      for (const key of Object.keys(fakeObj as object)) expect(known.has(key), `${level}.${key}`).toBe(true);
    }
  });

  it('reads a recorded structured-output reply, a refusal and a cut-off reply as the vendor sent them', async () => {
    const [structured, refusal, cut] = RECORDED;
    // the recording's envelope, with a reply of this port's schema as its content
    const ours = structuredClone(structured);
    ours.choices[0].message.content = JSON.stringify(REPLY);
    fake.behave({ replies: [{ status: 200, body: ours }, { status: 200, body: structured }, { status: 200, body: refusal }, { status: 200, body: cut }] });
    const m = model();
    const verdict = await m.judge({ text: ANSWER, brands: BRANDS });
    expect(verdict).toEqual({ judgements: REPLY.brands, model: 'gpt-4o-2024-08-06', usage: structured.usage });
    // the recorded content itself answers another schema ({city, temperature, units})
    await expect(m.judge({ text: ANSWER, brands: BRANDS })).rejects.toThrow(/does not match the schema/);
    await expect(m.judge({ text: ANSWER, brands: BRANDS })).rejects.toThrow("the model refused: I'm very sorry, but I can't assist with that.");
    await expect(m.judge({ text: ANSWER, brands: BRANDS })).rejects.toThrow(/cut off \(finish_reason length\)/);
  });
});

describe('ANALYSIS_MODEL', () => {
  it('is off unless set, and takes the writer\'s naming and keys', () => {
    expect(loadConfig({}).analysisModel).toBeNull();
    expect(loadConfig({ ANALYSIS_MODEL: 'openai:gpt-4.1-mini', OPENAI_API_KEY: 'sk-a' }).analysisModel).toEqual({
      label: 'openai:gpt-4.1-mini', provider: 'openai', model: 'gpt-4.1-mini', apiKey: 'sk-a', baseUrl: undefined, concurrency: 4,
    });
    // the writer's own endpoint and key when it names the same provider
    expect(
      loadConfig({ ANALYSIS_MODEL: 'ollama:llama3.1:8b', LLM_PROVIDER: 'ollama', LLM_MODEL: 'x', LLM_BASE_URL: 'http://127.0.0.1:11434/v1', ANALYSIS_CONCURRENCY: '2' }).analysisModel,
    ).toMatchObject({ provider: 'ollama', model: 'llama3.1:8b', baseUrl: 'http://127.0.0.1:11434/v1', apiKey: undefined, concurrency: 2 });
    // ANALYSIS_* win over the writer's and OpenAI's
    expect(
      loadConfig({ ANALYSIS_MODEL: 'openai:gpt-4.1-mini', OPENAI_API_KEY: 'sk-a', ANALYSIS_API_KEY: 'sk-b', ANALYSIS_BASE_URL: 'https://gw.example/v1' }).analysisModel,
    ).toMatchObject({ apiKey: 'sk-b', baseUrl: 'https://gw.example/v1' });
  });

  it('refuses a malformed name, a missing key or endpoint, and a bad concurrency, by name', () => {
    for (const bad of ['gpt-4.1-mini', 'openai:', ':gpt', 'open ai:gpt']) {
      expect(() => loadConfig({ ANALYSIS_MODEL: bad, OPENAI_API_KEY: 'k' }), bad).toThrow(/ANALYSIS_MODEL: must be <provider>:<model>/);
    }
    expect(() => loadConfig({ ANALYSIS_MODEL: 'openai:gpt-4.1-mini' })).toThrow(/ANALYSIS_MODEL=openai:gpt-4.1-mini needs ANALYSIS_API_KEY or OPENAI_API_KEY/);
    expect(() => loadConfig({ ANALYSIS_MODEL: 'vllm:qwen' })).toThrow(/needs ANALYSIS_BASE_URL/);
    expect(() => loadConfig({ ANALYSIS_MODEL: 'vllm:qwen', ANALYSIS_BASE_URL: 'not a url' })).toThrow(/ANALYSIS_BASE_URL/);
    expect(() => loadConfig({ ANALYSIS_MODEL: 'vllm:qwen', ANALYSIS_BASE_URL: 'http://127.0.0.1:8000/v1', ANALYSIS_CONCURRENCY: '0' })).toThrow(/ANALYSIS_CONCURRENCY/);
  });
});
