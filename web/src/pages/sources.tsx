import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'preact/hooks';
import { get } from '../api';
import type { Data } from '../api-types';
import { type Line, LineChart } from '../chart';
import { CsvButton } from '../csv';
import { Empty, ErrorBox, Loading, Section, TableWrap, formatFigure } from '../ui';
import { WindowControls, useWindow } from '../window';

type SourcesAnalytics = Data<'/v1/projects/{project_id}/sources/analytics'>;

const CATEGORY_NAMES = ['corporate', 'editorial', 'institutional', 'reference', 'ugc', 'other'] as const;

function Table(props: { name: string; header: string[]; rows: Array<Array<string | number | null>> }) {
  return (
    <TableWrap label={props.name.replace(/-/g, ' ')}>
      <table data-table={props.name}>
        <thead>
          <tr>
            {props.header.map((h) => (
              <th key={h} scope="col">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.rows.map((r) => (
            <tr key={String(r[0])}>
              {r.map((c, i) => (
                <td key={i}>{c ?? '–'}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}

export function Sources({ projectId }: { projectId: string }) {
  const w = useWindow();
  const q = useQuery({ queryKey: ['sources', projectId, w.query], queryFn: () => get<SourcesAnalytics>(`/projects/${projectId}/sources/analytics${w.query}`) });
  const d = q.data;
  const lines: Line[] = useMemo(() => (d?.performance_chart.series ?? []).map((s) => ({ label: s.domain, values: s.values })), [d]);
  const categories = d ? CATEGORY_NAMES.map((c) => [c, d.category_breakdown[c] ?? 0] as [string, number]) : [];
  return (
    <>
      <h1>Sources</h1>
      <WindowControls />
      {q.isPending ? <Loading /> : null}
      <ErrorBox error={q.error} />
      {d && d.stats.total_citations === 0 ? <Empty>No citations in this window yet.</Empty> : null}
      {d ? (
        <>
          <Section
            title={`Categories (${d.stats.total_citations} citations, ${d.stats.total_sources} domains)`}
            actions={<CsvButton filename="source-categories.csv" header={['category', 'share_percent']} rows={() => categories} />}
          >
            <div class="bars">
              {categories.map(([c, v]) => (
                <div key={c} class="bar-row" data-category={c}>
                  <span class="bar-label">{c}</span>
                  <span class="bar" style={{ width: `${Math.max(0, Math.min(100, v))}%` }} />
                  <span class="bar-value">{formatFigure(v)}%</span>
                </div>
              ))}
            </div>
          </Section>
          <Section
            title="Top domains over time"
            actions={
              <CsvButton
                filename="source-performance.csv"
                header={['date', 'domain', 'value']}
                rows={() => d.performance_chart.series.flatMap((s) => d.performance_chart.dates.map((day, i) => [day, s.domain, s.values[i]]))}
              />
            }
          >
            {lines.length ? <LineChart title="Top domains over time" dates={d.performance_chart.dates} lines={lines} /> : <Empty>No data.</Empty>}
          </Section>
          <Section
            title="Top domains"
            actions={<CsvButton filename="top-domains.csv" header={['domain', 'category', 'citations']} rows={() => d.top_domains.map((t) => [t.domain, CATEGORY_NAMES[t.category] ?? t.category, t.reference_count])} />}
          >
            <Table name="top-domains" header={['Domain', 'Category', 'Citations']} rows={d.top_domains.map((t) => [t.domain, CATEGORY_NAMES[t.category] ?? String(t.category), t.reference_count])} />
          </Section>
          <Section
            title="Opportunities: cited domains that never mention you"
            actions={<CsvButton filename="opportunities.csv" header={['domain', 'category', 'citations']} rows={() => d.opportunities.map((o) => [o.domain, o.category_name, o.citation_count])} />}
          >
            {d.opportunities.length ? (
              <Table name="opportunities" header={['Domain', 'Category', 'Citations']} rows={d.opportunities.map((o) => [o.domain, o.category_name, o.citation_count])} />
            ) : (
              <Empty>No opportunity in this window.</Empty>
            )}
          </Section>
        </>
      ) : null}
    </>
  );
}
