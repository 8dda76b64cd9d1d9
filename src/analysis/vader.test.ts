import vader from 'vader-sentiment';
import { describe, expect, it } from 'vitest';
import { LEXICON_ADDITIONS } from './data/lexicon-additions.js';
import { toScale } from './sentiment.js';
import { vaderCompound, vaderLexicon } from './vader.js';

// Plain sentences on which our port must agree with the vader-sentiment package.
const SENTENCES = [
  'VADER is smart, handsome, and funny.',
  'VADER is not smart, handsome, nor funny.',
  'VADER is very smart, handsome, and funny.',
  'VADER is VERY SMART, handsome, and FUNNY!!!',
  'The book was kind of good.',
  'At least it is not a horrible book.',
  'The plot was good, but the characters are uncompelling and the dialog is not great.',
  'Today SUX!',
  'Make sure you :) or :D today!',
  'The service is never so good',
  'I love it, it is the bomb',
  'It was the least helpful answer',
  'This product is absolutely wonderful and the team is very helpful',
  'Support was slow and the app crashed twice, which was frustrating.',
  'The pricing is fair.',
  'It is not the best option but it works well enough for small teams.',
  'I hate how hard it is to export data.',
  'The onboarding was painless and the reports are great??',
  'Honestly the dashboard is ugly and confusing.',
  'It is a decent tool with a strong community and good documentation.',
  'There is nothing special about it, just an average CRM.',
  'Their support team was rude and unhelpful.',
  'Sort of useful for tiny teams.',
  'The integrations are excellent, the price is not.',
];

describe('vaderCompound', () => {
  it('agrees with the vader-sentiment package on plain sentences (lexicon without our additions)', () => {
    const plain = vaderLexicon(true);
    for (const s of SENTENCES) {
      expect(vaderCompound(s, plain), s).toBeCloseTo(vader.SentimentIntensityAnalyzer.polarity_scores(s).compound, 3);
    }
  });

  it('reads a negation in any case (the package only reads lower-case "not")', () => {
    expect(vaderCompound('Not bad at all')).toBeGreaterThan(0);
    expect(vaderCompound('not bad at all')).toBeCloseTo(vaderCompound('Not bad at all'), 6);
  });

  it('is negation-aware: "not great" is negative, "not bad" mildly positive', () => {
    expect(toScale(vaderCompound('It is not great.'))).toBeLessThan(40);
    const notBad = toScale(vaderCompound('It is not bad.'));
    expect(notBad).toBeGreaterThan(60);
    expect(notBad).toBeLessThan(toScale(vaderCompound('It is good.')) + 10);
  });

  it('knows the product-review words we added', () => {
    for (const [w, v] of Object.entries(LEXICON_ADDITIONS)) expect(Math.sign(vaderCompound(`The tool is ${w}.`)), w).toBe(Math.sign(v));
  });

  it('strips markdown and curly quotes around words', () => {
    expect(vaderCompound('It is **great**.')).toBeCloseTo(vaderCompound('It is great.'), 6);
    expect(vaderCompound('It isn’t good.')).toBeCloseTo(vaderCompound("It isn't good."), 6);
  });

  it('is 0 for text without sentiment words, and stays in [-1, 1]', () => {
    expect(vaderCompound('')).toBe(0);
    expect(vaderCompound('The CRM has a pipeline view.')).toBe(0);
    const c = vaderCompound('great great great great great great great great!!!!');
    expect(c).toBeLessThanOrEqual(1);
    expect(c).toBeGreaterThan(0.9);
  });

  it('reads Japanese praise and blame inside runs without spaces, negation flipping them', () => {
    expect(vaderCompound('UIがわかりやすく、小規模チームにおすすめ')).toBeGreaterThan(0.3);
    expect(vaderCompound('設定が難しく、料金も割高')).toBeLessThan(-0.3);
    expect(vaderCompound('このツールは便利ではない')).toBeLessThan(0);
    expect(vaderCompound('小規模チーム向けのカンバン型ツール')).toBe(0);
  });

  it('reads a word that takes harm away as a negation of the blame after it', () => {
    expect(vaderCompound('great for avoiding server breaches')).toBeGreaterThan(vaderCompound('great for servers'));
    expect(vaderCompound('it minimizes the risk')).toBeGreaterThan(0);
    expect(vaderCompound('it prevents data breaches')).toBeGreaterThan(0);
    expect(vaderCompound('Avoid/review it because of past breaches')).toBeLessThan(-0.3);
  });

  it('reads "less" before praise as blame, before blame as praise', () => {
    expect(vaderCompound('less secure than dedicated managers')).toBeLessThan(0);
    expect(vaderCompound('less expensive than the others')).toBeGreaterThan(0);
  });

  it('reads no emoticon in product answers: a blanked link before a colon is not a frown', () => {
    expect(vaderCompound('Rockland Luggage]( ): A carry-on')).toBe(0);
  });

  it('maps the compound to 0..100 with 50 neutral', () => {
    expect(toScale(-1)).toBe(0);
    expect(toScale(0)).toBe(50);
    expect(toScale(1)).toBe(100);
  });
});
