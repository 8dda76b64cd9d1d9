/**
 * Search intent of a prompt, from rules on its wording (docs/analytics.md), checked in
 * this order: a purchase step is transactional even when it also compares.
 */
export type Intent = 'informational' | 'commercial' | 'navigational' | 'transactional';

const RULES: Array<[Intent, RegExp]> = [
  [
    'transactional',
    /\b(buy|buying|purchase|order|price of|pricing|prices?|cost(s)?|how much (is|does|do)|discount|coupon|promo code|deal(s)? on|cheap(est)?|subscribe|subscription|sign ?up|free trial|book (a|an)|hire|quote for|download)\b/i,
  ],
  [
    'navigational',
    /\b(log ?in|sign ?in|official (site|website)|homepage|website of|contact (number|details|support)|customer service|support page|login page|app store|near me|address of)\b/i,
  ],
  [
    'commercial',
    /\b(best|top \d+|top|vs\.?|versus|compare|comparison|alternatives?|review(s)?|recommend(ed|ation)?s?|which (is|one|should)|worth it|pros and cons|leading|ranking|rated|options for|tools? for|software for|platforms? for|providers? for)\b/i,
  ],
];

export function classifyIntent(text: string): Intent {
  for (const [intent, re] of RULES) if (re.test(text)) return intent;
  return 'informational';
}
