import type { TopicKey } from './markets.js';

// The built-in writer's sentences. Placeholders: scalars ({tool}, {a_tool}, {tools},
// {items}, {makers}, {place}, {a_place}, {places}, {offering}, {brand}, {loc}, {where})
// and lists that a template is expanded over ({aud}, {job}, {integration}, {use},
// {quality}, {offer}, {comp}; {comp2} pairs with {comp}). A template whose placeholder
// has no value (no location, no competitors) is left out. Order within an intent is
// order of preference: the first ones are what a buyer asks most.

export type Intent = 'commercial' | 'informational' | 'transactional' | 'comparison' | 'brand';

export interface Template {
  intent: Intent;
  topic: TopicKey;
  text: string;
}

const t = (intent: Intent, topic: TopicKey, text: string): Template => ({ intent, topic, text });

/** Comparisons between named brands; {brand} ones count toward the brand-mention cap. */
const COMPARISON = (what: string): Template[] => [
  t('comparison', 'choose', `{brand} vs {comp}: which ${what} is better?`),
  t('comparison', 'choose', `{comp} vs {comp2}: which ${what} should I choose?`),
  t('comparison', 'choose', `What are the best alternatives to {comp}?`),
];

export const SOFTWARE: Template[] = [
  t('commercial', 'choose', 'What is the best {tool} for {aud}?'),
  t('commercial', 'use', 'Which {tools} integrate with {integration}?'),
  t('commercial', 'choose', 'Which {tool} is best for {job}?'),
  t('commercial', 'choose', 'What is the easiest {tool} to set up for {aud}?'),
  t('commercial', 'choose', 'What is the best {tool} for {aud} in {loc}?'),
  t('informational', 'use', 'What features should I look for in {a_tool}?'),
  t('informational', 'use', 'Is {a_tool} worth it for {aud}?'),
  t('informational', 'use', 'How does {a_tool} help with {job}?'),
  t('informational', 'use', 'How do I switch to a new {tool} without losing data?'),
  t('informational', 'use', 'What are the pros and cons of free {tools}?'),
  t('transactional', 'buy', 'How much does {a_tool} cost for {aud}?'),
  t('transactional', 'buy', 'Which {tools} offer a free plan?'),
  t('transactional', 'buy', 'Which {tool} has the best free trial?'),
  t('transactional', 'buy', 'Which {tools} have the best value pricing for {aud}?'),
  ...COMPARISON('{tool}').map((c) => ({ ...c, text: c.text.replace('which {tool} is better?', 'which {tool} is better for {aud}?') })),
  t('brand', 'choose', 'Is {brand} a good {tool} for {aud}?'),
  t('brand', 'buy', 'How much does {brand} cost?'),
  t('brand', 'choose', 'What are the best alternatives to {brand}?'),
  t('brand', 'use', 'What do users say about {brand}?'),
];

export const PRODUCT: Template[] = [
  t('commercial', 'choose', 'What are the best {items} for {use}?'),
  t('commercial', 'choose', 'Which {makers} are the most {quality}?'),
  t('commercial', 'choose', 'What are the most {quality} {items} right now?'),
  t('commercial', 'choose', 'Which {items} do experts recommend for {use}?'),
  t('informational', 'use', 'How do I choose {items} for {use}?'),
  t('informational', 'use', 'What is the difference between cheap and expensive {items}?'),
  t('informational', 'use', 'What should I look for when buying {items}?'),
  t('informational', 'use', 'Which materials make {items} last longer?'),
  t('informational', 'use', 'Are expensive {items} worth it for {use}?'),
  t('transactional', 'buy', 'Where can I buy {items} online with free returns?'),
  t('transactional', 'buy', 'Where can I buy {items} in {loc}?'),
  t('transactional', 'buy', 'How much should I spend on good {items}?'),
  t('transactional', 'buy', 'Which {makers} offer free shipping and returns?'),
  t('transactional', 'buy', 'Where can I find {items} for {use} on sale?'),
  ...COMPARISON('{items}').map((c) => ({ ...c, text: c.text.replace('which {items} is better?', 'whose {items} are better?') })),
  t('brand', 'choose', 'Are {brand} {items} good for {use}?'),
  t('brand', 'choose', 'What are the best alternatives to {brand}?'),
  t('brand', 'use', 'What do reviews say about {brand}?'),
  t('brand', 'buy', 'Where can I buy {brand} {items}?'),
];

export const LOCAL: Template[] = [
  t('commercial', 'choose', 'What is the best {place} {where}?'),
  t('commercial', 'choose', 'Where can I get the best {offer} {where}?'),
  t('commercial', 'choose', 'Which {places} {where} are worth a visit?'),
  t('commercial', 'choose', 'Which {places} {where} have the best reviews?'),
  t('commercial', 'choose', 'Which {place} {where} is best for {offer}?'),
  t('informational', 'use', 'What makes good {offer}?'),
  t('informational', 'use', 'What should I look for in a good {place}?'),
  t('informational', 'use', 'How can I tell if {a_place} is high quality?'),
  t('informational', 'use', 'How do I choose {a_place} for {offer}?'),
  t('transactional', 'buy', 'Which {places} {where} offer {offer}?'),
  t('transactional', 'buy', 'How much should I expect to pay for {offer} {where}?'),
  t('transactional', 'buy', 'Can I {order} {offer} online {from} {a_place} {where}?'),
  ...COMPARISON('{place}'),
  t('brand', 'choose', 'Is {brand} a good {place}?'),
  t('brand', 'use', 'What do people say about {brand}?'),
  t('brand', 'buy', 'Does {brand} offer {offer}?'),
];

/** A market named by a phrase from the site ("handmade leather bags"), kind unknown. */
export const GENERIC: Template[] = [
  t('commercial', 'choose', 'Who offers the best {offering}?'),
  t('commercial', 'choose', 'What are the top-rated companies for {offering}?'),
  t('commercial', 'choose', 'What are the best options for {offering} in {loc}?'),
  t('commercial', 'choose', 'Which companies for {offering} have the best reviews?'),
  t('informational', 'use', 'What should I look for when choosing {offering}?'),
  t('informational', 'use', 'What are common mistakes when choosing {offering}?'),
  t('informational', 'use', 'How do I compare providers of {offering}?'),
  t('transactional', 'buy', 'How much should I expect to pay for {offering}?'),
  t('transactional', 'buy', 'Where can I get {offering} at a fair price?'),
  t('transactional', 'buy', 'Where can I get {offering} in {loc}?'),
  ...COMPARISON('company'),
  t('brand', 'choose', 'Is {brand} a good choice for {offering}?'),
  t('brand', 'choose', 'What are the best alternatives to {brand}?'),
  t('brand', 'use', 'What do customers say about {brand}?'),
  t('brand', 'buy', 'How much does {brand} cost?'),
];

/**
 * Nothing is known but the brand's name: every prompt has to name it. Also the last
 * resort of the other plans when a large count exhausts their market questions.
 */
export const BRAND_ONLY: Template[] = [
  t('brand', 'choose', 'What is {brand} known for?'),
  t('brand', 'choose', 'What are the best alternatives to {brand}?'),
  t('brand', 'buy', 'How much does {brand} cost?'),
  t('brand', 'use', 'What do customers say about {brand}?'),
  t('brand', 'choose', 'Is {brand} trustworthy?'),
  t('brand', 'choose', 'Who are the main competitors of {brand}?'),
  t('brand', 'use', 'What are the pros and cons of {brand}?'),
  t('brand', 'buy', 'Is {brand} worth the money?'),
  t('brand', 'use', 'How do I get started with {brand}?'),
  t('brand', 'choose', 'Is {brand} a good choice for {aud}?'),
  t('brand', 'buy', 'Does {brand} offer discounts for {aud}?'),
  t('brand', 'buy', 'Where can I buy from {brand} in {loc}?'),
  t('brand', 'use', 'What does {brand} do?'),
  t('brand', 'use', 'Does {brand} have good customer service?'),
  t('brand', 'use', 'What are common complaints about {brand}?'),
  t('brand', 'choose', 'Is {brand} better than its competitors?'),
  t('brand', 'choose', 'Who owns {brand}?'),
  t('brand', 'choose', 'Where is {brand} based?'),
  ...COMPARISON('company'),
];

/** Who an unknown market's brand-only prompts can be about. */
export const GENERIC_AUDIENCES = ['beginners', 'small businesses', 'families', 'professionals', 'students'];
