import { Resvg } from '@resvg/resvg-js';

/** One line of the chart: a project's daily visibility, null on a day without answers. */
export interface ChartSeries {
  label: string;
  values: Array<number | null>;
}

const COLORS = ['#4f46e5', '#0891b2', '#db2777', '#ca8a04', '#16a34a'];
const W = 640;
const H = 260;
const PAD = { left: 44, right: 16, top: 16, bottom: 56 };

const escapeXml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The digest's chart, drawn on the server as SVG (mail clients run no script): visibility
 * per day, 0 to 100 %, one line per project; a day without answers breaks the line rather
 * than drawing a 0 (unmeasured is not zero).
 */
export function visibilityChartSvg(days: string[], series: ChartSeries[]): string {
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const x = (i: number) => PAD.left + (days.length <= 1 ? plotW / 2 : (i * plotW) / (days.length - 1));
  const y = (v: number) => PAD.top + plotH - (v / 100) * plotH;
  const grid = [0, 25, 50, 75, 100]
    .map((v) => `<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${y(v)}" y2="${y(v)}" stroke="#e5e7eb"/><text x="${PAD.left - 6}" y="${y(v) + 4}" text-anchor="end" font-size="11" fill="#6b7280">${v}%</text>`)
    .join('');
  const ticks = days
    .map((d, i) => (i % Math.max(1, Math.ceil(days.length / 7)) === 0 || i === days.length - 1 ? `<text x="${x(i)}" y="${H - PAD.bottom + 16}" text-anchor="middle" font-size="11" fill="#6b7280">${d.slice(5)}</text>` : ''))
    .join('');
  const lines = series
    .slice(0, COLORS.length)
    .map((s, k) => {
      const segments: string[] = [];
      let cur = '';
      s.values.forEach((v, i) => {
        if (v === null) {
          if (cur) segments.push(cur);
          cur = '';
        } else cur += `${cur ? 'L' : 'M'}${x(i).toFixed(1)},${y(v).toFixed(1)}`;
      });
      if (cur) segments.push(cur);
      const dots = s.values.map((v, i) => (v === null ? '' : `<circle cx="${x(i).toFixed(1)}" cy="${y(v).toFixed(1)}" r="2.5" fill="${COLORS[k]}"/>`)).join('');
      return segments.map((d) => `<path d="${d}" fill="none" stroke="${COLORS[k]}" stroke-width="2"/>`).join('') + dots;
    })
    .join('');
  const legend = series
    .slice(0, COLORS.length)
    .map((s, k) => `<rect x="${PAD.left + k * 120}" y="${H - 22}" width="10" height="10" fill="${COLORS[k]}"/><text x="${PAD.left + k * 120 + 14}" y="${H - 13}" font-size="11" fill="#374151">${escapeXml(s.label.slice(0, 16))}</text>`)
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="DejaVu Sans, Arial, sans-serif"><rect width="${W}" height="${H}" fill="#ffffff"/>${grid}${ticks}${lines}${legend}</svg>`;
}

/** The SVG as a PNG at twice its size (sharp on high-density screens). */
export function rasterize(svg: string): Buffer {
  return Buffer.from(new Resvg(svg, { fitTo: { mode: 'width', value: W * 2 }, font: { loadSystemFonts: true } }).render().asPng());
}
