import type { Interval } from '../../lib/statistics.js';
import type { RuleWindow } from './figures.js';
import type { Condition, Metric } from './schema.js';

/** An alert event as every channel tells it. */
export interface AlertNotice {
  event_id: string;
  alert_id: string;
  alert_name: string;
  project_id: string;
  brand: string;
  metric: Metric;
  condition: Condition;
  threshold: number | null;
  value: number;
  previous: number | null;
  p_value: number | null;
  interval: Interval | null;
  window: RuleWindow;
  names?: string[];
  fired_at: string;
  /** PUBLIC_URL/projects/{id}/alerts: never a request's Host. */
  url: string;
  /** A sample sent by the test endpoint. */
  test?: boolean;
}

const LABEL: Record<Metric, string> = {
  visibility: 'Visibility',
  share_of_voice: 'Share of voice',
  position: 'Average position',
  sentiment: 'Sentiment',
  own_citations: 'Own-domain citations',
  new_competitor: 'New competitors',
  new_cited_domain: 'Newly cited domains',
};

const PERCENT: readonly Metric[] = ['visibility', 'share_of_voice', 'own_citations'];
const fmt = (metric: Metric, v: number | null) => (v === null ? 'unmeasured' : PERCENT.includes(metric) ? `${v.toFixed(1)}%` : v.toFixed(metric === 'position' ? 2 : 1));

const WHAT: Record<Condition, string> = {
  significant_drop: 'dropped significantly',
  significant_rise: 'rose significantly',
  significant_change: 'changed significantly',
  below: 'is below',
  above: 'is above',
};

/** One line: what happened, in words a marketer reads. */
export function headline(n: AlertNotice): string {
  if (n.metric === 'new_competitor' || n.metric === 'new_cited_domain') {
    const what = n.metric === 'new_competitor' ? 'new brand' : 'newly cited domain';
    return `${n.brand}: ${n.value} ${what}${n.value === 1 ? '' : 's'} in the answers (${(n.names ?? []).slice(0, 5).join(', ')})`;
  }
  const cond = n.condition === 'below' || n.condition === 'above' ? `${WHAT[n.condition]} ${fmt(n.metric, n.threshold)}` : WHAT[n.condition];
  return `${n.brand}: ${LABEL[n.metric]} ${cond}: ${fmt(n.metric, n.value)}`;
}

/** The figures, each on a line: value with its 95% interval, the window before, the p-value, the windows compared. */
export function factLines(n: AlertNotice): string[] {
  const w = n.window;
  if (n.metric === 'new_competitor' || n.metric === 'new_cited_domain') {
    return [`Found in the answers of ${w.start_date} to ${w.end_date}:`, ...(n.names ?? []).map((x) => `- ${x}`)];
  }
  const lines = [`${LABEL[n.metric]}: ${fmt(n.metric, n.value)}${n.interval ? ` (95% interval ${fmt(n.metric, n.interval[0])} to ${fmt(n.metric, n.interval[1])})` : ''}`];
  lines.push(`Window: ${w.start_date} to ${w.end_date}, ${w.responses} answers`);
  lines.push(`Window before: ${w.previous_start_date} to ${w.previous_end_date}, ${w.previous_responses} answers: ${fmt(n.metric, n.previous)}`);
  if (n.p_value !== null) lines.push(`p-value of the change: ${n.p_value < 0.0001 ? '< 0.0001' : n.p_value.toFixed(4)}`);
  return lines;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function alertEmail(n: AlertNotice): { subject: string; text: string; html: string } {
  const prefix = n.test ? '[Test] ' : '';
  const subject = `${prefix}Sightline alert "${n.alert_name}": ${headline(n)}`.slice(0, 250);
  const facts = factLines(n);
  const intro = n.test ? `This is a test of the alert "${n.alert_name}" for ${n.brand}: the figures below are a sample.` : `The alert "${n.alert_name}" for ${n.brand} fired.`;
  const text = [intro, '', headline(n), '', ...facts, '', `Open the alerts of ${n.brand}: ${n.url}`, ''].join('\n');
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#1f2937">
<p>${escapeHtml(intro)}</p><h2 style="font-size:18px">${escapeHtml(headline(n))}</h2>
<ul>${facts.map((l) => `<li>${escapeHtml(l.replace(/^- /, ''))}</li>`).join('')}</ul>
<p><a href="${escapeHtml(n.url)}">Open the alerts of ${escapeHtml(n.brand)}</a></p></body></html>`;
  return { subject, text, html };
}

/** Slack Block Kit: the headline, the figure with its interval, the windows, a link. */
export function alertSlack(n: AlertNotice): { text: string; blocks: unknown[] } {
  const mrkdwn = (s: string) => s.replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]!);
  const title = `${n.test ? '[Test] ' : ''}${headline(n)}`;
  return {
    text: title,
    blocks: [
      { type: 'header', text: { type: 'plain_text', text: title.slice(0, 150) } },
      { type: 'section', text: { type: 'mrkdwn', text: mrkdwn(factLines(n).join('\n')).slice(0, 3000) } },
      {
        type: 'actions',
        elements: [{ type: 'button', text: { type: 'plain_text', text: 'Open in Sightline' }, url: n.url }],
      },
      { type: 'context', elements: [{ type: 'mrkdwn', text: mrkdwn(`Alert "${n.alert_name}" · fired ${n.fired_at}`) }] },
    ],
  };
}

/** The `data` of a registered-webhook `alert.triggered` event. */
export function alertWebhookData(n: AlertNotice): Record<string, unknown> {
  return { ...n };
}
