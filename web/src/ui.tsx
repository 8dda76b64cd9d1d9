import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ApiError, onRateLimit, rateLimitedUntil } from './api';
import { Skeleton, type SkeletonShape } from './skeleton';
import { PROVIDERS, PROVIDER_NAMES } from './window';

// Shared pieces: loading, empty and error states (a 429 says when to retry), form fields
// with labels, and figures with their 95% interval.

/**
 * A data load shows a skeleton (a table's shape unless told; skeleton.tsx) with a hidden
 * "Loading…" status; any other wait ("Sending", "Opening Sightline") says what it waits for.
 */
export function Loading({ what = 'Loading', shape = 'table' }: { what?: string; shape?: SkeletonShape }) {
  if (what.startsWith('Loading')) return <Skeleton shape={shape} what={what} rows={4} />;
  return (
    <p class="muted" role="status" aria-live="polite">
      {what}…
    </p>
  );
}

export function Empty({ children }: { children: ComponentChildren }) {
  return <p class="empty">{children}</p>;
}

export function ErrorBox({ error }: { error: unknown }) {
  if (!error) return null;
  const apiError = error instanceof ApiError ? error : null;
  const text =
    apiError?.status === 429
      ? apiError.retryAfter !== null
        ? `Too many requests: the server asked to wait ${apiError.retryAfter} second${apiError.retryAfter === 1 ? '' : 's'}. Try again after ${clock(Date.now() + apiError.retryAfter * 1000)}.`
        : apiError.detail
      : apiError?.status === 403
        ? `Not allowed: ${apiError.detail}`
        : apiError && apiError.status >= 500
          ? `${apiError.detail} This is on Sightline's side: reload the page to try again, or come back in a few minutes.`
          : apiError
            ? apiError.detail
            : error instanceof TypeError
              ? 'Sightline could not be reached (is the network down?). Reload the page to try again once you are back online.'
              : String((error as Error)?.message ?? error);
  return (
    <p class="error" role="alert">
      {text}
    </p>
  );
}

const clock = (time: number) => new Date(time).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });

/**
 * Shown while the API has answered 429: when Sightline will ask again (the Retry-After the
 * server gave), counting down; the queries wait until then and retry by themselves.
 */
export function RateLimitNotice() {
  const [until, setUntil] = useState(rateLimitedUntil);
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    // The clock is read with the time to wait for, so the first count is not off by the
    // time since the notice was first drawn.
    const follow = () => {
      setUntil(rateLimitedUntil());
      setNow(Date.now());
    };
    const off = onRateLimit(follow);
    // A 429 that came between the first render and this subscription is not missed.
    follow();
    return off;
  }, []);
  useEffect(() => {
    if (!until) return;
    setNow(Date.now());
    const tick = setInterval(() => {
      setNow(Date.now());
      if (Date.now() >= until) clearInterval(tick);
    }, 1000);
    return () => clearInterval(tick);
  }, [until]);
  const left = Math.ceil((until - now) / 1000);
  // Past the time, the waiting requests have gone out again: a query that still fails
  // shows its own error (ErrorBox) with the new Retry-After.
  if (!until || left <= 0) return null;
  return (
    <div class="notice warn" role="alert" data-rate-limited={until}>
      <strong>Too many requests.</strong> The server asked Sightline to wait: it tries again at {clock(until)}{' '}
      <span aria-hidden="true">(in {left} s)</span>.
    </div>
  );
}

export function Field(props: { label: string; children: ComponentChildren; hint?: string }) {
  return (
    // biome-ignore lint/a11y/noLabelWithoutControl: the control is the child passed in
    <label class="field">
      <span>{props.label}</span>
      {props.children}
      {props.hint ? <small class="muted">{props.hint}</small> : null}
    </label>
  );
}

export const formatFigure = (value: number | null | undefined, digits = 1) => (value === null || value === undefined ? '–' : value.toFixed(digits));
/** A percentage figure; a window without answers has none and reads "unmeasured", never 0% or a dash. */
export const formatPercent = (value: number | null | undefined, digits = 1) => (value === null || value === undefined ? 'unmeasured' : `${value.toFixed(digits)}%`);
/** A brand's figure of the window, or null when the window has no answers (the API's 0% then means unmeasured). */
export const measured = <T,>(metrics: ({ responses: number } & T) | null | undefined): T | null => (metrics && metrics.responses > 0 ? metrics : null);
export const formatInterval = (interval: [number, number] | null | undefined, digits = 1) => (interval ? `${interval[0].toFixed(digits)}–${interval[1].toFixed(digits)}` : '');

/** A trend test's answer for a figure: up or down only when significant, stable otherwise, null when untested. */
export type Direction = 'up' | 'down' | 'stable' | null;

/**
 * The change of a figure against the previous window as a chip: green or red only when the
 * trend test found it significant (good or bad by the figure's sense), grey "no significant
 * change" otherwise; the points moved are in its title either way.
 */
export function DeltaChip(props: { change: number | null | undefined; direction: Direction; digits?: number; unit?: string; lowerIsBetter?: boolean; pending?: boolean }) {
  const digits = props.digits ?? 1;
  const change = props.change;
  if (props.pending) return <span class="delta quiet">comparing…</span>;
  if (change === null || change === undefined) return <span class="delta quiet">no previous window</span>;
  const moved = `${change > 0 ? '+' : change < 0 ? '−' : '±'}${Math.abs(change).toFixed(digits)}${props.unit === '%' ? ' pts' : ''}`;
  const significant = props.direction === 'up' || props.direction === 'down';
  if (!significant) {
    return (
      <span class="delta quiet" data-delta="stable" title={`${moved} vs previous window, inside the noise`}>
        no significant change
      </span>
    );
  }
  const good = (props.direction === 'up') !== !!props.lowerIsBetter;
  return (
    <span class={`delta ${good ? 'good' : 'bad'}`} data-delta={props.direction} title="Significant at the 95% level">
      <span aria-hidden="true">{props.direction === 'up' ? '▲' : '▼'}</span>
      {moved}
      <span class="visually-hidden"> vs previous window, significant</span>
    </span>
  );
}

export function Kpi(props: {
  label: string;
  value: number | null | undefined;
  unit?: string;
  interval?: [number, number] | null;
  change?: number | null;
  direction?: Direction;
  changePending?: boolean;
  digits?: number;
  lowerIsBetter?: boolean;
  hideChange?: boolean;
  trend?: ComponentChildren;
  /** What a missing value reads: "unmeasured" (no answers) unless the caller knows better ("not named"). */
  emptyText?: string;
}) {
  const digits = props.digits ?? 1;
  return (
    <div class="kpi" data-kpi={props.label}>
      <div class="kpi-label">{props.label}</div>
      <div class="kpi-value" data-value={props.value ?? ''}>
        {props.value === null || props.value === undefined ? (
          <span class="kpi-empty">{props.emptyText ?? 'unmeasured'}</span>
        ) : (
          <>
            {formatFigure(props.value, digits)}
            {props.unit ? <span class="kpi-unit">{props.unit}</span> : null}
          </>
        )}
      </div>
      <div class="kpi-interval">{props.interval ? `95%: ${formatInterval(props.interval, digits)}` : 'no interval'}</div>
      <div class="kpi-foot">
        {/* hideChange: the page says once that there is no earlier period, not on every card. */}
        {props.hideChange ? (
          <span />
        ) : (
          <DeltaChip change={props.change} direction={props.direction ?? null} digits={digits} unit={props.unit} lowerIsBetter={props.lowerIsBetter} pending={props.changePending} />
        )}
        {props.trend}
      </div>
    </div>
  );
}

export function Section(props: { title: string; actions?: ComponentChildren; children: ComponentChildren }) {
  return (
    <section class="card">
      <div class="card-head">
        <h2>{props.title}</h2>
        <div class="card-actions">{props.actions}</div>
      </div>
      {props.children}
    </section>
  );
}

/** Copies text to the clipboard and says so (or says how to copy by hand). */
export function CopyButton(props: { text: string; label?: string; disabled?: boolean }) {
  const [said, setSaid] = useState('');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.text);
      setSaid('Copied.');
    } catch {
      setSaid('Could not copy: select the text and press Ctrl+C.');
    }
  };
  return (
    <span class="inline">
      <button type="button" class="secondary small" disabled={props.disabled} onClick={() => void copy()}>
        {props.label ?? 'Copy'}
      </button>
      <span class="muted small" role="status" aria-live="polite">
        {said}
      </span>
    </span>
  );
}


/** An http(s) link to an outside address, or the address as plain text when it is anything else. */
export function OutLink({ href, children }: { href: string; children?: ComponentChildren }) {
  let ok = false;
  try {
    ok = ['http:', 'https:'].includes(new URL(href).protocol);
  } catch {
    ok = false;
  }
  if (!ok) return <span class="wrap">{children ?? href}</span>;
  return (
    <a class="wrap" href={href} target="_blank" rel="noopener noreferrer">
      {children ?? href}
    </a>
  );
}

/**
 * The engines a project tracks, as checkboxes named `providers` (read with
 * FormData.getAll): every engine the API knows, the chosen ones checked.
 */
export function EngineChoice(props: { checked: readonly string[]; legend?: string }) {
  return (
    <fieldset class="providers engines" aria-label={props.legend ?? 'Engines tracked'}>
      <legend>{props.legend ?? 'Engines tracked'}</legend>
      {PROVIDERS.map((provider) => (
        <label key={provider} class="check">
          <input type="checkbox" name="providers" value={provider} defaultChecked={props.checked.includes(provider)} />
          {PROVIDER_NAMES[provider]}
        </label>
      ))}
    </fieldset>
  );
}

/** The engines ticked in a form with an EngineChoice. */
export const enginesOf = (form: FormData): string[] => form.getAll('providers').map(String);
/** The host of a brand's icon URL (the API's `icon_url`, https://{domain}/favicon.ico), or null. */
export function iconDomain(iconUrl: string | null | undefined): string | null {
  if (!iconUrl) return null;
  try {
    return new URL(iconUrl).hostname || null;
  } catch {
    return null;
  }
}

/**
 * A brand's icon, 16 px, from the same-origin proxy (/favicons/{domain}: the server fetches it
 * from the brand's site, so the viewer's browser never does). Without one (no domain, or the
 * proxy has no icon), the brand's initial on its colour. Decorative: the name stands beside it.
 */
export function BrandMark({ name, domain, color }: { name: string; domain: string | null | undefined; color?: string }) {
  const [failed, setFailed] = useState<string | null>(null);
  if (!domain || failed === domain) {
    const initial = (name.trim().match(/[\p{L}\p{N}]/u)?.[0] ?? '?').toUpperCase();
    return <span class="brand-mark brand-initial" data-initial={initial} style={{ background: color ?? 'var(--cat-other)' }} aria-hidden="true" />;
  }
  return <img class="brand-mark" src={`/favicons/${domain}`} alt="" width={16} height={16} loading="lazy" decoding="async" onError={() => setFailed(domain)} />;
}
