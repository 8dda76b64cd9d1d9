/**
 * Word lists the text rules use. All lower-case.
 */

/**
 * Words right after a brand name that show it is used as a name (Close CRM, monday.com,
 * Notion app): a common-word brand followed by one of them is a mention.
 */
export const PRODUCT_CUES: readonly string[] = [
  'crm', 'app', 'apps', 'hq', 'inc', 'ltd', 'llc', 'gmbh', 'corp', 'software', 'platform', 'suite', 'api', 'sdk',
  'workspace',
];

/** Web suffixes that make a name a name when written right after it with a dot (monday.com, Close.io). */
export const WEB_SUFFIX_CUES: readonly string[] = [
  'com', 'io', 'ai', 'co', 'so', 'app', 'dev', 'net', 'org', 'us', 'hq', 'me', 'tv', 'xyz',
];

/**
 * Verbs and auxiliaries that follow a name used as the subject ("Close offers…", "Notion
 * is…"): they make a capitalised common-word brand at the start of a sentence a mention,
 * where "Close the deal" or "Monday morning" is not.
 */
export const NAME_CUE_WORDS: readonly string[] = [
  'is', 'isn', 'was', 'wasn', 'has', 'hasn', 'had', 'does', 'doesn', 'did', 'can', 'could', 'will', 'would', 'may',
  'might', 'should', 'must', 'also', 'still', 'now', 'remains', 'offers', 'provides', 'lets', 'allows', 'enables',
  'includes', 'integrates', 'supports', 'excels', 'stands', 'focuses', 'specializes', 'specialises', 'targets',
  'works', 'shines', 'wins', 'leads', 'comes', 'costs', 'charges', 'starts', 'suits', 'fits', 'pairs', 'uses',
  'helps', 'handles', 'tracks', 'brings', 'adds', 'combines', 'delivers', 'keeps', 'seems', 'feels', 'looks',
  'lacks', 'struggles', 'falls', 'beats', 'outperforms', 'ranks', 'scores', 'gets', 'gives', 'makes', 'takes',
  'features', 'boasts', 'emphasizes', 'emphasises', 'positions', 'caters', 'appeals', 'serves', 'automates',
  'requires', 'needs', 'wants', 'owns', 'acquired', 'launched', 'released', 'announced', 'raised',
  'built', 'became', 'recently', 'typically', 'generally', 'usually', 'often', 'tends', 'vs', 'versus',
  'won', 'wouldn', 'never', 'rarely', 'earns', 'lags',
];

/** Words before an all-lower-case name that make it an ordinary noun ("a company's salesforce", "your salesforce"). */
export const DETERMINERS: readonly string[] = ['a', 'an', 'the', 'your', 'our', 'their', 'its', 'his', 'her', 'my', 'whose', 'every', 'each'];

/**
 * Words that start a new clause for per-brand sentiment: praise or blame after them is
 * about what follows, not about a brand named before them.
 */
export const CONTRAST_WORDS: readonly string[] = [
  'but', 'while', 'whereas', 'unlike', 'although', 'though', 'however', 'yet', 'than', 'compared', 'versus', 'vs',
  'whilst', 'instead', 'meanwhile', 'except', 'conversely', 'alternatively',
];

/**
 * Words that may stand between brand names in a list ("HubSpot, Zoho and Pipedrive are…"):
 * a clause made only of names and these words shares the next clause's sentiment.
 */
export const LIST_JOINERS: readonly string[] = [
  'and', 'or', 'both', 'either', 'neither', 'nor', 'the', 'like', 'such', 'as', 'including', 'plus', 'also', 'with',
];

/** Abbreviations whose full stop does not end a sentence. */
export const ABBREVIATIONS: readonly string[] = [
  'e.g', 'i.e', 'eg', 'ie', 'vs', 'etc', 'inc', 'ltd', 'co', 'corp', 'mr', 'mrs', 'ms', 'dr', 'prof', 'st', 'no',
  'approx', 'est', 'dept', 'fig', 'jr', 'sr', 'u.s', 'u.k', 'e.u', 'cf', 'al', 'ca', 'min', 'max', 'mo', 'yr', 'sq',
];

/**
 * Trailing words and web suffixes dropped from a brand name to derive a shorter alias
 * ("Close CRM" → Close, "monday.com" → monday, "Acme Inc." → Acme).
 */
export const DERIVED_ALIAS_SUFFIXES: readonly string[] = [
  'crm', 'inc', 'ltd', 'llc', 'gmbh', 'corp', 'corporation', 'company', 'hq', 'app', 'software', 'com', 'io', 'ai',
  'co', 'so', 'net', 'org', 'dev',
];

/**
 * Words always written with a capital (days, months): for a brand named so ("Monday"),
 * a capital is no sign of the brand, so only cues and markup count.
 */
export const ALWAYS_CAPITALISED: readonly string[] = [
  'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday', 'january', 'february', 'march',
  'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december',
];

/** Words that are not in the dictionary word list but are not names either. */
export const EXTRA_COMMON_WORDS: readonly string[] = [...ALWAYS_CAPITALISED, 'ok', 'okay'];
