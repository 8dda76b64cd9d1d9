import { useQuery } from '@tanstack/react-query';
import { get } from '../api';
import { Empty, ErrorBox, Loading, Section, TableWrap } from '../ui';
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
          {summary.bots.length ? (
            <TableWrap label="AI agents">
              <table data-table="crawler-agents">
                <thead>
                  <tr>
                    <th scope="col">Agent</th>
                    <th scope="col">Operator</th>
                    <th scope="col">Purpose</th>
                    <th scope="col">Hits</th>
                    <th scope="col">Verified</th>
                    <th scope="col">Pages</th>
                  </tr>
                </thead>
                <tbody>
                  {summary.bots.map((bot) => (
                    <tr key={bot.agent}>
                      <td>{bot.agent}</td>
                      <td>{bot.operator}</td>
                      <td>{bot.purpose}</td>
                      <td>{bot.hits}</td>
                      <td>{bot.verified_hits}</td>
                      <td>{bot.pages}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableWrap>
          ) : (
            <Empty>No AI crawler in the logs of this window. Send an access log to see which agents read the site.</Empty>
          )}
        </Section>
      ) : null}
      {summary?.pages.length ? (
        <Section title="Pages: crawled by, cited in">
          <TableWrap label="Pages crawled and cited">
            <table data-table="crawler-pages">
              <thead>
                <tr>
                  <th scope="col">Page</th>
                  <th scope="col">Hits</th>
                  <th scope="col">By agent</th>
                  <th scope="col">Answers citing it</th>
                </tr>
              </thead>
              <tbody>
                {summary.pages.map((page) => (
                  <tr key={page.path}>
                    <td>{page.path}</td>
                    <td>{page.hits}</td>
                    <td>{byCount(page.by_agent) || 'never crawled'}</td>
                    <td>{page.cited}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
        </Section>
      ) : null}
      {trafficData ? (
        <Section title="Visits referred by AI engines">
          {trafficData.engines.length ? (
            <TableWrap label="AI referrals">
              <table data-table="ai-traffic">
                <thead>
                  <tr>
                    <th scope="col">Landing page</th>
                    <th scope="col">Visits</th>
                    <th scope="col">By engine</th>
                  </tr>
                </thead>
                <tbody>
                  {trafficData.pages.map((page) => (
                    <tr key={page.path}>
                      <td>{page.path}</td>
                      <td>{page.visits}</td>
                      <td>{byCount(page.by_engine)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableWrap>
          ) : (
            <Empty>No visit referred by an AI engine in this window.</Empty>
          )}
        </Section>
      ) : null}
    </>
  );
}
