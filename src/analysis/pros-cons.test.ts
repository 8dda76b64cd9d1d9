import { describe, expect, it } from 'vitest';
import { createAnalyzer } from './index.js';

const analyze = createAnalyzer([
  { id: 'own', name: 'Brevio', aliases: [], domain: 'brevio.io', isOwn: true },
  { id: 'z', name: 'Zenlytics', aliases: [], domain: 'zenlytics.com', isOwn: false },
]);
const band = (score: number | undefined) => (score === undefined ? 'absent' : score > 60 ? 'positive' : score < 40 ? 'negative' : 'neutral');
const bands = (text: string) => {
  const b = analyze(text).brands;
  return { own: band(b.own?.sentiment), z: band(b.z?.sentiment) };
};

describe('lists of pros and cons, and hedges', () => {
  it('reads the items of a Cons list as blame of the brand the section is about, Pros as praise', () => {
    const text = [
      '### 1. Brevio',
      'Brevio is a CRM for startups.',
      '**Pros:**',
      '- Free plan',
      '- Quick setup',
      '',
      '### 2. Zenlytics',
      'Zenlytics is a CRM for agencies.',
      '**Cons:**',
      '- Pricing',
      '- Fast, but only on paid plans',
    ].join('\n');
    expect(bands(text)).toEqual({ own: 'positive', z: 'negative' });
  });

  it('reads an inline list after the label too, and stops at a paragraph', () => {
    expect(bands('- **Zenlytics** is a CRM for agencies.\n- **Cons:** pricey add-ons, slow exports\n\nBrevio is a CRM for startups.')).toEqual({ own: 'neutral', z: 'negative' });
  });

  it('gives a list with no brand before it to nobody', () => {
    expect(bands('**Cons:**\n- Pricing\n\nBrevio and Zenlytics are CRMs.')).toEqual({ own: 'neutral', z: 'neutral' });
  });

  it('weighs hedged praise little: "may suit", "could be a good fit" are neutral, plain praise is not', () => {
    expect(bands('Brevio may suit small teams.').own).toBe('neutral');
    expect(bands('Brevio could be a good fit for small teams.').own).toBe('neutral');
    expect(bands('Brevio is a great fit for small teams.').own).toBe('positive');
  });
});
