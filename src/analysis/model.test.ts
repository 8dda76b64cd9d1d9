import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FAKE_LLM_KEY, startFakeChat, type ChatRequest, type FakeChat } from '../../test/fakes/openai-chat.js';
import { loadCorpus } from '../../test/fixtures/analysis/corpus.js';
import { createAnalysisModel, type AnalysisModel } from '../ports/analysis-model/index.js';
import { createAnalyzer } from './index.js';
import { BAND_SCORE, bandsOfReply, createModelAnalyzer, evidenceForm, mergeBands } from './model.js';
import type { BrandSpec } from './types.js';

// The model-based analysis: the merge rules, and the whole path through the real port and
// chat client against the local Chat Completions fake (which cannot judge: it answers what
// each test scripts, so these tests prove the plumbing, not the model).

const OWN = '00000000-0000-0000-0000-000000000000';
const HUB = '11111111-1111-1111-1111-111111111111';
const ZOHO = '22222222-2222-2222-2222-222222222222';
const BRANDS: BrandSpec[] = [
  { id: OWN, name: 'Pipedrive', aliases: [], domain: 'pipedrive.com', isOwn: true },
  { id: HUB, name: 'HubSpot', aliases: ['HubSpot CRM'], domain: 'hubspot.com', isOwn: false },
  { id: ZOHO, name: 'Zoho CRM', aliases: [], domain: 'zoho.com', isOwn: false },
];
const TEXT = `For a small sales team, three CRMs come up most often.

1. **Pipedrive**: built around visual deal pipelines; the plans start at $14 per user.
2. **HubSpot CRM**: offers a free plan with email tracking, but the paid tiers get expensive quickly.
3. **Zoho CRM**: a long list of features and integrations.

Bottom line: Pipedrive is the one most teams end up keeping.`;
const LEXICON = createAnalyzer(BRANDS)(TEXT, []);

/** What the scripted model says: Pipedrive praised, HubSpot blamed, Zoho praised on words the answer does not have. */
const VERDICT = [
  { name: 'pipedrive', band: 'positive', evidence: 'Bottom line: **Pipedrive** is the one most teams end up keeping' },
  { name: 'HubSpot CRM', band: 'negative', evidence: 'the paid tiers get expensive quickly' },
  { name: 'Zoho CRM', band: 'positive', evidence: 'Zoho is the best value' },
  { name: 'Salesforce', band: 'negative', evidence: 'three CRMs' },
];
const asked = (req: ChatRequest): string[] => {
  const user = req.body.messages[1].content as string;
  return JSON.parse(user.slice(user.indexOf('{'), user.indexOf('\n\nReply with JSON'))).brands.map((b: { name: string }) => b.name);
};

let fake: FakeChat;
let model: AnalysisModel;
beforeAll(async () => {
  fake = await startFakeChat({ content: () => ({ brands: VERDICT }) });
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.behave({ content: (req) => ({ brands: VERDICT.filter((v) => asked(req).some((n) => n.toLowerCase() === v.name.toLowerCase() || (n === 'HubSpot' && v.name === 'HubSpot CRM'))) }) });
  fake.requests.length = 0;
  model = createAnalysisModel(
    { label: 'openai-compatible:gpt-4.1-mini', provider: 'openai-compatible', model: 'gpt-4.1-mini', baseUrl: fake.baseUrl, apiKey: FAKE_LLM_KEY, concurrency: 4 },
    { sleep: async () => {} },
  );
});

describe('merging the model\'s bands', () => {
  it('keeps the lexicon score inside the model\'s band, takes the band\'s score outside it, and nothing else', () => {
    expect([LEXICON.brands[OWN].sentiment, LEXICON.brands[HUB].sentiment, LEXICON.brands[ZOHO].sentiment]).toEqual([50, 29, 50]);
    const merged = mergeBands(LEXICON, { [OWN]: 'positive', [HUB]: 'negative', [ZOHO]: 'negative' }, OWN);
    expect(merged.brands[OWN]).toEqual({ ...LEXICON.brands[OWN], sentiment: BAND_SCORE.positive });
    expect(merged.brands[HUB]).toEqual(LEXICON.brands[HUB]); // 29 is already negative
    expect(merged.brands[ZOHO].sentiment).toBe(BAND_SCORE.negative);
    expect(merged.sentiment).toBe(75);
    const { brands: _a, sentiment: _b, ...rest } = merged;
    const { brands: _c, sentiment: _d, ...lexRest } = LEXICON;
    expect(rest).toEqual(lexRest); // mentions, citations, themes: the lexicon's
    expect(mergeBands(LEXICON, {}, OWN)).toEqual(LEXICON);
  });

  it('takes a polar band only on evidence found in the answer, a neutral one always; names and aliases in any case', () => {
    const bands = bandsOfReply(
      [...VERDICT, { name: 'HubSpot', band: 'positive', evidence: 'offers a free plan' }, { name: 'Pipedrive', band: 'negative', evidence: 'x' }] as never,
      BRANDS,
      TEXT,
    );
    // Zoho's evidence is not text of the answer; Salesforce was not asked about; repeats after the first are dropped
    expect(bands).toEqual({ [OWN]: 'positive', [HUB]: 'negative' });
    expect(bandsOfReply([{ name: 'Zoho CRM', band: 'neutral', evidence: 'made up' }], BRANDS, TEXT)).toEqual({ [ZOHO]: 'neutral' });
    expect(bandsOfReply([{ name: 'HubSpot', band: 'negative', evidence: 'ex' }], BRANDS, TEXT)).toEqual({}); // under 3 characters
    expect(evidenceForm('It’s **“great”** —  really\n')).toBe('it\'s "great" - really');
  });
});

describe('model analyzer through the port and the Chat Completions fake', () => {
  it('asks about the brands the lexicon found and merges the founded bands, recording who judged', async () => {
    const { analysis, judgement } = await createModelAnalyzer(BRANDS, model)(TEXT, []);
    expect(fake.requests).toHaveLength(1);
    expect(asked(fake.requests[0])).toEqual(['Pipedrive', 'HubSpot', 'Zoho CRM']);
    expect(judgement).toEqual({ by: 'openai-compatible:gpt-4.1-mini', bands: { [OWN]: 'positive', [HUB]: 'negative' }, tokens: { input: 812, output: expect.any(Number) } });
    expect(analysis.brands[OWN].sentiment).toBe(75);
    expect(analysis.sentiment).toBe(75);
    expect(analysis.brands[HUB].sentiment).toBe(29);
    expect(analysis.brands[ZOHO].sentiment).toBe(50);
    expect(analysis.citations).toEqual(LEXICON.citations);
  });

  it('asks nothing about an answer naming no tracked brand', async () => {
    const { analysis, judgement } = await createModelAnalyzer(BRANDS, model)('Spreadsheets work for a while.', []);
    expect(judgement).toBeNull();
    expect(analysis.brands).toEqual({});
    expect(fake.requests).toHaveLength(0);
  });

  it('falls back to the lexicon on prose, on a failed call after the retries, and on a refusal', async () => {
    const analyse = createModelAnalyzer(BRANDS, model, { maxFailuresInARow: 10 });
    for (const replies of [['invalid_json'], ['server_error', 'server_error', 'server_error', 'unavailable'], [{ status: 200, body: { choices: [{ index: 0, message: { role: 'assistant', content: null, refusal: 'No.' }, finish_reason: 'stop' }] } }]] as const) {
      fake.behave({ content: () => ({ brands: VERDICT }), replies: [...replies] });
      expect(await analyse(TEXT, [])).toEqual({ analysis: LEXICON, judgement: null });
    }
    expect(fake.requests).toHaveLength(1 + 4 + 1);
  });

  it('stops asking after failures in a row: the rest of the run is the lexicon\'s', async () => {
    const reasons: string[] = [];
    fake.behave({ content: () => ({ brands: VERDICT }), replies: Array(6).fill('invalid_json') });
    const analyse = createModelAnalyzer(BRANDS, model, { maxFailuresInARow: 2, onFailure: (r) => reasons.push(r) });
    for (let i = 0; i < 4; i++) expect((await analyse(TEXT, [])).judgement).toBeNull();
    expect(fake.requests).toHaveLength(2);
    expect(reasons).toEqual([
      'openai-compatible:gpt-4.1-mini: the reply is not valid JSON',
      'openai-compatible:gpt-4.1-mini: the reply is not valid JSON',
      'openai-compatible:gpt-4.1-mini: 2 failed calls in a row; the rest of this run is read by the lexicon alone',
    ]);
  });

  it('reuses a stored judgement, asks only about brands it lacks, and never asks about an answer the lexicon alone read', async () => {
    const stored = { by: 'openai:gpt-4o', bands: { [OWN]: 'positive' as const, [HUB]: 'negative' as const }, tokens: { input: 10, output: 2 } };
    const analyse = createModelAnalyzer(BRANDS, model);
    const again = await analyse(TEXT, [], { ...stored, bands: { ...stored.bands, [ZOHO]: 'neutral' } });
    expect(fake.requests).toHaveLength(0);
    expect(again.analysis.brands[OWN].sentiment).toBe(75);

    const grown = await analyse(TEXT, [], stored);
    expect(fake.requests.map(asked)).toEqual([['Zoho CRM']]);
    // the model gave Zoho a band on words the answer lacks: nothing added, the stored bands stand
    expect(grown.judgement).toEqual({ ...stored, by: 'openai-compatible:gpt-4.1-mini', tokens: { input: 822, output: expect.any(Number) } });

    expect(await analyse(TEXT, [], null)).toEqual({ analysis: LEXICON, judgement: null });
    expect(fake.requests).toHaveLength(1);
    // without a model, stored bands are still merged
    expect((await createModelAnalyzer(BRANDS, null)(TEXT, [], stored)).analysis.sentiment).toBe(75);
  });

  it('without a model gives exactly the lexicon\'s analysis of every answer of the team corpus', async () => {
    const corpus = loadCorpus().slice(0, 40);
    for (const a of corpus) {
      const text = a.answer.segments.map((s) => s.text).join('\n\n');
      const refs = a.answer.sources.map((s, i) => ({ title: s.title, link: s.url, snippet: s.snippet, reference_index: i + 1 }));
      const got = await createModelAnalyzer(a.brands, null)(text, refs);
      expect(got).toEqual({ analysis: createAnalyzer(a.brands)(text, refs), judgement: null });
    }
  });
});
