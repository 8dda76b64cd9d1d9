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

const template = (intent: Intent, topic: TopicKey, text: string): Template => ({ intent, topic, text });

/** Comparisons between named brands; {brand} ones count toward the brand-mention cap. */
const COMPARISON = (what: string): Template[] => [
  template('comparison', 'choose', `{brand} vs {comp}: which ${what} is better?`),
  template('comparison', 'choose', `{comp} vs {comp2}: which ${what} should I choose?`),
  template('comparison', 'choose', `What are the best alternatives to {comp}?`),
];

export const SOFTWARE: Template[] = [
  template('commercial', 'choose', 'What is the best {tool} for {aud}?'),
  template('commercial', 'use', 'Which {tools} integrate with {integration}?'),
  template('commercial', 'choose', 'Which {tool} is best for {job}?'),
  template('commercial', 'choose', 'What is the easiest {tool} to set up for {aud}?'),
  template('commercial', 'choose', 'What is the best {tool} for {aud} in {loc}?'),
  template('informational', 'use', 'What features should I look for in {a_tool}?'),
  template('informational', 'use', 'Is {a_tool} worth it for {aud}?'),
  template('informational', 'use', 'How does {a_tool} help with {job}?'),
  template('informational', 'use', 'How do I switch to a new {tool} without losing data?'),
  template('informational', 'use', 'What are the pros and cons of free {tools}?'),
  template('transactional', 'buy', 'How much does {a_tool} cost for {aud}?'),
  template('transactional', 'buy', 'Which {tools} offer a free plan?'),
  template('transactional', 'buy', 'Which {tool} has the best free trial?'),
  template('transactional', 'buy', 'Which {tools} have the best value pricing for {aud}?'),
  ...COMPARISON('{tool}').map((c) => ({ ...c, text: c.text.replace('which {tool} is better?', 'which {tool} is better for {aud}?') })),
  template('brand', 'choose', 'Is {brand} a good {tool} for {aud}?'),
  template('brand', 'buy', 'How much does {brand} cost?'),
  template('brand', 'choose', 'What are the best alternatives to {brand}?'),
  template('brand', 'use', 'What do users say about {brand}?'),
];

export const PRODUCT: Template[] = [
  template('commercial', 'choose', 'What are the best {items} for {use}?'),
  template('commercial', 'choose', 'Which {makers} are the most {quality}?'),
  template('commercial', 'choose', 'What are the most {quality} {items} right now?'),
  template('commercial', 'choose', 'Which {items} do experts recommend for {use}?'),
  template('informational', 'use', 'How do I choose {items} for {use}?'),
  template('informational', 'use', 'What is the difference between cheap and expensive {items}?'),
  template('informational', 'use', 'What should I look for when buying {items}?'),
  template('informational', 'use', 'Which materials make {items} last longer?'),
  template('informational', 'use', 'Are expensive {items} worth it for {use}?'),
  template('transactional', 'buy', 'Where can I buy {items} online with free returns?'),
  template('transactional', 'buy', 'Where can I buy {items} in {loc}?'),
  template('transactional', 'buy', 'How much should I spend on good {items}?'),
  template('transactional', 'buy', 'Which {makers} offer free shipping and returns?'),
  template('transactional', 'buy', 'Where can I find {items} for {use} on sale?'),
  ...COMPARISON('{items}').map((c) => ({ ...c, text: c.text.replace('which {items} is better?', 'whose {items} are better?') })),
  template('brand', 'choose', 'Are {brand} {items} good for {use}?'),
  template('brand', 'choose', 'What are the best alternatives to {brand}?'),
  template('brand', 'use', 'What do reviews say about {brand}?'),
  template('brand', 'buy', 'Where can I buy {brand} {items}?'),
];

export const LOCAL: Template[] = [
  template('commercial', 'choose', 'What is the best {place} {where}?'),
  template('commercial', 'choose', 'Where can I get the best {offer} {where}?'),
  template('commercial', 'choose', 'Which {places} {where} are worth a visit?'),
  template('commercial', 'choose', 'Which {places} {where} have the best reviews?'),
  template('commercial', 'choose', 'Which {place} {where} is best for {offer}?'),
  template('informational', 'use', 'What makes good {offer}?'),
  template('informational', 'use', 'What should I look for in a good {place}?'),
  template('informational', 'use', 'How can I tell if {a_place} is high quality?'),
  template('informational', 'use', 'How do I choose {a_place} for {offer}?'),
  template('transactional', 'buy', 'Which {places} {where} offer {offer}?'),
  template('transactional', 'buy', 'How much should I expect to pay for {offer} {where}?'),
  template('transactional', 'buy', 'Can I {order} {offer} online {from} {a_place} {where}?'),
  ...COMPARISON('{place}'),
  template('brand', 'choose', 'Is {brand} a good {place}?'),
  template('brand', 'use', 'What do people say about {brand}?'),
  template('brand', 'buy', 'Does {brand} offer {offer}?'),
];

/** A market named by a phrase from the site ("handmade leather bags"), kind unknown. */
export const GENERIC: Template[] = [
  template('commercial', 'choose', 'Who offers the best {offering}?'),
  template('commercial', 'choose', 'What are the top-rated companies for {offering}?'),
  template('commercial', 'choose', 'What are the best options for {offering} in {loc}?'),
  template('commercial', 'choose', 'Which companies for {offering} have the best reviews?'),
  template('informational', 'use', 'What should I look for when choosing {offering}?'),
  template('informational', 'use', 'What are common mistakes when choosing {offering}?'),
  template('informational', 'use', 'How do I compare providers of {offering}?'),
  template('transactional', 'buy', 'How much should I expect to pay for {offering}?'),
  template('transactional', 'buy', 'Where can I get {offering} at a fair price?'),
  template('transactional', 'buy', 'Where can I get {offering} in {loc}?'),
  ...COMPARISON('company'),
  template('brand', 'choose', 'Is {brand} a good choice for {offering}?'),
  template('brand', 'choose', 'What are the best alternatives to {brand}?'),
  template('brand', 'use', 'What do customers say about {brand}?'),
  template('brand', 'buy', 'How much does {brand} cost?'),
];

/**
 * Nothing is known but the brand's name: every prompt has to name it. Also the last
 * resort of the other plans when a large count exhausts their market questions.
 */
export const BRAND_ONLY: Template[] = [
  template('brand', 'choose', 'What is {brand} known for?'),
  template('brand', 'choose', 'What are the best alternatives to {brand}?'),
  template('brand', 'buy', 'How much does {brand} cost?'),
  template('brand', 'use', 'What do customers say about {brand}?'),
  template('brand', 'choose', 'Is {brand} trustworthy?'),
  template('brand', 'choose', 'Who are the main competitors of {brand}?'),
  template('brand', 'use', 'What are the pros and cons of {brand}?'),
  template('brand', 'buy', 'Is {brand} worth the money?'),
  template('brand', 'use', 'How do I get started with {brand}?'),
  template('brand', 'choose', 'Is {brand} a good choice for {aud}?'),
  template('brand', 'buy', 'Does {brand} offer discounts for {aud}?'),
  template('brand', 'buy', 'Where can I buy from {brand} in {loc}?'),
  template('brand', 'use', 'What does {brand} do?'),
  template('brand', 'use', 'Does {brand} have good customer service?'),
  template('brand', 'use', 'What are common complaints about {brand}?'),
  template('brand', 'choose', 'Is {brand} better than its competitors?'),
  template('brand', 'choose', 'Who owns {brand}?'),
  template('brand', 'choose', 'Where is {brand} based?'),
  ...COMPARISON('company'),
];

/** Who an unknown market's brand-only prompts can be about. */
export const GENERIC_AUDIENCES = ['beginners', 'small businesses', 'families', 'professionals', 'students'];
