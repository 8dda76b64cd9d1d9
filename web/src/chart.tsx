import { useEffect, useRef, useState } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { TableWrap } from './ui';

// Line charts on uPlot (canvas, ~50 KB, draws a year of days per brand in a few ms). Every
// chart has its numbers in a table beside it (for screen readers, tests and CSV).

export const PALETTE = ['#1f5fbf', '#c2410c', '#15803d', '#7e22ce', '#b91c1c', '#0e7490', '#a16207', '#be185d', '#4d7c0f', '#475569'];

export interface Line {
  label: string;
  values: Array<number | null>;
  /** 95% interval per point, drawn as a band. */
  band?: Array<[number, number] | null>;
}

function alpha(hex: string, a: number): string {
  const n = Number.parseInt(hex.slice(1), 16);
  return `rgba(${(n >> 16) & 255},${(n >> 8) & 255},${n & 255},${a})`;
}

export function LineChart(props: { title: string; dates: string[]; lines: Line[]; yLabel?: string; yRange?: [number, number]; height?: number }) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = host.current;
    if (!el) return;
    el.dataset.drawn = 'false';
    const xs = props.dates.map((d) => Date.parse(`${d}T00:00:00Z`) / 1000);
    const data: Array<Array<number | null>> = [xs];
    const series: uPlot.Series[] = [{}];
    const bands: uPlot.Band[] = [];
    props.lines.forEach((line, i) => {
      const color = PALETTE[i % PALETTE.length];
      data.push(line.values);
      series.push({ label: line.label, stroke: color, width: 2, spanGaps: false, points: { show: props.dates.length < 40 } });
    });
    props.lines.forEach((line, i) => {
      if (!line.band) return;
      const color = PALETTE[i % PALETTE.length];
      const hi = data.push(line.band.map((b) => (b ? b[1] : null))) - 1;
      const lo = data.push(line.band.map((b) => (b ? b[0] : null))) - 1;
      series.push({ label: `${line.label} 95% high`, stroke: 'transparent', points: { show: false } });
      series.push({ label: `${line.label} 95% low`, stroke: 'transparent', points: { show: false } });
      bands.push({ series: [hi, lo], fill: alpha(color, 0.12) });
    });
    const width = Math.max(280, el.clientWidth || 600);
    const opts: uPlot.Options = {
      width,
      height: props.height ?? 260,
      series,
      bands,
      legend: { show: true, live: false },
      cursor: { drag: { x: false, y: false } },
      scales: { x: { time: true }, y: props.yRange ? { range: props.yRange } : { auto: true } },
      axes: [{}, { label: props.yLabel, size: 50 }],
      hooks: {
        draw: [
          () => {
            el.dataset.drawn = 'true';
            performance.mark(`chart-drawn:${props.title}`);
          },
        ],
      },
    };
    const plot = new uPlot(opts, data as uPlot.AlignedData, el);
    // Band series are not for the legend: hide their entries.
    el.querySelectorAll<HTMLElement>('.u-legend .u-series').forEach((row) => {
      if (/95% (high|low)$/.test(row.textContent?.trim() ?? '')) row.hidden = true;
    });
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(280, el.clientWidth), height: props.height ?? 260 }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
    // The range by value: a caller's new [0, 100] on each render must not rebuild the chart.
  }, [props.dates, props.lines, props.title, props.yLabel, props.yRange?.[0], props.yRange?.[1], props.height]);
  const named = props.lines.map((l) => l.label).join(', ');
  return (
    <>
      <div
        ref={host}
        class="chart"
        role="img"
        aria-label={`${props.title}: ${props.lines.length} series (${named}), ${props.dates[0] ?? ''} to ${props.dates[props.dates.length - 1] ?? ''}. The figures are in the table that follows.`}
        data-chart={props.title}
      />
      <ChartTable {...props} />
    </>
  );
}

/**
 * Day one: a single day with answers drawn as one bar per series (with its 95% interval),
 * labelled "first data today", instead of a lone dot at the edge of a 30-day axis.
 */
export function FirstDayBars(props: { title: string; date: string; dates: string[]; lines: Line[]; unit?: string }) {
  const i = props.dates.indexOf(props.date);
  const today = new Date().toISOString().slice(0, 10);
  const rows = props.lines
    .map((l, k) => ({ label: l.label, value: l.values[i] ?? null, band: l.band?.[i] ?? null, color: PALETTE[k % PALETTE.length] }))
    .filter((r) => r.value !== null);
  return (
    <>
      <div class="first-day" data-chart={props.title} data-first-day={props.date}>
        <p class="small">
          <strong>{props.date === today ? 'First data today' : `First data on ${props.date}`}</strong>
          <span class="muted"> · the line over time appears from the second day of answers</span>
        </p>
        <ul class="bars">
          {rows.map((r) => (
            <li key={r.label} data-brand={r.label}>
              <span class="bar-label">{r.label}</span>
              <span class="bar-track" aria-hidden="true">
                <span class="bar-fill" style={{ width: `${Math.max(0, Math.min(100, r.value ?? 0))}%`, background: r.color }} />
              </span>
              <span class="bar-value">
                {(r.value ?? 0).toFixed(1)}
                {props.unit ?? ''}
                {r.band ? <span class="muted small"> ({r.band[0].toFixed(1)}–{r.band[1].toFixed(1)})</span> : null}
              </span>
            </li>
          ))}
        </ul>
      </div>
      <ChartTable title={props.title} dates={props.dates} lines={props.lines} yLabel={props.unit} />
    </>
  );
}

/**
 * The chart's text alternative: every point in a table (date × series, with the 95%
 * interval), inside a disclosure that builds the table only when opened, so a year of days
 * costs nothing until someone asks for it.
 */
function ChartTable(props: { title: string; dates: string[]; lines: Line[]; yLabel?: string }) {
  const [open, setOpen] = useState(false);
  const unit = props.yLabel === '%' ? '%' : '';
  return (
    <details class="chart-table" data-chart-table={props.title} onToggle={(e) => setOpen((e.currentTarget as HTMLDetailsElement).open)}>
      <summary>Table of “{props.title}”</summary>
      {open ? (
        <TableWrap label={`${props.title}: table`}>
          <table>
            <caption class="visually-hidden">{props.title}</caption>
            <thead>
              <tr>
                <th scope="col">Date</th>
                {props.lines.map((l) => (
                  <th scope="col" key={l.label}>
                    {l.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {props.dates.map((d, i) => (
                <tr key={d}>
                  <th scope="row">{d}</th>
                  {props.lines.map((l) => {
                    const v = l.values[i];
                    const b = l.band?.[i];
                    return (
                      <td key={l.label}>
                        {v === null || v === undefined ? '–' : `${v.toFixed(1)}${unit}`}
                        {b ? <span class="muted small"> ({b[0].toFixed(1)}–{b[1].toFixed(1)})</span> : null}
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      ) : null}
    </details>
  );
}

/**
 * A sparkline as inline SVG (a table row each, too many for canvases). `max` fixes the top
 * of the scale (100 for percentages, so rows compare); days without data are gaps in the
 * values and skipped by the line. The values ride along in data-values (tests, CSV).
 */
export function Sparkline({ values, label, max }: { values: Array<number | null>; label: string; max?: number }) {
  const pts = values.map((v, i) => (v === null ? null : ([i, v] as const))).filter((p): p is readonly [number, number] => p !== null);
  const w = 80;
  const h = 20;
  const top = max ?? Math.max(...pts.map((p) => p[1]), 1);
  const x = (i: number) => (values.length > 1 ? (i / (values.length - 1)) * w : w / 2);
  const y = (v: number) => h - 1 - (Math.min(v, top) / top) * (h - 2);
  const attrs = { class: 'spark', 'data-sparkline': label, 'data-values': values.map((v) => (v === null ? '' : String(v))).join(',') };
  if (pts.length === 0) {
    return (
      <span {...attrs} class="muted">
        no answers
      </span>
    );
  }
  const d = pts.map(([i, v]) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
  const [li, lv] = pts[pts.length - 1];
  return (
    <svg {...attrs} width={w} height={h} viewBox={`0 0 ${w} ${h}`} role="img" aria-label={label}>
      {pts.length > 1 ? <polyline points={d} fill="none" stroke="#1f5fbf" stroke-width="1.5" /> : null}
      <circle cx={x(li).toFixed(1)} cy={y(lv).toFixed(1)} r="1.8" fill="#1f5fbf" />
    </svg>
  );
}
