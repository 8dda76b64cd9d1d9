import type { ComponentChildren } from 'preact';
import { ApiError } from './api';

// Shared pieces: loading, empty and error states (a 429 says when to retry), form fields
// with labels, and figures with their 95% interval.

export function Loading({ what = 'Loading' }: { what?: string }) {
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
  const e = error instanceof ApiError ? error : null;
  const text =
    e?.status === 429
      ? `Too many requests: try again in ${e.retryAfter ?? 60} seconds.`
      : e?.status === 403
        ? `Not allowed: ${e.detail}`
        : e
          ? e.detail
          : String((error as Error)?.message ?? error);
  return (
    <p class="error" role="alert">
      {text}
    </p>
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

export const fmt = (v: number | null | undefined, digits = 1) => (v === null || v === undefined ? '–' : v.toFixed(digits));
export const ci = (c: [number, number] | null | undefined, digits = 1) => (c ? `${c[0].toFixed(digits)}–${c[1].toFixed(digits)}` : '');

export function Kpi(props: { label: string; value: number | null | undefined; unit?: string; interval?: [number, number] | null; change?: number | null; digits?: number; lowerIsBetter?: boolean }) {
  const d = props.digits ?? 1;
  const ch = props.change;
  const good = ch === null || ch === undefined || ch === 0 ? '' : (ch > 0) !== !!props.lowerIsBetter ? 'up' : 'down';
  return (
    <div class="kpi" data-kpi={props.label}>
      <div class="kpi-label">{props.label}</div>
      <div class="kpi-value" data-value={props.value ?? ''}>
        {fmt(props.value, d)}
        {props.unit ?? ''}
      </div>
      {props.interval ? <div class="muted small">95%: {ci(props.interval, d)}</div> : <div class="muted small">no interval</div>}
      <div class={`kpi-change ${good}`}>
        {ch === null || ch === undefined ? 'no previous window' : `${ch > 0 ? '+' : ''}${ch.toFixed(d)} vs previous`}
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
