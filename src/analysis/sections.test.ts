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

describe('a line of the name alone, and marked pros and cons', () => {
  it('reads a name standing alone as its block as the title of the blocks under it, up to a rule or a heading', () => {
    const text = [
      '### Best Overall:',
      '',
      '**Brevio**',
      '',
      '* Excellent pipeline view and a delightful mobile app',
      '* Loved by sales teams',
      '',
      '---',
      '',
      '### Also consider:',
      '',
      '**Zenlytics**',
      '',
      '* Clunky, dated interface and slow exports',
      '',
      '---',
      '',
      'Prices change often: check them before you buy.',
    ].join('\n');
    expect(bands(text)).toEqual({ own: 'positive', z: 'negative' });
  });

  it('reads lines marked with a check as pros and with a cross as cons of the section\'s brand', () => {
    const text = [
      '**Brevio**',
      '',
      '* ✅ Print, scan, copy',
      '* ✅ Wireless',
      '* ❌ One tray',
      '',
      '---',
      '',
      '**Zenlytics**',
      '',
      '* ❌ No fax',
      '* ❗ Ink costs add up',
      '* ✅ Compact',
      '',
      '---',
    ].join('\n');
    expect(bands(text)).toEqual({ own: 'positive', z: 'negative' });
  });
});

describe('labels, headings and examples', () => {
  it('ends a list written on its label\'s line with that line: the next field is no con', () => {
    const text = ['#### 1. **Brevio**', '', '* **Pros:** Excellent pipeline view, delightful mobile app', '* **Cons:** Pricey add-ons', '* **Weight:** 6.5 oz', '* **Price:** $$$'].join('\n');
    expect(bands(text).own).toBe('positive');
  });

  it('reads no heading: a pick\'s label in it is no praise', () => {
    expect(bands('#### 1. **Brevio** – Best All-Rounder\n\n* Price: $20 a month').own).toBe('neutral');
    expect(bands('#### 1. **Brevio** – Best All-Rounder\n\n* An excellent, delightful CRM').own).toBe('positive');
  });

  it('gives examples in brackets the words before them, not the clause after', () => {
    expect(bands('Unlike browser-based tools (like Zenlytics), Brevio works seamlessly and reliably everywhere.')).toEqual({ own: 'positive', z: 'neutral' });
  });

  it('reads blame words VADER lacks', () => {
    expect(bands('Zenlytics is almost unusable outside its own apps.').z).toBe('negative');
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
