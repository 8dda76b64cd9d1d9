import type { FastifyInstance } from 'fastify';
import { servicesOf } from '../http/request.js';
import { visibilityChartSvg } from '../modules/digest/chart.js';
import { reportData, type ReportData } from '../modules/reports/page-data.js';
import { openReport } from '../modules/reports/service.js';

// The shared report at /r/{token}: a read-only, print-ready overview drawn on the server
// (no sign-in, no script), styled by report.css beside it (relative URL, same origin).

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const pct = (v: number | null | undefined, responses?: number) => (v === null || v === undefined || responses === 0 ? 'unmeasured' : `${v.toFixed(1)}%`);
const ci = (c: [number, number] | null | undefined) => (c ? `${c[0].toFixed(1)}–${c[1].toFixed(1)}` : '—');
const num = (v: number | null | undefined, digits: number) => (v === null || v === undefined ? '—' : v.toFixed(digits));

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${esc(title)}</title><link rel="stylesheet" href="report.css"></head><body>${body}</body></html>`;
}

export function reportHtml(d: ReportData): string {
  const brandRows = d.brands
    .map(
      (b) =>
        `<tr${b.own ? ' class="own"' : ''}><th scope="row">${esc(b.name)}${b.own ? ' <span class="tag">you</span>' : ''}</th><td>${pct(b.metrics?.visibility, b.metrics?.responses)}</td><td class="ci">${ci(b.metrics?.visibility_ci)}</td><td>${b.metrics?.responses ? `${b.metrics.share_of_voice.toFixed(1)}%` : 'unmeasured'}</td><td>${num(b.metrics?.position, 2)}</td><td>${num(b.metrics?.sentiment, 0)}</td></tr>`,
    )
    .join('');
  const promptRows = d.prompts
    .map((p) => `<tr><th scope="row">${esc(p.content)}</th><td>${pct(p.visibility, p.responses)}</td><td class="ci">${ci(p.visibility_ci)}</td><td>${p.responses}</td></tr>`)
    .join('');
  const chart = visibilityChartSvg(d.dates, d.series.slice(0, 5).map((s) => ({ label: s.name, values: s.visibility })));
  return page(
    `${d.brand}: AI visibility report`,
    `<main>
<header><p class="kicker">Sightline report · read-only</p><h1>${esc(d.brand)} in AI answers</h1>
<p class="period">${d.from} to ${d.to} · link valid until ${d.expiresAt.toISOString().slice(0, 10)}</p></header>
<section><h2>Visibility per day</h2><figure class="chart">${chart}</figure></section>
<section><h2>Brands</h2><table><thead><tr><th scope="col">Brand</th><th scope="col">Visibility</th><th scope="col">95% interval</th><th scope="col">Share of voice</th><th scope="col">Avg. position</th><th scope="col">Sentiment</th></tr></thead><tbody>${brandRows}</tbody></table></section>
<section><h2>Prompts</h2>${d.prompts.length ? `<table><thead><tr><th scope="col">Prompt</th><th scope="col">Visibility</th><th scope="col">95% interval</th><th scope="col">Answers</th></tr></thead><tbody>${promptRows}</tbody></table>` : '<p>No active prompts.</p>'}</section>
<footer><p>Visibility: the share of answers naming the brand. Intervals are 95% (Wilson); a figure resting on no answers reads “unmeasured”.</p></footer>
</main>`,
  );
}

const NOT_FOUND = page(
  'Report not found',
  '<main class="missing"><h1>Report not found</h1><p>This report link does not exist, has expired or was revoked. Ask whoever shared it for a new link.</p></main>',
);

export const REPORT_CSS = `:root{color-scheme:light dark;--fg:#111827;--muted:#6b7280;--line:#e5e7eb;--bg:#fff;--accent:#4f46e5}
@media (prefers-color-scheme:dark){:root{--fg:#f3f4f6;--muted:#9ca3af;--line:#374151;--bg:#111827}}
*{box-sizing:border-box}body{margin:0;background:var(--bg);color:var(--fg);font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{max-width:960px;margin:0 auto;padding:32px 20px}h1{font-size:28px;margin:4px 0}h2{font-size:18px;margin:32px 0 8px}
.kicker{color:var(--accent);font-weight:600;margin:0;text-transform:uppercase;font-size:12px;letter-spacing:.06em}.period{color:var(--muted);margin:0}
table{width:100%;border-collapse:collapse;font-variant-numeric:tabular-nums}th,td{text-align:left;padding:8px 10px;border-bottom:1px solid var(--line);vertical-align:top}
thead th{color:var(--muted);font-weight:600;font-size:13px}td{white-space:nowrap}tbody th{font-weight:500}.ci{color:var(--muted)}
tr.own th{color:var(--accent)}.tag{font-size:11px;border:1px solid var(--accent);border-radius:8px;padding:0 6px;margin-left:4px}
.chart{margin:0;background:#fff;border:1px solid var(--line);border-radius:8px;padding:8px}.chart svg{width:100%;height:auto;display:block}
footer{color:var(--muted);font-size:13px;margin-top:32px}.missing{text-align:center;padding-top:15vh}
@media (max-width:640px){main{padding:20px 12px}table{font-size:13px}th,td{padding:6px 4px}td{white-space:normal}}
@media print{:root{--fg:#000;--muted:#444;--line:#bbb;--bg:#fff}main{max-width:none;padding:0}section{break-inside:avoid}tr{break-inside:avoid}
.chart{border:none;padding:0}a{color:inherit;text-decoration:none}@page{margin:16mm}}`;

/** GET /r/{token} and its stylesheet; a revoked, expired or unknown token is a 404 page. */
export function registerReportPage(web: FastifyInstance): void {
  web.get('/r/report.css', { schema: { hide: true } }, async (_req, reply) => reply.type('text/css; charset=utf-8').header('cache-control', 'public, max-age=3600').send(REPORT_CSS));
  web.get<{ Params: { token: string } }>('/r/:token', { schema: { hide: true } }, async (req, reply) => {
    reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer').header('x-robots-tag', 'noindex');
    const open = await openReport(servicesOf(req), req.params.token);
    if (!open) return reply.status(404).type('text/html; charset=utf-8').send(NOT_FOUND);
    return reply.type('text/html; charset=utf-8').send(reportHtml(await reportData(open)));
  });
}
