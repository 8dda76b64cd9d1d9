/**
 * Markets: where a prompt is asked and in which language (docs/markets.md). A market is
 * written `US-en`: the ISO 3166-1 alpha-2 country in capitals, a hyphen, the ISO 639
 * language in lower case. Every answer is stored under one market, and each (prompt,
 * market) is a series of its own: its own samples, credits and figures.
 */
export interface Market {
  country: string;
  language: string;
}

/** The market of a project that names neither a usable location nor a language. */
export const FALLBACK_MARKET: Market = { country: 'US', language: 'en' };

const COUNTRY = /^[A-Za-z]{2}$/;
const LANGUAGE = /^[A-Za-z]{2,3}$/;
const CODE = /^([A-Za-z]{2})-([A-Za-z]{2,3})$/;

/** The most markets one prompt may run in. */
export const MAX_MARKETS_PER_PROMPT = 10;

/** `US-en`. */
export function marketCode(market: Market): string {
  return `${market.country.toUpperCase()}-${market.language.toLowerCase()}`;
}

/** `us-EN` → {country: 'US', language: 'en'}; null when it is not a market code. */
export function parseMarketCode(code: string): Market | null {
  const match = CODE.exec(code.trim());
  return match ? { country: match[1].toUpperCase(), language: match[2].toLowerCase() } : null;
}

/**
 * A market from a project's or prompt's free-text fields: a two-letter country, and the
 * language's first part (`pt-BR` → `pt`); what is missing or unusable falls back to US and
 * English. The SQL function market_code (migration 0027) computes the same code for the
 * answers stored before markets existed.
 */
export function marketFrom(country: string | null | undefined, language: string | null | undefined): Market {
  const c = country?.trim() ?? '';
  const l = (language?.trim() ?? '').replace('_', '-').split('-')[0];
  return {
    country: COUNTRY.test(c) ? c.toUpperCase() : FALLBACK_MARKET.country,
    language: LANGUAGE.test(l) ? l.toLowerCase() : FALLBACK_MARKET.language,
  };
}

/** A prompt's markets: its own list when it has one, else one market from its country (or the project's location) and the project's language. */
export function promptMarkets(
  prompt: { markets: Market[] | null; country: string | null },
  project: { location: string | null; language: string | null },
): Market[] {
  if (prompt.markets && prompt.markets.length > 0) return prompt.markets;
  return [marketFrom(prompt.country ?? project.location, project.language)];
}

/**
 * The SQL condition of a read narrowed to a market (`market = $n`) or not (`$n::text is null`:
 * a constant the planner drops). Two statements rather than one `($n is null or market = $n)`:
 * a prepared statement's generic plan cannot drop that `or`, so it filtered every row after
 * fetching it instead of using `market`, the last column of each key, in the index scan.
 */
export function marketSql(market: string | null | undefined, param: number, column = 'market'): string {
  return market === null || market === undefined ? `$${param}::text is null` : `${column} = $${param}`;
}

/** The same market list once each, in its order. */
export function uniqueMarkets(markets: Market[]): Market[] {
  const seen = new Set<string>();
  return markets.filter((m) => {
    const code = marketCode(m);
    if (seen.has(code)) return false;
    seen.add(code);
    return true;
  });
}
