import { useEffect, useRef, useState } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { type ChartMarker, markerLabels, markersPlugin } from './chart-markers';
import { ListTable } from './list-table';

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
  const rgb = Number.parseInt(color.slice(1), 16);
  return `rgba(${(rgb >> 16) & 255},${(rgb >> 8) & 255},${rgb & 255},${opacity})`;
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
function tooltipPlugin(dates: string[], labels: string[], colors: string[], unit: string, markers: ChartMarker[] = []): uPlot.Plugin {
  let tip: HTMLDivElement;
  return {
    hooks: {
      init: (plot) => {
        tip = document.createElement('div');
        tip.className = 'chart-tip';
        tip.hidden = true;
        plot.over.appendChild(tip);
      },
      setCursor: (plot) => {
        const i = plot.cursor.idx;
        if (i === null || i === undefined || plot.cursor.left === undefined || plot.cursor.left < 0) {
          tip.hidden = true;
          return;
        }
        const rows = labels
          .map((label, seriesIndex) => ({ label, color: colors[seriesIndex] ?? '', value: (plot.data[seriesIndex + 1]?.[i] ?? null) as number | null }))
          .filter((row) => row.value !== null)
          .sort((a, b) => (b.value ?? 0) - (a.value ?? 0));
        tip.replaceChildren();
        const head = document.createElement('div');
        head.className = 'chart-tip-date';
        head.textContent = dates[i] ?? '';
        tip.appendChild(head);
        for (const tooltipRow of rows) {
          const row = document.createElement('div');
          row.className = 'chart-tip-row';
          const swatch = document.createElement('span');
          swatch.className = 'legend-swatch';
          swatch.style.background = tooltipRow.color;
          const name = document.createElement('span');
          name.textContent = tooltipRow.label;
          const value = document.createElement('span');
          value.className = 'num';
          value.textContent = `${(tooltipRow.value ?? 0).toFixed(1)}${unit}`;
          row.append(swatch, name, value);
          tip.appendChild(row);
        }
        for (const label of markerLabels(markers, dates[i] ?? '')) {
          const note = document.createElement('div');
          note.className = 'chart-tip-marker';
          note.textContent = label;
          tip.appendChild(note);
        }
        if (!rows.length) {
          tip.hidden = true;
          return;
        }
        tip.hidden = false;
        const left = plot.cursor.left;
        const flip = left > plot.over.clientWidth / 2;
        tip.style.left = flip ? '' : `${left + 12}px`;
        tip.style.right = flip ? `${plot.over.clientWidth - left + 12}px` : '';
        tip.style.top = '8px';
      },
    },
  };
}

export function LineChart(props: {
  title: string;
  dates: string[];
  lines: Line[];
  yLabel?: string;
  yRange?: [number, number];
  height?: number;
  legend?: boolean;
  /** Days to mark with a dashed line (the days an engine changed model). */
  markers?: ChartMarker[];
}) {
  const host = useRef<HTMLDivElement>(null);
  const scheme = useColorScheme();
  useEffect(() => {
    const container = host.current;
    if (!container) return;
    container.dataset.drawn = 'false';
    const timestamps = props.dates.map((date) => Date.parse(`${date}T00:00:00Z`) / 1000);
    const data: Array<Array<number | null>> = [timestamps];
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
      const upperIndex = data.push(line.band.map((interval) => (interval ? interval[1] : null))) - 1;
      const lowerIndex = data.push(line.band.map((interval) => (interval ? interval[0] : null))) - 1;
      series.push({ label: `${line.label} 95% high`, stroke: 'transparent', points: { show: false } });
      series.push({ label: `${line.label} 95% low`, stroke: 'transparent', points: { show: false } });
      bands.push({ series: [upperIndex, lowerIndex], fill: alpha(color, hasOwn ? 0.16 : 0.1) });
    });
    const width = Math.max(280, container.clientWidth || 600);
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
        { ...axis, size: 44, values: (_u: uPlot, ticks: number[]) => ticks.map((tick) => `${tick}${unit}`) },
      ],
      plugins: [tooltipPlugin(props.dates, lines.map((line) => line.label), colors, unit, props.markers), markersPlugin(props.markers ?? [], token('--muted'))],
      hooks: {
        draw: [
          () => {
            container.dataset.drawn = 'true';
            performance.mark(`chart-drawn:${props.title}`);
          },
        ],
      },
    };
    const plot = new uPlot(opts, data as uPlot.AlignedData, container);
    // Band series are not for the legend: hide their entries.
    container.querySelectorAll<HTMLElement>('.u-legend .u-series').forEach((row) => {
      if (/95% (high|low)$/.test(row.textContent?.trim() ?? '')) row.hidden = true;
    });
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(280, container.clientWidth), height: props.height ?? 260 }));
    resize.observe(container);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
    // The range by value: a caller's new [0, 100] on each render must not rebuild the chart.
  }, [props.dates, props.lines, props.title, props.yLabel, props.yRange?.[0], props.yRange?.[1], props.height, props.legend, props.markers, scheme]);
  const named = props.lines.map((line) => line.label).join(', ');
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
    .map((line, lineIndex) => ({ label: line.label, own: !!line.own, value: line.values[i] ?? null, band: line.band?.[i] ?? null, color: `var(${tokens[lineIndex]})` }))
    .filter((row) => row.value !== null);
  return (
    <>
      <div class="first-day" data-chart={props.title} data-first-day={props.date}>
        <p class="small">
          <strong>{props.date === today ? 'First data today' : `First data on ${props.date}`}</strong>
          <span class="muted"> · the line over time appears from the second day of answers</span>
        </p>
        <ul class="bars">
          {rows.map((row) => (
            <li key={row.label} data-brand={row.label} class={row.own ? 'own' : undefined}>
              <span class="bar-label">{row.label}</span>
              <span class="bar-track" aria-hidden="true">
                <span class="bar-fill" style={{ width: `${Math.max(0, Math.min(100, row.value ?? 0))}%`, background: row.color }} />
              </span>
              <span class="bar-value">
                {(row.value ?? 0).toFixed(1)}
                {props.unit ?? ''}
                {row.band ? <span class="muted small"> ({row.band[0].toFixed(1)}–{row.band[1].toFixed(1)})</span> : null}
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
    <details class="chart-table" data-chart-table={props.title} onToggle={(event) => setOpen((event.currentTarget as HTMLDetailsElement).open)}>
      <summary>Table of “{props.title}”</summary>
      {open ? (
        <ListTable
          name="chart"
          label={`${props.title}: table`}
          caption={props.title}
          rows={props.dates.map((date, i) => ({ date, i }))}
          rowKey={(row) => row.date}
          rowHeader="date"
          columns={[
            { key: 'date', header: 'Date', cell: (row) => row.date },
            ...props.lines.map((line) => ({
              key: line.label,
              header: line.label,
              numeric: true,
              cell: (row: { date: string; i: number }) => {
                const value = line.values[row.i];
                const interval = line.band?.[row.i];
                return (
                  <>
                    {value === null || value === undefined ? '–' : `${value.toFixed(1)}${unit}`}
                    {interval ? <span class="muted small"> ({interval[0].toFixed(1)}–{interval[1].toFixed(1)})</span> : null}
                  </>
                );
              },
            })),
          ]}
        />
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
  const pts = values.map((value, i) => (value === null ? null : ([i, value] as const))).filter((point): point is readonly [number, number] => point !== null);
  const chartWidth = width;
  const chartHeight = height;
  const top = max ?? Math.max(...pts.map((point) => point[1]), 1);
  const x = (i: number) => (values.length > 1 ? (i / (values.length - 1)) * chartWidth : chartWidth / 2);
  const y = (value: number) => chartHeight - 1 - (Math.min(value, top) / top) * (chartHeight - 2);
  const attrs = { class: 'spark', 'data-sparkline': label, 'data-values': values.map((value) => (value === null ? '' : String(value))).join(',') };
  if (pts.length === 0) {
    return (
      <span {...attrs} class="muted">
        no answers
      </span>
    );
  }
  const path = pts.map(([i, value]) => `${x(i).toFixed(1)},${y(value).toFixed(1)}`).join(' ');
  const [lastIndex, lastValue] = pts[pts.length - 1];
  return (
    <svg {...attrs} width={chartWidth} height={chartHeight} viewBox={`0 0 ${chartWidth} ${chartHeight}`} role="img" aria-label={label}>
      {pts.length > 1 ? <polyline points={path} fill="none" class="spark-line" stroke-width="1.5" /> : null}
      <circle cx={x(lastIndex).toFixed(1)} cy={y(lastValue).toFixed(1)} r="2" class="spark-dot" />
    </svg>
  );
}
