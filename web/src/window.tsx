import { queryString } from './api';
import { useLocation } from './router';

// The view's window and providers live in the URL (top-bar.tsx draws the controls) (?days=30&providers=chatgpt,claude or
// ?from=2026-01-01&to=2026-01-31), so a copied link shows the same view.

/** Every engine the API knows (src/ports/providers/types.ts): the five of the contract, then the extensions. */
export const PROVIDERS = ['chatgpt', 'perplexity', 'google_ai_overview', 'gemini', 'claude', 'google_ai_mode', 'grok', 'copilot', 'chatgpt_ui'] as const;
/** What a new project tracks unless the user chooses: the five of the contract. */
export const DEFAULT_PROVIDERS: readonly string[] = PROVIDERS.slice(0, 5);
export const PROVIDER_NAMES: Record<string, string> = {
  chatgpt: 'ChatGPT',
  perplexity: 'Perplexity',
  google_ai_overview: 'Google AI Overviews',
  gemini: 'Gemini',
  claude: 'Claude',
  google_ai_mode: 'Google AI Mode',
  grok: 'Grok',
  copilot: 'Copilot',
  chatgpt_ui: 'ChatGPT (web app)',
};
const DAY = 86_400_000;
const day = (time: number) => new Date(time).toISOString().slice(0, 10);

export interface ViewWindow {
  from: string;
  to: string;
  days: number;
  prevFrom: string;
  prevTo: string;
  providers: string[];
  /** The market asked for (`US-en`), null for every market. */
  market: string | null;
  /** The query string of the window for the API. */
  query: string;
  prevQuery: string;
}

export function useWindow(): ViewWindow {
  return windowOf(useLocation().query);
}

/** The view's window from a query string (also used before the page is drawn, to prefetch). */
export function windowOf(query: URLSearchParams): ViewWindow {
  const today = day(Date.now());
  let to = query.get('to') ?? today;
  let from = query.get('from');
  const days0 = Math.min(365, Math.max(1, Number(query.get('days') ?? 30) || 30));
  if (!/^\d{4}-\d{2}-\d{2}$/.test(to)) to = today;
  if (!from || !/^\d{4}-\d{2}-\d{2}$/.test(from) || from > to) from = day(Date.parse(to) - (days0 - 1) * DAY);
  const days = Math.round((Date.parse(to) - Date.parse(from)) / DAY) + 1;
  const prevTo = day(Date.parse(from) - DAY);
  const prevFrom = day(Date.parse(prevTo) - (days - 1) * DAY);
  const providers = (query.get('providers') ?? '').split(',').filter((provider) => (PROVIDERS as readonly string[]).includes(provider));
  const providerParam = providers.length ? providers.join(',') : undefined;
  const marketParam = query.get('market');
  const market = marketParam && /^[A-Z]{2}-[a-z]{2,3}$/.test(marketParam) ? marketParam : null;
  return {
    from,
    to,
    days,
    prevFrom,
    prevTo,
    providers,
    market,
    query: queryString({ date_from: from, date_to: to, providers: providerParam, market }),
    prevQuery: queryString({ date_from: prevFrom, date_to: prevTo, providers: providerParam, market }),
  };
}
