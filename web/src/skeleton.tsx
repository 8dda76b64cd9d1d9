// Skeletons while data loads, not spinners: grey shimmering blocks of the shape that is
// coming (KPI cards, a chart, a table, a page), marked aria-busy with a visually hidden
// "Loading…" status so a screen reader (and the tests) still hear that something loads.

export type SkeletonShape = 'kpis' | 'chart' | 'table' | 'lines' | 'page';

export function Skeleton({ shape = 'lines', what = 'Loading', rows = 5 }: { shape?: SkeletonShape; what?: string; rows?: number }) {
  return (
    <div class={`skeleton skeleton-${shape}`} role="status" aria-live="polite" aria-busy="true" data-skeleton={shape}>
      <span class="visually-hidden">{what}…</span>
      {shape === 'kpis' ? <KpiBlocks /> : shape === 'chart' ? <ChartBlock /> : shape === 'table' ? <TableBlocks rows={rows} /> : shape === 'page' ? <PageBlocks /> : <LineBlocks rows={Math.min(rows, 3)} />}
    </div>
  );
}

const Block = ({ w, h, cls = '' }: { w?: string; h?: number; cls?: string }) => <span class={`sk ${cls}`} aria-hidden="true" style={{ width: w, height: h ? `${h}px` : undefined }} />;

function KpiBlocks() {
  return (
    <div class="kpis" aria-hidden="true">
      {[0, 1, 2, 3].map((i) => (
        <div key={i} class="kpi sk-kpi">
          <Block w="40%" h={10} />
          <Block w="55%" h={28} />
          <Block w="45%" h={10} />
          <Block w="70%" h={18} />
        </div>
      ))}
    </div>
  );
}

function ChartBlock() {
  return (
    <div class="sk-chart" aria-hidden="true">
      <div class="sk-legend">
        {[0, 1, 2, 3].map((i) => (
          <Block key={i} w="64px" h={10} />
        ))}
      </div>
      <Block cls="sk-plot" w="100%" h={220} />
    </div>
  );
}

function TableBlocks({ rows }: { rows: number }) {
  return (
    <div class="sk-table" aria-hidden="true">
      <div class="sk-row sk-head">
        <Block w="18%" h={10} />
        <Block w="30%" h={10} />
        <Block w="12%" h={10} />
        <Block w="12%" h={10} />
      </div>
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} class="sk-row">
          <Block w={`${22 + ((i * 7) % 12)}%`} h={12} />
          <Block w={`${26 + ((i * 11) % 14)}%`} h={12} />
          <Block w="10%" h={12} />
          <Block w="10%" h={12} />
        </div>
      ))}
    </div>
  );
}

function LineBlocks({ rows }: { rows: number }) {
  return (
    <div class="sk-lines" aria-hidden="true">
      {Array.from({ length: rows }, (_, i) => (
        <Block key={i} w={`${90 - i * 18}%`} h={12} />
      ))}
    </div>
  );
}

function PageBlocks() {
  return (
    <div class="sk-page" aria-hidden="true">
      <Block w="220px" h={22} />
      <div class="card">
        <TableBlocks rows={5} />
      </div>
    </div>
  );
}
