import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'preact/hooks';
import { get } from '../api';
import type { Data } from '../api-types';
import { type Line, LineChart } from '../chart';
import { CsvButton } from '../csv';
import { ListTable } from '../list-table';
import { Empty, ErrorBox, Loading, Section, formatFigure } from '../ui';
import { useWindow } from '../window';
import { TopBar } from '../top-bar';

type SourcesAnalytics = Data<'/v1/projects/{project_id}/sources/analytics'>;

const CATEGORY_NAMES = ['corporate', 'editorial', 'institutional', 'reference', 'ugc', 'other'] as const;

/** A domain table: domain, category, citations (one row per domain). */
function Table(props: { name: string; header: string[]; rows: Array<Array<string | number | null>> }) {
  return (
    <ListTable
      name={props.name}
      label={props.name.replace(/-/g, ' ')}
      rows={props.rows}
      rowKey={(row) => String(row[0])}
      columns={props.header.map((label, i) => ({ key: label, header: label, numeric: typeof props.rows[0]?.[i] === 'number', cell: (row: Array<string | number | null>) => row[i] ?? '–' }))}
    />
  );
}

export function Sources({ projectId }: { projectId: string }) {
  const viewWindow = useWindow();
  const sourcesQuery = useQuery({ queryKey: ['sources', projectId, viewWindow.query], queryFn: () => get<SourcesAnalytics>(`/projects/${projectId}/sources/analytics${viewWindow.query}`) });
  const sources = sourcesQuery.data;
  const lines: Line[] = useMemo(() => (sources?.performance_chart.series ?? []).map((series) => ({ label: series.domain, values: series.values })), [sources]);
  const categories = sources ? CATEGORY_NAMES.map((categoryName) => [categoryName, sources.category_breakdown[categoryName] ?? 0] as [string, number]) : [];
  return (
    <>
      <TopBar title="Sources" filters />
      {sourcesQuery.isPending ? <Loading /> : null}
      <ErrorBox error={sourcesQuery.error} />
      {sources && sources.stats.total_citations === 0 ? <Empty>No citations in this window yet.</Empty> : null}
      {sources && sources.stats.total_citations > 0 ? (
        <>
          <Section
            title={`Categories (${sources.stats.total_citations} citations, ${sources.stats.total_sources} domains)`}
            actions={<CsvButton filename="source-categories.csv" header={['category', 'share_percent']} rows={() => categories} />}
          >
            <div class="bars">
              {categories.map(([category, count]) => (
                <div key={category} class="bar-row" data-category={category}>
                  <span class="bar-label">{category}</span>
                  <span class="bar" style={{ width: `${Math.max(0, Math.min(100, count))}%` }} />
                  <span class="bar-value">{formatFigure(count)}%</span>
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
                rows={() => sources.performance_chart.series.flatMap((series) => sources.performance_chart.dates.map((day, i) => [day, series.domain, series.values[i]]))}
              />
            }
          >
            {lines.length ? <LineChart title="Top domains over time" dates={sources.performance_chart.dates} lines={lines} /> : <Empty>No data.</Empty>}
          </Section>
          <Section
            title="Top domains"
            actions={<CsvButton filename="top-domains.csv" header={['domain', 'category', 'citations']} rows={() => sources.top_domains.map((topDomain) => [topDomain.domain, CATEGORY_NAMES[topDomain.category] ?? topDomain.category, topDomain.reference_count])} />}
          >
            <Table name="top-domains" header={['Domain', 'Category', 'Citations']} rows={sources.top_domains.map((topDomain) => [topDomain.domain, CATEGORY_NAMES[topDomain.category] ?? String(topDomain.category), topDomain.reference_count])} />
          </Section>
          <Section
            title="Opportunities: cited domains that never mention you"
            actions={<CsvButton filename="opportunities.csv" header={['domain', 'category', 'citations']} rows={() => sources.opportunities.map((opportunity) => [opportunity.domain, opportunity.category_name, opportunity.citation_count])} />}
          >
            {sources.opportunities.length ? (
              <Table name="opportunities" header={['Domain', 'Category', 'Citations']} rows={sources.opportunities.map((opportunity) => [opportunity.domain, opportunity.category_name, opportunity.citation_count])} />
            ) : (
              <Empty>No opportunity in this window.</Empty>
            )}
          </Section>
        </>
      ) : null}
    </>
  );
}
