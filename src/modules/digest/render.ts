import type { ProjectWeek } from './figures.js';

export const CHART_CID = 'visibility-chart@sightline';

const pct = (v: number | null) => (v === null ? 'unmeasured' : `${v.toFixed(1)}%`);
const ci = (c: [number, number] | null) => (c ? ` (95% interval ${c[0].toFixed(1)} to ${c[1].toFixed(1)})` : '');
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const arrow = (c: string | null) => (c === 'up' ? '▲' : c === 'down' ? '▼' : '');

function projectLines(p: ProjectWeek): string[] {
  const lines = [
    `${p.brand} (${p.from} to ${p.to}, ${p.responses} answers)`,
    `  Visibility: ${pct(p.own.visibility)}${ci(p.own.visibility_ci)}; the week before: ${pct(p.own.previous)}${p.own.change === 'up' || p.own.change === 'down' ? ` (significant ${p.own.change === 'up' ? 'rise' : 'drop'})` : ''}`,
    `  Average position: ${p.position === null ? 'unmeasured' : p.position.toFixed(2)}; sentiment: ${p.sentiment === null ? 'unmeasured' : p.sentiment.toFixed(1)}`,
  ];
  const movers = p.movers.filter((m) => !m.is_own_brand);
  lines.push(movers.length ? `  Significant movers: ${movers.map((m) => `${m.name} ${arrow(m.change)} ${pct(m.previous)} → ${pct(m.visibility)}`).join('; ')}` : '  Significant movers: none this week');
  lines.push(p.alerts.length ? `  Alerts fired: ${p.alerts.length} (${p.alerts.map((a) => `${a.metric} ${a.condition}`).join(', ')})` : '  Alerts fired: none');
  return lines;
}

/** The digest's subject, plain text and HTML; the HTML shows the chart as `cid:` (an inline attachment). */
export function renderDigest(weeks: ProjectWeek[], dashboardUrl: string, imageSrc = `cid:${CHART_CID}`): { subject: string; text: string; html: string } {
  const first = weeks[0];
  const subject = first
    ? `Sightline weekly: ${first.brand} visibility ${pct(first.own.visibility)}${weeks.length > 1 ? ` and ${weeks.length - 1} more project${weeks.length > 2 ? 's' : ''}` : ''} (${first.from} to ${first.to})`
    : 'Sightline weekly: no projects yet';
  const text = [
    'Your week in AI answers.',
    '',
    ...weeks.flatMap((p) => [...projectLines(p), '']),
    'Changes marked significant differ at the 95% level; others are inside the noise.',
    `Open the dashboard: ${dashboardUrl}`,
    '',
  ].join('\n');
  const section = (p: ProjectWeek) => {
    const movers = p.movers.filter((m) => !m.is_own_brand);
    return `<h2 style="font-size:17px;margin:24px 0 4px">${escapeHtml(p.brand)}</h2>
<p style="margin:0;color:#6b7280">${p.from} to ${p.to} · ${p.responses} answers</p>
<table style="border-collapse:collapse;margin-top:8px">
<tr><td style="padding:2px 12px 2px 0">Visibility</td><td><b>${pct(p.own.visibility)}</b>${escapeHtml(ci(p.own.visibility_ci))}; week before ${pct(p.own.previous)} ${arrow(p.own.change)}</td></tr>
<tr><td style="padding:2px 12px 2px 0">Average position</td><td>${p.position === null ? 'unmeasured' : p.position.toFixed(2)}</td></tr>
<tr><td style="padding:2px 12px 2px 0">Sentiment</td><td>${p.sentiment === null ? 'unmeasured' : p.sentiment.toFixed(1)}</td></tr>
<tr><td style="padding:2px 12px 2px 0">Significant movers</td><td>${movers.length ? movers.map((m) => `${escapeHtml(m.name)} ${arrow(m.change)} ${pct(m.previous)} → ${pct(m.visibility)}`).join('<br>') : 'none this week'}</td></tr>
<tr><td style="padding:2px 12px 2px 0">Alerts fired</td><td>${p.alerts.length ? p.alerts.map((a) => escapeHtml(`${a.metric} ${a.condition}`)).join(', ') : 'none'}</td></tr>
</table>`;
  };
  const html = `<!doctype html><html><body style="font-family:system-ui,Arial,sans-serif;color:#111827;max-width:680px">
<h1 style="font-size:20px">Your week in AI answers</h1>
${weeks.length ? `<img src="${imageSrc}" alt="Visibility per day over four weeks" width="640" style="max-width:100%;height:auto"/>` : ''}
${weeks.map(section).join('\n')}
<p style="color:#6b7280;font-size:13px;margin-top:24px">Changes marked ▲ or ▼ differ at the 95% level; others are inside the noise.</p>
<p><a href="${escapeHtml(dashboardUrl)}">Open the dashboard</a></p></body></html>`;
  return { subject, text, html };
}
