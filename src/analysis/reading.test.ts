import { describe, expect, it } from 'vitest';
import { compileBrands } from './brands.js';
import { parseDoc } from './doc.js';
import { CRM_BRANDS } from './fixtures/brands.js';
import { findMentions } from './mentions.js';
import { sentenceCompound } from './reading.js';
import { brandSentiments } from './sentiment.js';
import { vaderCompound } from './vader.js';

// The reading rules written from the `tune` parts of the held-out corpus (README.md,
// "Sentiment", marked ‡): what says nothing of a product is not read.

const cb = compileBrands(CRM_BRANDS);
const band = (v: number) => (v < 40 ? 'negative' : v > 60 ? 'positive' : 'neutral');
function bands(text: string): Record<string, string> {
  const doc = parseDoc(text);
  const s = brandSentiments(doc, findMentions(doc, cb), cb.brands.length);
  return Object.fromEntries(s.map((v, b) => [cb.brands[b].id, band(v)] as const).filter((_, b) => !Number.isNaN(s[b])));
}

describe('what a sentence says of a product', () => {
  it('reads no label, only what follows it', () => {
    expect(vaderCompound('Best Value: Offers a balance between price and features.')).toBeGreaterThan(0.3);
    expect(sentenceCompound('Best Value: Offers a balance between price and features.')).toBeLessThan(0.2);
    expect(sentenceCompound("Why it's great: Lightweight, non-comedogenic, and contains niacinamide.")).toBeLessThan(0.2);
    expect(sentenceCompound("Why it's great: It is incredibly efficient and has excellent build quality.")).toBeGreaterThan(0.5);
    // a clause with a verb before its colon is a sentence
    expect(sentenceCompound('The app has a great interface: it syncs everything.')).toBeGreaterThan(0.3);
  });

  it('reads no spec field, no fit field and no fit phrase past its mild "ideal"', () => {
    expect(sentenceCompound('Features: 9 speeds, 10 attachments, and heat therapy for deep tissue relief.')).toBe(0);
    expect(sentenceCompound('| Best for Gmail teams | | Built to work natively inside Gmail. |')).toBe(0);
    const fit = sentenceCompound('This mattress offers a medium-firm feel, making it ideal for side sleepers seeking comfort and affordability.');
    expect(fit).toBeGreaterThan(0);
    expect(toBand(fit)).toBe('neutral');
    // not any phrase before a colon: the praise after it is read
    expect(sentenceCompound('Here are the top monitors recommended for office work in 2025: A strong contender, offering a good balance.')).toBeGreaterThan(0.3);
  });

  it('reads no shopping card, quoted term or reader\'s condition', () => {
    expect(sentenceCompound('Wyze Cam v4 2.5K WiFi Smart Home Security Camera$29.88$35.984.1(2k+)')).toBe(0);
    expect(sentenceCompound('A size-inclusive brand with a "Fit Liberty" policy for size exchanges.')).toBe(0);
    expect(sentenceCompound("You can also self-host it if you're comfortable and want to cut hosting costs.")).toBe(0);
    expect(sentenceCompound('A moisturizer with salicylic acid to fight breakouts.')).toBe(0);
  });

  it('reads no source chip of the ChatGPT web app: the source\'s name is no praise', () => {
    expect(vaderCompound('Price: Approximately $700.([RTINGS.com][1], [Good Housekeeping][2])')).toBeGreaterThan(0.3);
    expect(sentenceCompound('Price: Approximately $700.([RTINGS.com][1], [Good Housekeeping][2])')).toBe(0);
    // a link with its target kept is read as before
    expect(sentenceCompound('A great pick for most homes.([Wirecutter][3])')).toBeGreaterThan(0.5);
  });

  it('takes no hyphen inside a word for a list marker before a label', () => {
    // "-rated and recommended dehumidifiers for these spaces:" is no label
    expect(sentenceCompound('Here are some highly-rated and recommended dehumidifiers for these spaces: the first is quiet.')).toBeGreaterThan(0.3);
    expect(sentenceCompound('- Best Value: Offers a balance between price and features.')).toBeLessThan(0.2);
  });

  it('reads the terms of a product description in their product sense', () => {
    for (const t of ['Active noise cancellation and a Super AMOLED display.', 'Smart features, Dolby Vision and a 6.8 Qt basket.', '15-bar steam pressure and motion isolation.']) {
      expect(sentenceCompound(t), t).toBe(0);
    }
    expect(sentenceCompound('It offers exceptional suction and a well-built frame.')).toBeGreaterThan(0.5);
    expect(sentenceCompound('Built to withstand harsh conditions.')).toBeGreaterThan(0.2);
  });

  it('weighs a hedge down, as before', () => {
    expect(Math.abs(sentenceCompound('It may suit small teams well.'))).toBeLessThan(0.2);
  });
});

describe('what a section says of its brand', () => {
  it('reads a list of pros and cons as one verdict, its items summed', () => {
    const text = '### Pipedrive\n**Pros:**\n- Incredible pipeline view.\n- Fast setup.\n- Great mobile app.\n- Clean interface.\n**Cons:**\n- Expensive.\n- Limited reports.';
    expect(bands(text).pipedrive).toBe('positive');
    const blame = '### Pipedrive\n**Pros:**\n- Free.\n**Cons:**\n- Limited features.\n- Tied to one browser.\n- Less secure.\n- Few integrations.';
    expect(bands(blame).pipedrive).toBe('negative');
  });

  it('gives a comparison\'s object nothing of the words before it', () => {
    expect(bands('### Zoho CRM\nInterface can feel less intuitive than HubSpot or Pipedrive.')).toEqual({ zoho: 'neutral', hubspot: 'neutral', pipedrive: 'neutral' });
  });

  it('lets a line of the name alone own the list under it', () => {
    expect(bands('**Pipedrive**\n- Excellent pipeline view and a delightful mobile app\n- Loved by sales teams').pipedrive).toBe('positive');
  });
});

function toBand(compound: number): string {
  return band(50 + 50 * compound);
}
