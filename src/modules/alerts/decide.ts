import type { RequestContext } from '../../context.js';
import type { Interval } from '../../lib/statistics.js';
import { domainWindow } from '../rollups/domain-window.js';
import { addDays, providerFilter, resolveWindow } from '../analytics/window.js';
import { competitorSuggestions } from '../competitors/suggestions.js';
import type { ProviderName } from '../../ports/providers/types.js';
import { windowsOf, type Figure, type FigureReader, type RuleWindow } from './figures.js';
import type { AlertRow } from './service.js';

/** What a rule remembers between evaluations. */
export interface RuleState {
  /** The condition held at the last measured evaluation. */
  holds?: boolean;
  /** new_*: the brands or domains already told of. */
  seen?: string[];
}

export interface Decision {
  /** null: unmeasured (a window without enough answers): nothing fires and the state stays. */
  holds: boolean | null;
  fire: boolean;
  state: RuleState;
  value: number;
  previous: number | null;
  pValue: number | null;
  interval: Interval | null;
  window: RuleWindow;
  names?: string[];
}

/** Days before a window in which a cited domain counts as known (new_cited_domain). */
export const KNOWN_DOMAIN_DAYS = 28;
const MAX_SEEN = 1000;

/**
 * Whether a figure meets its condition. The significant_* conditions rest on the trend test
 * alone (null when a window is unmeasured); a drop is a change for the worse, so for
 * position (1 = named first) a drop is a rise of the number.
 */
export function conditionHolds(rule: Pick<AlertRow, 'metric' | 'condition' | 'threshold'>, f: Figure): boolean | null {
  if (rule.condition === 'below' || rule.condition === 'above') {
    if (f.value === null || f.window.responses === 0) return null;
    return rule.condition === 'below' ? f.value < (rule.threshold ?? 0) : f.value > (rule.threshold ?? 0);
  }
  if (!f.comparison) return null;
  const { direction } = f.comparison;
  if (rule.condition === 'significant_change') return direction !== 'stable';
  const better = rule.metric === 'position' ? 'down' : 'up';
  const worse = better === 'up' ? 'down' : 'up';
  return direction === (rule.condition === 'significant_rise' ? better : worse);
}

/** A metric rule: fires when its condition holds now and did not at the last measured evaluation (or never was evaluated). */
export async function decideFigure(rule: AlertRow, reader: FigureReader): Promise<Decision> {
  const f = await reader.figure(rule);
  const last = (rule.state ?? {}) as RuleState;
  const holds = conditionHolds(rule, f);
  return {
    holds,
    fire: holds === true && last.holds !== true,
    state: holds === null ? last : { holds },
    value: f.value ?? 0,
    previous: f.previous,
    pValue: f.comparison?.pValue ?? null,
    interval: f.interval,
    window: f.window,
  };
}

/**
 * new_competitor and new_cited_domain: the brands (as the competitor suggestions find them:
 * named often enough in the window's answers to be suggested) or the domains (cited in the
 * window, not in the KNOWN_DOMAIN_DAYS before it) not told of yet; fires when there are more
 * than `threshold` (default 0) of them. Those told of are remembered and never told again.
 */
export async function decideNewThings(rctx: RequestContext, rule: AlertRow, reader: FigureReader): Promise<Decision> {
  const w = windowsOf(reader.day, rule.window_days);
  const providers = (rule.providers as ProviderName[] | null) ?? null;
  const last = (rule.state ?? {}) as RuleState;
  const seen = new Set(last.seen ?? []);
  let found: string[];
  let window: RuleWindow;
  if (rule.metric === 'new_competitor') {
    const q = { date_from: w.cur.from, date_to: w.cur.to, ...(providers ? { providers: providers.join(',') } : {}) };
    const s = await competitorSuggestions(rctx, rule.project_id, resolveWindow(q, reader.day), 20);
    window = { start_date: w.cur.from, end_date: w.cur.to, previous_start_date: w.prev.from, previous_end_date: w.prev.to, responses: s.answers_in_window, previous_responses: 0 };
    if (s.answers_in_window === 0) return { holds: null, fire: false, state: last, value: 0, previous: null, pValue: null, interval: null, window };
    found = s.suggestions.map((x) => x.name);
  } else {
    const rows = providerFilter({ providers });
    const knownFrom = addDays(w.cur.from, -KNOWN_DOMAIN_DAYS);
    const knownTo = addDays(w.cur.from, -1);
    const [cur, known] = await Promise.all([
      domainWindow(rctx.store, rule.project_id, rows, w.cur.from, w.cur.to),
      domainWindow(rctx.store, rule.project_id, rows, knownFrom, knownTo),
    ]);
    const knownSet = new Set(known.domains.map((d) => d.domain));
    window = { start_date: w.cur.from, end_date: w.cur.to, previous_start_date: knownFrom, previous_end_date: knownTo, responses: 0, previous_responses: 0 };
    found = cur.domains.map((d) => d.domain).filter((d) => !knownSet.has(d));
  }
  const fresh = found.filter((n) => !seen.has(n));
  const holds = fresh.length > (rule.threshold ?? 0);
  return {
    holds,
    fire: holds,
    state: holds ? { seen: [...seen, ...fresh].slice(-MAX_SEEN) } : last,
    value: fresh.length,
    previous: null,
    pValue: null,
    interval: null,
    window,
    names: fresh,
  };
}
