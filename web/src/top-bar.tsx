import type { ComponentChildren } from 'preact';
import { useRef } from 'preact/hooks';
import { useQuery } from '@tanstack/react-query';
import { get } from './api';
import { marketName, type ProjectMarket } from './markets';
import { setQuery, useLocation } from './router';
import { projectOf } from './sidebar';
import { SimulatedNotice } from './simulated-notice';
import type { ProjectDetail } from './pages/projects';
import { DEFAULT_PROVIDERS, PROVIDERS, PROVIDER_NAMES, useWindow } from './window';

// The top bar of a page: its title, on the right its Share and Download buttons, and for
// the pages with figures a second row with the window (a segmented control, radio-group
// semantics) and the engines (toggle chips). Both stay in the URL query exactly as before
// (?days=30, ?from=…&to=…, ?providers=a,b; no providers is every engine).

/** Each engine's mark: two letters on its own colour (no third-party logos). */
export const ENGINE_MARKS: Record<string, { glyph: string; color: string }> = {
  chatgpt: { glyph: 'Ch', color: '#0f7b5f' },
  perplexity: { glyph: 'Px', color: '#1f6f7a' },
  google_ai_overview: { glyph: 'AO', color: '#1a5fd0' },
  gemini: { glyph: 'Ge', color: '#6b4fd8' },
  claude: { glyph: 'Cl', color: '#a8502a' },
  google_ai_mode: { glyph: 'AM', color: '#1e7a3a' },
  grok: { glyph: 'Gr', color: '#3b3f46' },
  copilot: { glyph: 'Co', color: '#0b63b0' },
  chatgpt_ui: { glyph: 'Cu', color: '#0a5c47' },
};

export function EngineMark({ provider }: { provider: string }) {
  const mark = ENGINE_MARKS[provider] ?? { glyph: (PROVIDER_NAMES[provider] ?? provider).slice(0, 2), color: '#5a6270' };
  return (
    <span class="engine-mark" aria-hidden="true" style={{ background: mark.color }}>
      {mark.glyph}
    </span>
  );
}

/** A page's top bar; on a project's page the notice of simulated engines follows it. */
export function TopBar(props: { title: ComponentChildren; actions?: ComponentChildren; filters?: boolean }) {
  const loc = useLocation();
  const projectId = projectOf(loc.path);
  const viewWindow = useWindow();
  const custom = loc.query.has('from');
  // One grid: the title, the window and the buttons on the first row, the engines below
  // (frame.css places them; below 768 px the window gets a row of its own).
  return (
    <>
      <div class={props.filters ? 'top-bar with-filters' : 'top-bar'}>
        <h1>{props.title}</h1>
        {props.filters ? <WindowSegment current={custom ? 'custom' : String(viewWindow.days)} from={viewWindow.from} to={viewWindow.to} /> : null}
        {props.actions ? <div class="top-bar-actions">{props.actions}</div> : null}
        {props.filters ? (
          <div class="top-bar-engines">
            {custom ? (
              <div class="custom-dates">
                <label class="inline">
                  <span>From</span>
                  <input type="date" value={viewWindow.from} onChange={(event) => setQuery({ from: (event.currentTarget as HTMLInputElement).value })} />
                </label>
                <label class="inline">
                  <span>To</span>
                  <input type="date" value={viewWindow.to} onChange={(event) => setQuery({ to: (event.currentTarget as HTMLInputElement).value })} />
                </label>
              </div>
            ) : null}
            <EngineChips projectId={projectId} />
            {projectId ? <MarketSelect projectId={projectId} fromSummary={loc.path === `/projects/${projectId}`} /> : null}
          </div>
        ) : null}
      </div>
      {projectId ? <SimulatedNotice projectId={projectId} /> : null}
    </>
  );
}

const WINDOWS = [
  { value: '7', short: '7d', label: '7 days' },
  { value: '30', short: '30d', label: '30 days' },
  { value: '90', short: '90d', label: '90 days' },
  { value: '365', short: '1y', label: '365 days' },
  { value: 'custom', short: 'Custom', label: 'Custom dates' },
];

function WindowSegment({ current, from, to }: { current: string; from: string; to: string }) {
  const group = useRef<HTMLDivElement>(null);
  const choose = (value: string) => {
    if (value === 'custom') setQuery({ from, to, days: null });
    else setQuery({ days: value, from: null, to: null });
  };
  const index = WINDOWS.findIndex((option) => option.value === current);
  const onKey = (event: KeyboardEvent) => {
    const step = event.key === 'ArrowRight' || event.key === 'ArrowDown' ? 1 : event.key === 'ArrowLeft' || event.key === 'ArrowUp' ? -1 : 0;
    const jump = event.key === 'Home' ? 0 : event.key === 'End' ? WINDOWS.length - 1 : -1;
    if (!step && jump < 0) return;
    event.preventDefault();
    const next = jump >= 0 ? jump : (Math.max(0, index) + step + WINDOWS.length) % WINDOWS.length;
    choose(WINDOWS[next].value);
    group.current?.querySelectorAll<HTMLElement>('[role="radio"]')[next]?.focus();
  };
  return (
    <div ref={group} class="segmented" role="radiogroup" aria-label="Window" onKeyDown={onKey}>
      {WINDOWS.map((option, i) => {
        const checked = option.value === current;
        return (
          // biome-ignore lint/a11y/useSemanticElements: a segmented control: buttons in a radio group (WAI-ARIA radio pattern), arrows move
          <button
            key={option.value}
            type="button"
            role="radio"
            aria-checked={checked ? 'true' : 'false'}
            tabIndex={checked || (index < 0 && i === 0) ? 0 : -1}
            data-window={option.value}
            title={option.label}
            onClick={() => choose(option.value)}
          >
            <span aria-hidden="true">{option.short}</span>
            <span class="visually-hidden">{option.label}</span>
          </button>
        );
      })}
    </div>
  );
}

/**
 * The market filter (?market=US-en): shown when the project's prompts run in more than one
 * market (or a link names one), so a single-market project never sees it. On the overview
 * the list comes with the overview's summary (put in this query's cache by the page), so
 * the overview asks for nothing more.
 */
function MarketSelect({ projectId, fromSummary }: { projectId: string; fromSummary: boolean }) {
  const viewWindow = useWindow();
  const markets = useQuery({ queryKey: ['markets', projectId], queryFn: () => get<ProjectMarket[]>(`/projects/${projectId}/markets`), enabled: !fromSummary });
  const list = markets.data ?? [];
  if (list.length < 2 && !viewWindow.market) return null;
  const known = list.some((market) => market.market === viewWindow.market);
  return (
    <label class="inline market-select">
      <span>Market</span>
      <select value={viewWindow.market ?? ''} onChange={(event) => setQuery({ market: (event.currentTarget as HTMLSelectElement).value || null })}>
        <option value="">All markets</option>
        {list.map((market) => (
          <option key={market.market} value={market.market}>
            {marketName(market)} ({market.market})
          </option>
        ))}
        {viewWindow.market && !known ? <option value={viewWindow.market}>{viewWindow.market}</option> : null}
      </select>
    </label>
  );
}

/**
 * The engines the project tracks (every engine off a project's pages), in the usual order,
 * and any other engine a link names; the project's record is the query the overview, the
 * settings and the simulated notice share, so this asks for nothing more.
 */
function useShownEngines(projectId: string | null): string[] {
  const viewWindow = useWindow();
  const project = useQuery({ queryKey: ['project', projectId], queryFn: () => get<ProjectDetail>(`/projects/${projectId}`), enabled: projectId !== null });
  const tracked: readonly string[] = projectId === null ? PROVIDERS : project.data?.providers?.length ? project.data.providers : DEFAULT_PROVIDERS;
  return PROVIDERS.filter((provider) => tracked.includes(provider) || viewWindow.providers.includes(provider));
}

/**
 * The engines as toggle chips, every one on by default. "All" is never the empty selection:
 * turning off the last chip left on turns every engine back on, and turning them all on
 * one by one is "all" again. Each chip has an "only" button (shown on hover and focus).
 */
function EngineChips({ projectId }: { projectId: string | null }) {
  const viewWindow = useWindow();
  const shown = useShownEngines(projectId);
  const all = viewWindow.providers.length === 0;
  const set = (next: string[]) => setQuery({ providers: next.length && !shown.every((provider) => next.includes(provider)) ? next.join(',') : null });
  return (
    <fieldset class="engine-chips" aria-label="Engines">
      <legend class="visually-hidden">Engines</legend>
      <label class="chip all-engines">
        <input type="checkbox" class="chip-input" data-all-providers checked={all} onChange={() => setQuery({ providers: null })} />
        All<span class="visually-hidden"> engines</span>
      </label>
      {shown.map((provider) => {
        const on = all || viewWindow.providers.includes(provider);
        const only = !all && viewWindow.providers.length === 1 && viewWindow.providers[0] === provider;
        return (
          <span key={provider} class="chip-wrap" data-engine={provider}>
            <label class={on ? 'chip on' : 'chip'}>
              <input
                type="checkbox"
                class="chip-input"
                aria-label={PROVIDER_NAMES[provider]}
                checked={on}
                onChange={(event) => {
                  const checked = (event.currentTarget as HTMLInputElement).checked;
                  const current = all ? shown : viewWindow.providers;
                  set(checked ? [...current, provider] : current.filter((other) => other !== provider));
                }}
              />
              <EngineMark provider={provider} />
              <span class="chip-name">{PROVIDER_NAMES[provider]}</span>
            </label>
            <button type="button" class="chip-only" aria-label={`Only ${PROVIDER_NAMES[provider]}`} aria-pressed={only ? 'true' : 'false'} onClick={() => setQuery({ providers: provider })}>
              only
            </button>
          </span>
        );
      })}
    </fieldset>
  );
}
