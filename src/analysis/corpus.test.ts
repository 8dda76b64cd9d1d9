import { beforeAll, describe, expect, it } from 'vitest';
import { loadCorpus, type CorpusAnswer } from '../../test/fixtures/analysis/corpus.js';
import { fetchThroughOpenAI } from '../../test/fixtures/analysis/run.js';
import { GOALS, analyzeCorpus, missedGoals, scoreCorpus, type CorpusScore } from '../../test/fixtures/analysis/score.js';

// The labelled corpus (test/fixtures/analysis, README there), asked through the real OpenAI
// adapter against the local Responses-API fake, analysed and scored: a regression below the
// issue's goals fails here. The figures themselves are in bench/README.md.

describe('labelled corpus of ChatGPT-style answers', () => {
  let corpus: CorpusAnswer[];
  let score: CorpusScore;
  beforeAll(async () => {
    corpus = loadCorpus();
    score = scoreCorpus(corpus, analyzeCorpus(corpus, await fetchThroughOpenAI(corpus)));
  });

  it('has at least 150 answers over several markets, with the hard cases of the issue', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(150);
    expect(new Set(corpus.map((a) => a.market)).size).toBeGreaterThanOrEqual(10);
    const cases = new Set(corpus.flatMap((a) => a.cases));
    for (const c of ['cited-only', 'url-only', 'bare-url', 'descriptive', 'balanced', 'negated-praise', 'comparison', 'two-brand', 'common-word', 'written-form', 'alias']) {
      expect(cases.has(c), c).toBe(true);
    }
  });

  it('meets the goals: own-brand F1, competitor F1, own position, sentiment band, citation F1', () => {
    expect(missedGoals(score), score.errors.slice(0, 20).join('\n')).toEqual([]);
    expect(score.ownMention.f1).toBeGreaterThanOrEqual(GOALS.ownMention);
    expect(score.citations.tp).toBeGreaterThan(400);
  });

  it('never counts a brand named only in a citation chip or a URL', () => {
    const wrong = score.errors.filter((e) => e.endsWith('found but not named'));
    const chipOnly = corpus.filter((a) => a.cases.includes('cited-only') || a.cases.includes('url-only')).map((a) => a.id);
    expect(wrong.filter((e) => chipOnly.some((id) => e.startsWith(`${id}:`)))).toEqual([]);
  });
});

describe('scoreCorpus', () => {
  it('counts a false mention, a missed citation and a wrong band', () => {
    const a = loadCorpus()[0];
    const own = a.brands[0].id;
    const s = scoreCorpus([a], [{ mentioned: false, position: null, sentiment: null, brands: {}, citations: [], citesOwn: false, otherBrands: [] }]);
    const named = Object.keys(a.expected.brands).length;
    expect(s.competitorMention.fn + s.ownMention.fn).toBe(named);
    expect(s.citations.fn).toBe(a.expected.citations.length);
    expect(s.sentiment.ok).toBe(0);
    expect(own).toBeTruthy();
  });
});
