import { useEffect, useRef, useState } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { TableWrap } from './ui';

// Line charts on uPlot (canvas, ~50 KB, draws a year of days per brand in a few ms). Every
// chart has its numbers in a table beside it (for screen readers, tests and CSV).

/** The categorical palette's tokens (styles.css): six muted hues, then grey for the rest. */
const CATEGORY_TOKENS = ['--cat-1', '--cat-2', '--cat-3', '--cat-4', '--cat-5', '--cat-6'];

export interface Line {
  label: string;
  values: Array<number | null>;
  /** 95% interval per point, drawn as a band (only the own brand's when a line is the own brand). */
  band?: Array<[number, number] | null>;
  /** The own brand: thick, in the accent colour, with its band. */
  own?: boolean;
}

/** A colour token's value in the current theme (canvas strokes need real colours). */
export function token(name: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || '#888888';
}

/**
 * Each line's colour token: the own brand the accent; the others the categorical hues in
 * order, then grey. A chart without an own brand (engines, domains) uses the hues only.
 */
export function lineTokens(lines: ReadonlyArray<Pick<Line, 'own'>>): string[] {
  let next = 0;
  return lines.map((line) => (line.own ? '--accent' : (CATEGORY_TOKENS[next++] ?? '--cat-other')));
}

function alpha(color: string, opacity: number): string {
  if (!/^#[0-9a-f]{6}$/i.test(color)) return color;
  const n = Number.parseInt(color.slice(1), 16);
  return `rgba(${(n >> 16) & 255},${(n >> 8) & 255},${n & 255},${opacity})`;
}

/** The colour scheme as a state: charts redraw in the other theme's colours when it flips. */
function useColorScheme(): string {
  const query = typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : null;
  const [scheme, setScheme] = useState(query?.matches ? 'dark' : 'light');
  useEffect(() => {
    if (!query) return;
    const onChange = () => setScheme(query.matches ? 'dark' : 'light');
    query.addEventListener('change', onChange);
    return () => query.removeEventListener('change', onChange);
  }, []);
  return scheme;
}

/** A tooltip that follows the cursor and lists every series at that day, as text nodes. */
function tooltipPlugin(dates: string[], labels: string[], colors: string[], unit: string): uPlot.Plugin {
  let tip: HTMLDivElement;
  return {
    hooks: {
      init: (u) => {
        tip = document.createElement('div');
        tip.className = 'chart-tip';
        tip.hidden = true;
        u.over.appendChild(tip);
      },
      setCursor: (u) => {
        const i = u.cursor.idx;
        if (i === null || i === undefined || u.cursor.left === undefined || u.cursor.left < 0) {
          tip.hidden = true;
          return;
        }
        const rows = labels
          .map((label, k) => ({ label, color: colors[k] ?? '', value: (u.data[k + 1]?.[i] ?? null) as number | null }))
          .filter((r) => r.value !== null)
          .sort((a, b) => (b.value ?? 0) - (a.value ?? 0));
        tip.replaceChildren();
        const head = document.createElement('div');
        head.className = 'chart-tip-date';
        head.textContent = dates[i] ?? '';
        tip.appendChild(head);
        for (const r of rows) {
          const row = document.createElement('div');
          row.className = 'chart-tip-row';
          const swatch = document.createElement('span');
          swatch.className = 'legend-swatch';
          swatch.style.background = r.color;
          const name = document.createElement('span');
          name.textContent = r.label;
          const value = document.createElement('span');
          value.className = 'num';
          value.textContent = `${(r.value ?? 0).toFixed(1)}${unit}`;
          row.append(swatch, name, value);
          tip.appendChild(row);
        }
        if (!rows.length) {
          tip.hidden = true;
          return;
        }
        tip.hidden = false;
        const left = u.cursor.left;
        const flip = left > u.over.clientWidth / 2;
        tip.style.left = flip ? '' : `${left + 12}px`;
        tip.style.right = flip ? `${u.over.clientWidth - left + 12}px` : '';
        tip.style.top = '8px';
      },
    },
  };
}

export function LineChart(props: { title: string; dates: string[]; lines: Line[]; yLabel?: string; yRange?: [number, number]; height?: number; legend?: boolean }) {
  const host = useRef<HTMLDivElement>(null);
  const scheme = useColorScheme();
  useEffect(() => {
    const el = host.current;
    if (!el) return;
    el.dataset.drawn = 'false';
    const xs = props.dates.map((d) => Date.parse(`${d}T00:00:00Z`) / 1000);
    const data: Array<Array<number | null>> = [xs];
    const series: uPlot.Series[] = [{}];
    const bands: uPlot.Band[] = [];
    const hasOwn = props.lines.some((line) => line.own);
    // The own brand is drawn last, so its line lies on top of the others.
    const lines = [...props.lines].sort((a, b) => Number(!!a.own) - Number(!!b.own));
    const tokens = lineTokens(props.lines);
    const tokenOf = new Map(props.lines.map((line, i) => [line, tokens[i] ?? '--cat-other']));
    const colors = lines.map((line) => token(tokenOf.get(line) ?? '--cat-other'));
    lines.forEach((line, i) => {
      const color = colors[i] ?? '#888888';
      data.push(line.values);
      // With an own brand, it leads (thick) and the others stay thin behind it.
      const width = hasOwn ? (line.own ? 3 : 1.5) : 2;
      series.push({ label: line.label, stroke: color, width, spanGaps: false, points: { show: props.dates.length < 40, size: line.own ? 6 : 4 } });
    });
    lines.forEach((line, i) => {
      if (!line.band || (hasOwn && !line.own)) return;
      const color = colors[i] ?? '#888888';
      const hi = data.push(line.band.map((b) => (b ? b[1] : null))) - 1;
      const lo = data.push(line.band.map((b) => (b ? b[0] : null))) - 1;
      series.push({ label: `${line.label} 95% high`, stroke: 'transparent', points: { show: false } });
      series.push({ label: `${line.label} 95% low`, stroke: 'transparent', points: { show: false } });
      bands.push({ series: [hi, lo], fill: alpha(color, hasOwn ? 0.16 : 0.1) });
    });
    const width = Math.max(280, el.clientWidth || 600);
    const axis = { stroke: token('--muted'), grid: { stroke: token('--line'), width: 1 }, ticks: { show: false }, font: '12px "Inter Variable", system-ui, sans-serif' };
    const unit = props.yLabel === '%' ? '%' : '';
    const opts: uPlot.Options = {
      width,
      height: props.height ?? 260,
      series,
      bands,
      legend: { show: props.legend !== false, live: false },
      cursor: { drag: { x: false, y: false }, points: { size: 6 } },
      scales: { x: { time: true }, y: props.yRange ? { range: props.yRange } : { auto: true } },
      axes: [
        { ...axis, grid: { show: false } },
        { ...axis, size: 44, values: (_u: uPlot, ticks: number[]) => ticks.map((t) => `${t}${unit}`) },
      ],
      plugins: [tooltipPlugin(props.dates, lines.map((line) => line.label), colors, unit)],
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
  }, [props.dates, props.lines, props.title, props.yLabel, props.yRange?.[0], props.yRange?.[1], props.height, props.legend, scheme]);
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
  const tokens = lineTokens(props.lines);
  const rows = props.lines
    .map((l, k) => ({ label: l.label, own: !!l.own, value: l.values[i] ?? null, band: l.band?.[i] ?? null, color: `var(${tokens[k]})` }))
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
            <li key={r.label} data-brand={r.label} class={r.own ? 'own' : undefined}>
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
export function Sparkline({ values, label, max, width = 80, height = 20 }: { values: Array<number | null>; label: string; max?: number; width?: number; height?: number }) {
  const pts = values.map((v, i) => (v === null ? null : ([i, v] as const))).filter((p): p is readonly [number, number] => p !== null);
  const w = width;
  const h = height;
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
      {pts.length > 1 ? <polyline points={d} fill="none" class="spark-line" stroke-width="1.5" /> : null}
      <circle cx={x(li).toFixed(1)} cy={y(lv).toFixed(1)} r="2" class="spark-dot" />
    </svg>
  );
}
