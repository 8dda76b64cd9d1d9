/**
 * Product-review words missing from the VADER lexicon, on its scale (-4 to +4; "good" is
 * 1.9, "bad" -2.5). AI answers about software praise and blame with these ("clunky",
 * "overpriced", "intuitive") far more than with the social-media words VADER was built on.
 * Values follow the nearest VADER entries ("sluggish" -1.7, "robust" 1.4). Lower-case.
 */
export const LEXICON_ADDITIONS: Readonly<Record<string, number>> = {
  // blame
  expensive: -1.2, overpriced: -1.9, pricey: -1.0, pricier: -0.8, clunky: -1.5, buggy: -1.8, bugs: -1.2,
  glitchy: -1.6, slow: -1.0, laggy: -1.4, bloated: -1.3, outdated: -1.2, complicated: -1.1, cumbersome: -1.4,
  unreliable: -1.8, unintuitive: -1.4, inflexible: -1.2, restrictive: -1.0, inconsistent: -1.0, mediocre: -1.3,
  subpar: -1.5, underwhelming: -1.5, lacking: -1.0, lacks: -1.0, overkill: -0.8, downtime: -1.0, outage: -1.3,
  outages: -1.3, crashes: -1.5, hassle: -1.2, headache: -1.4, overwhelming: -0.9, steep: -0.7, convoluted: -1.3,
  tedious: -1.4, finicky: -1.2, janky: -1.6, overcomplicated: -1.4, 'hard-to-use': -1.6, issues: -0.9,
  breach: -1.5, breaches: -1.5, breached: -1.6, incident: -0.9, incidents: -0.9, wary: -1.0, skimp: -1.0,
  skimps: -1.0, compromise: -0.8, flimsy: -1.5, cautiously: -0.4, concern: -0.9, concerns: -0.9, eroded: -1.4,
  drawback: -1.0, caveat: -0.6, caveats: -0.6, reconsider: -0.8, costlier: -0.8,
  // praise
  intuitive: 1.6, affordable: 0.7, inexpensive: 1.0, cheap: 0.5, reliable: 1.6, seamless: 1.6, seamlessly: 1.4,
  'user-friendly': 1.8, 'easy-to-use': 1.8, versatile: 1.4, scalable: 1.2, customizable: 1.0, customisable: 1.0,
  streamlined: 1.2, polished: 1.4, standout: 1.6, 'top-notch': 2.4, 'top-rated': 2.0, 'best-in-class': 2.6,
  'feature-rich': 0.7, 'well-designed': 1.8, leader: 1.2, decent: 0.9, fast: 0.8, smooth: 0.7, powerful: 1.8,
  'cost-effective': 1.5, straightforward: 1.0, excels: 1.8, shines: 1.6, favourite: 2.0,
  sturdy: 1.3, durable: 1.3, durability: 0.9, renowned: 1.5, 'budget-friendly': 0.7, 'ultra-affordable': 1.5,
  unbeatable: 2.0, 'high-quality': 1.6, 'well-rounded': 1.4, stylish: 1.3, trendy: 0.8, 'runner-up': 1.0,
  'easy-to-operate': 1.5, 'easy-to-clean': 1.5, 'easy-to-install': 1.5, 'easy-to-navigate': 1.5,
  'dermatologist-recommended': 1.2, 'beginner-friendly': 1.2, 'consumer-friendly': 1.2, simple: 0.8,
  // comparisons: praise in "cheaper than", "beats most rivals"; blame in "slower", "cluttered"
  cheaper: 0.8, faster: 0.8, easier: 1.0, simpler: 1.0, beats: 1.2, outperforms: 1.5, slower: -0.8, cluttered: -1.3, basic: -0.5,
  dated: -1.2, competitive: 1.3,
  // reviewers' verdicts VADER lacks ("exceptional suction", "a stellar pick"), valued as their
  // nearest VADER entries (remarkable 2.6, reliable 1.6)
  exceptional: 2.6, stellar: 2.6, 'top-tier': 2.2, unrivaled: 2.6, unrivalled: 2.6, 'well-built': 1.8,
  'well-made': 1.8, 'well-regarded': 1.8, 'highly-rated': 1.8, 'highly-regarded': 1.8, acclaimed: 1.8, dependable: 1.6,
  lackluster: -1.5, lacklustre: -1.5, unusable: -2.0, clumsy: -1.3, unresponsive: -1.4, flaky: -1.4, fragile: -1.0,
  inaccurate: -1.3, poorly: -1.4, bulky: -0.8, cramped: -1.0, 'cheap-feeling': -1.4,
};

/**
 * VADER words that describe a product rather than praise it ("a free plan", "popular with
 * agencies", "customer support", "tools like X", "the top plan", "an easy CSV import", "treat it
 * with care", "multiple attachments", "a rewards card", "massage gun", "a performance cut",
 * "a balance of comfort and support", a "Yes" cell of a spec table) or say whom it fits ("ideal
 * for mid-sized homes"):
 * their valence in product answers. 0 removes the word; "no" is then only a negation
 * ("no hidden fees"), not blame.
 */
export const LEXICON_OVERRIDES: Readonly<Record<string, number>> = {
  free: 0, popular: 0, support: 0, supports: 0, supported: 0, help: 0, helps: 0, like: 0, top: 0, no: 0, easy: 0.6,
  shared: 0, charges: 0, benefits: 0, treat: 0, carefully: 0, benefit: 0, reward: 0, rewards: 0, attachments: 0,
  boost: 0, energy: 0, gun: 0, cut: 0, effectively: 0.6, comfort: 0, ideal: 0.6, security: 0, low: 0, lower: 0,
  // what a product is for ("ice crushing", "pressure relief", "a secure fit"; "to fight breakouts" in PHRASE_VALENCES)
  crushing: 0, relief: 0.8, secure: 0.7, cuts: 0, lowest: 0, worn: 0, fit: 0, advanced: 0.5, safe: 1.0,
  yes: 0,
  // terms of product descriptions that VADER reads in another sense: Active Noise Cancellation,
  // smart features, steam pressure, quarts (qt), Super AMOLED, Dolby Vision, Original Films,
  // Marvel, a warm sound or jacket, noise or motion isolation, a dirt bin
  active: 0, smart: 0, pressure: 0, qt: 0, super: 0, vision: 0, original: 0, marvel: 0, warm: 0, isolation: 0, dirt: 0,
};

/**
 * Phrases with a valence of their own, read as one sentiment word at their first word (so
 * a negation before them flips them: "isn't hard to learn", "won't let you down").
 */
export const PHRASE_VALENCES: Readonly<Record<string, number>> = {
  'hard to learn': -1.5, 'hard to use': -1.6, 'hard to set up': -1.4, 'hard to configure': -1.4, 'let you down': -1.6,
  'let down': -1.4, 'hidden fees': -1.2, 'hidden costs': -1.2, 'for the money': 0.9, 'twice as much': -1.0,
  'hard to beat': 1.8, 'falls short': -1.4, 'fall short': -1.4, 'stands out': 1.2, 'gets in the way': -1.2,
  'easy to use': 1.8, 'easy to customize': 1.5, 'easy to customise': 1.5, 'easy to set up': 1.5, 'easy to learn': 1.5,
  'hit and miss': -1.2, 'hit or miss': -1.2, 'runs narrow': -1.0, 'runs small': -1.0, 'raising prices': -1.0,
  'raises prices': -1.0, 'price increases': -1.0, 'hard to reach': -1.2,
  'damaged trust': -1.8, 'eroded trust': -1.8, 'reduced trust': -1.5, 'lost trust': -1.8, 'hurt trust': -1.5,
  'steep learning curve': -1.4, 'learning curve': -0.8, 'worth the price': 1.6, 'worth it': 1.4, 'value for money': 1.4,
  'costs more': -1.0, 'cost more': -1.0, 'trust took a hit': -1.8, 'took a hit': -1.5, 'to fight': 0, 'to combat': 0, 'taken a hit': -1.5, 'takes a hit': -1.4, 'step up': 1.2, 'lower price': 0.9, 'lower cost': 0.9,
  'pressure relief': 0,
};

/**
 * Japanese praise and blame of product answers (VADER's scale; adjectives by their stem, so -い and -く
 * forms both match), matched inside runs of kana
 * and kanji, which have no spaces to split words at: the longest entry first, and an entry
 * followed by a negation (ない, ません, では ない…) flips as a negated English word does.
 * Fit ("向いている", suited to) and description ("シンプル", "人気") say nothing, as in English.
 */
export const JA_VALENCES: Readonly<Record<string, number>> = {
  // praise
  おすすめ: 1.5, オススメ: 1.5, お勧め: 1.5, 推奨: 0.8, 便利: 1.3, 使いやす: 1.8, 使い勝手が良い: 1.6,
  使い勝手がいい: 1.6, わかりやす: 1.4, 分かりやす: 1.4, しやす: 1.0, 強い: 1.2, 強み: 1.2, 優れ: 1.6, 優秀: 1.8,
  充実: 1.3, 高機能: 1.2, 相性が良い: 1.4, 相性がいい: 1.4,
  定番: 1.0, 無難: 0.8, 最適: 1.6, 最高: 2.5, 安心: 1.2, 快適: 1.5, 魅力: 1.4, 手頃: 1.2, 高品質: 1.6, 信頼性が高い: 1.6,
  柔軟: 1.0, 直感的: 1.4, 豊富: 1.2, 良い: 1.5, 素晴らしい: 2.5, 高性能: 1.4, 安定: 1.2, 高い評価: 1.6, 評価が高い: 1.6,
  強力: 1.4, 洗練: 1.4, 軽快: 1.2, 手厚い: 1.4, 得意: 1.2, 親しみやす: 1.2, 美しい: 1.5, 見やす: 1.2, 評価されて: 1.0,
  デファクトスタンダード: 1.0, 自由度が高い: 1.0, 外しにく: 1.0,
  // blame
  使いにく: -1.6, 使いづら: -1.6, わかりにく: -1.4, 分かりにく: -1.4, しにく: -1.0, 高価: -1.2, 割高: -1.2,
  高め: -0.8, 学習コストが高い: -1.2, 難し: -1.2, 遅い: -1.0, 重い: -0.8, 不便: -1.3, 不安: -1.2, 欠点: -1.0,
  デメリット: -0.8, 弱い: -1.0, 弱点: -1.0, 物足りない: -1.2, 不満: -1.4, 限定的: -0.8, 不安定: -1.4, 漏洩: -1.5,
  おすすめしない: -1.2, おすすめしません: -1.2, 避け: -1.2,
};
