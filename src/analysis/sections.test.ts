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

describe('sections about one brand', () => {
  it('credits the lines under a heading that names one brand to it, up to the next heading or rule', () => {
    const text = [
      '### 1. **Brevio**',
      '',
      '* **Panel:** excellent color accuracy',
      '* **Ports:** USB-C, HDMI',
      '',
      'Great for long hours of work.',
      '',
      '---',
      '',
      '### 2. **Zenlytics**',
      '',
      '* **Ports:** USB-C, HDMI',
      '',
      '---',
      '',
      '### What to look for',
      '* Excellent, reliable panels',
    ].join('\n');
    expect(bands(text)).toEqual({ own: 'positive', z: 'neutral' });
  });

  it('credits the items nested under a list item naming one brand, not its siblings', () => {
    const text = ['1. **Brevio**', '   * Excellent, reliable sync', '2. **Zenlytics**', '   * Exports to CSV', '* Wonderful weather today'].join('\n');
    expect(bands(text)).toEqual({ own: 'positive', z: 'neutral' });
  });

  it('credits the rest of a paragraph that points back to the brand its first sentence names', () => {
    expect(bands('**Zenlytics**\nThis set is superb and reliable.\n\nBrevio exports to CSV. The weather is wonderful.\n\nA wonderful day.')).toEqual({ own: 'neutral', z: 'positive' });
  });

  it('credits every line of a paragraph opened by the name alone', () => {
    expect(bands('**Zenlytics**\nPraised for its superb, reliable build.\n\nBrevio exports to CSV.').z).toBe('positive');
  });

  it("leaves the answer's closing words and advice to the reader to nobody", () => {
    const text = ['### 1. Brevio', 'Brevio exports to CSV.', '- Pricing: from $10', '', 'Wonderful, reliable weather this week.'].join('\n');
    expect(bands(text).own).toBe('neutral');
    expect(bands('### 1. Brevio\nBrevio exports to CSV.\nCheck that it is great for you.').own).toBe('neutral');
  });

  it('credits a group of names written together with their section, each of them', () => {
    const text = ['- **Brevio / Zenlytics:**', '  - Excellent, reliable sync'].join('\n');
    expect(bands(text)).toEqual({ own: 'positive', z: 'positive' });
    expect(bands('### Brevio beats Zenlytics\n- Excellent, reliable sync').own).toBe(bands('### Brevio beats Zenlytics').own);
  });

  it('ends a paragraph\'s chain at the first sentence that does not point back', () => {
    expect(bands('Brevio exports to CSV. The weather is wonderful. It is excellent.').own).toBe('neutral');
  });

  it('reads no sub-heading inside a section and no fit field', () => {
    expect(bands('### Brevio\n#### Wonderful & Excellent\n*$99*').own).toBe('neutral');
    expect(bands('### Brevio\n- **Ideal for:** teams that want excellent, reliable sync').own).toBe('neutral');
    expect(bands('Brevio is best for: teams that want excellent, reliable sync').own).toBe('neutral');
  });

  it('reads a pros/cons list whose line breaks were collapsed', () => {
    const text = '*   **Zenlytics:**  *   **Price:** Free.  *   **Cons:**  *   **Tied:** Less portable. If you switch, it hurts.  *   **Sync:** Awkward.';
    expect(bands(text).z).toBe('negative');
  });
});
