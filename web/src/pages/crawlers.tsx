import { useQuery } from '@tanstack/react-query';
import { get } from '../api';
import { ListTable } from '../list-table';
import { ErrorBox, Loading, Section, } from '../ui';
import { TopBar } from '../top-bar';

// AI crawlers and AI referrals from the site's own access logs (the last 30 days).
interface CrawlerReport {
  bots: Array<{ agent: string; operator: string; purpose: string; hits: number; verified_hits: number; pages: number }>;
  pages: Array<{ path: string; hits: number; by_agent: Record<string, number>; cited: number }>;
}
interface AiTraffic {
  engines: Array<{ engine: string; visits: number }>;
  pages: Array<{ path: string; visits: number; by_engine: Record<string, number> }>;
}

const byCount = (counts: Record<string, number>) =>
  Object.entries(counts)
    .sort((a, b) => b[1] - a[1])
    .map(([key, count]) => `${key} ${count}`)
    .join(', ');

export function Crawlers({ projectId }: { projectId: string }) {
  const crawlers = useQuery({ queryKey: ['crawlers', projectId], queryFn: () => get<CrawlerReport>(`/projects/${projectId}/crawlers`) });
  const traffic = useQuery({ queryKey: ['ai-traffic', projectId], queryFn: () => get<AiTraffic>(`/projects/${projectId}/ai-traffic`) });
  const summary = crawlers.data;
  const trafficData = traffic.data;
  return (
    <>
      <TopBar title="AI crawlers" />
      <p class="muted">Last 30 days, from the access logs sent with <code>sightline logs ingest</code> or POST /v1/projects/{'{id}'}/crawler-logs.</p>
      {crawlers.isPending || traffic.isPending ? <Loading /> : null}
      <ErrorBox error={crawlers.error ?? traffic.error} />
      {summary ? (
        <Section title="Agents">
          <ListTable
            name="crawler-agents"
            label="AI agents"
            rows={summary.bots}
            rowKey={(bot) => bot.agent}
            empty="No AI crawler in the logs of this window. Send an access log to see which agents read the site."
            columns={[
              { key: 'agent', header: 'Agent', cell: (bot) => bot.agent },
              { key: 'operator', header: 'Operator', cell: (bot) => bot.operator },
              { key: 'purpose', header: 'Purpose', cell: (bot) => bot.purpose },
              { key: 'hits', header: 'Hits', numeric: true, cell: (bot) => bot.hits },
              { key: 'verified', header: 'Verified', numeric: true, cell: (bot) => bot.verified_hits },
              { key: 'pages', header: 'Pages', numeric: true, cell: (bot) => bot.pages },
            ]}
          />
        </Section>
      ) : null}
      {summary?.pages.length ? (
        <Section title="Pages: crawled by, cited in">
          <ListTable
            name="crawler-pages"
            label="Pages crawled and cited"
            rows={summary.pages}
            rowKey={(page) => page.path}
            columns={[
              { key: 'page', header: 'Page', cell: (page) => page.path },
              { key: 'hits', header: 'Hits', numeric: true, cell: (page) => page.hits },
              { key: 'agents', header: 'By agent', cell: (page) => byCount(page.by_agent) || 'never crawled' },
              { key: 'cited', header: 'Answers citing it', numeric: true, cell: (page) => page.cited },
            ]}
          />
        </Section>
      ) : null}
      {trafficData ? (
        <Section title="Visits referred by AI engines">
          {/* No engine at all is the empty state: the pages' rows come with the engines. */}
          <ListTable
            name="ai-traffic"
            label="AI referrals"
            rows={trafficData.engines.length ? trafficData.pages : []}
            rowKey={(page) => page.path}
            empty="No visit referred by an AI engine in this window."
            columns={[
              { key: 'page', header: 'Landing page', cell: (page) => page.path },
              { key: 'visits', header: 'Visits', numeric: true, cell: (page) => page.visits },
              { key: 'engines', header: 'By engine', cell: (page) => byCount(page.by_engine) },
            ]}
          />
        </Section>
      ) : null}
    </>
  );
}
