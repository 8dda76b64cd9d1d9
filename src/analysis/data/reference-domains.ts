/**
 * Encyclopedias, dictionaries, documentation and knowledge bases: `reference`.
 * Registrable domains or full host names (developer.mozilla.org is reference even though
 * mozilla.org is institutional).
 */
export const REFERENCE_DOMAINS: readonly string[] = [
  'wikipedia.org', 'wiktionary.org', 'wikidata.org', 'wikibooks.org', 'wikiversity.org', 'britannica.com',
  'merriam-webster.com', 'dictionary.com', 'thesaurus.com', 'dictionary.cambridge.org', 'oxfordreference.com',
  'oed.com', 'collinsdictionary.com', 'vocabulary.com', 'investopedia.com', 'encyclopedia.com', 'worldhistory.org',
  'developer.mozilla.org', 'readthedocs.io', 'readthedocs.org', 'w3schools.com', 'geeksforgeeks.org',
  'tutorialspoint.com', 'devdocs.io', 'docs.python.org', 'learn.microsoft.com', 'docs.microsoft.com',
  'cloud.google.com', 'developers.google.com', 'support.google.com', 'docs.aws.amazon.com', 'docs.github.com',
  'developer.apple.com', 'support.apple.com', 'man7.org', 'cppreference.com', 'php.net', 'rust-lang.org',
  'statista.com', 'ourworldindata.org', 'wikihow.com', 'techopedia.com', 'whatis.techtarget.com', 'howstuffworks.com',
  'archive.org', 'gutenberg.org', 'libretexts.org', 'openstax.org', 'mathworld.wolfram.com', 'wolframalpha.com',
];

/** First host labels that mark documentation, help centres and knowledge bases (docs.stripe.com). */
export const REFERENCE_SUBDOMAINS: readonly string[] = [
  'docs', 'doc', 'documentation', 'developer', 'developers', 'devdocs', 'api', 'apidocs', 'support', 'help',
  'helpcenter', 'kb', 'knowledge', 'knowledgebase', 'wiki', 'learn', 'manual', 'guide', 'guides', 'reference',
];
