import { describe, expect, it } from 'vitest';
import { createAnalyzer } from './index.js';
import { excerptOf, themeBits } from './themes.js';
import { THEMES } from './types.js';

const analyze = createAnalyzer([
  { id: 'own', name: 'Brevio', aliases: [], domain: 'brevio.io', isOwn: true },
  { id: 'z', name: 'Zenlytics', aliases: [], domain: 'zenlytics.com', isOwn: false },
]);
const themesOf = (text: string) => Object.fromEntries((analyze(text).themes ?? []).map((t) => [`${t.brandId}:${t.theme}`, t.band]));

describe('themes of each brand', () => {
  it('finds a theme by its words and phrases, words only', () => {
    const bit = (t: string) => 1 << THEMES.indexOf(t as (typeof THEMES)[number]);
    expect(themeBits('a steep learning curve')).toBe(bit('ease_of_use'));
    expect(themeBits('$12 per user and SOC 2')).toBe(bit('price') | bit('security'));
    expect(themeBits('unpriced costumes')).toBe(0);
  });

  it('gives each side of a comparison its own theme and band', () => {
    expect(themesOf('Brevio is cheaper than Zenlytics, but its reporting is limited.')).toEqual({ 'own:price': 'positive', 'own:features': 'negative' });
  });

  it('reads a plain description as neutral and blame as negative', () => {
    expect(themesOf('Brevio offers pipelines and reporting. Zenlytics support is slow and hard to reach.')).toMatchObject({
      'own:features': 'neutral',
      'z:support': 'negative',
    });
  });

  it('counts a brand and theme once per answer and says nothing of brands not named', () => {
    const t = analyze('Brevio pricing is fair. Brevio has affordable plans. Acme is expensive.').themes ?? [];
    expect(t.filter((x) => x.theme === 'price')).toHaveLength(1);
    expect(t.every((x) => x.brandId === 'own')).toBe(true);
  });

  it('keeps the excerpt short and without markdown', () => {
    expect(excerptOf('- **Brevio**: [cheap](https://x.y) and `fast`')).toBe('Brevio : cheap and fast');
    expect(excerptOf('word '.repeat(80)).length).toBeLessThanOrEqual(200);
  });
});
