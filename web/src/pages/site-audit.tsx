import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, data, get } from '../api';
import { ListTable } from '../list-table';
import { Empty, ErrorBox, Loading, Section } from '../ui';
import { TopBar } from '../top-bar';

// The site audit for AI agents: the latest run's findings (each with its fix), its pages,
// and what changed since the run before. Polls while a run is queued or running.
interface Finding {
  code: string;
  severity: string;
  url: string;
  agent?: string;
  detail: string;
  fix: string;
}
interface SiteAudit {
  audit_id: string;
  status: string;
  finished_at: string | null;
  error: string | null;
  pages: Array<{ url: string; status: number | null; ttfb_ms: number | null; noindex?: boolean; text_chars?: number; json_ld_types?: string[] }>;
  findings: Finding[];
  changes: { new: Finding[]; resolved: Finding[] } | null;
}

export function SiteAuditPage({ projectId }: { projectId: string }) {
  const queryClient = useQueryClient();
  const siteAuditQuery = useQuery({
    queryKey: ['site-audit', projectId],
    queryFn: async () => {
      try {
        return await get<SiteAudit>(`/projects/${projectId}/site-audit`);
      } catch (err) {
        if (err instanceof ApiError && err.status === 404) return null;
        throw err;
      }
    },
    refetchInterval: (query) => (query.state.data && ['queued', 'running'].includes(query.state.data.status) ? 2000 : false),
  });
  const start = useMutation({
    mutationFn: () => data('POST', `/projects/${projectId}/site-audit`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['site-audit', projectId] }),
  });
  const audit = siteAuditQuery.data;
  const running = !!audit && ['queued', 'running'].includes(audit.status);
  return (
    <>
      <TopBar title="Site audit" />
      <p class="muted">How AI agents (GPTBot, ClaudeBot, PerplexityBot, ...) see the project's website: robots.txt, blocks, noindex, text without JavaScript, llms.txt, sitemap, structured data.</p>
      <p>
        <button type="button" class="primary" disabled={running || start.isPending} onClick={() => start.mutate()}>
          {running ? 'Audit running…' : 'Run an audit now'}
        </button>
      </p>
      <ErrorBox error={siteAuditQuery.error ?? start.error} />
      {siteAuditQuery.isPending ? <Loading /> : null}
      {siteAuditQuery.data === null ? <Empty>No audit yet. Run one: it fetches up to 10 pages, a few at a time.</Empty> : null}
      {audit?.status === 'failed' ? <ErrorBox error={new Error(`The audit failed: ${audit.error ?? 'unknown error'}`)} /> : null}
      {audit && audit.status === 'completed' ? (
        <>
          <Section title={`Findings (${audit.findings.length})`}>
            {audit.findings.length ? (
              <ul class="findings" data-list="findings">
                {audit.findings.map((finding) => (
                  <li key={`${finding.code}|${finding.url}|${finding.agent ?? ''}`} data-code={finding.code}>
                    <strong>
                      [{finding.severity}] {finding.code}
                      {finding.agent ? ` · ${finding.agent}` : ''}
                    </strong>{' '}
                    <span class="muted">{finding.url}</span>
                    <div>{finding.detail}</div>
                    <div>Fix: {finding.fix}</div>
                  </li>
                ))}
              </ul>
            ) : (
              <Empty>No problem found.</Empty>
            )}
          </Section>
          {audit.changes ? (
            <Section title="Since the previous audit">
              <p>
                {audit.changes.new.length} new, {audit.changes.resolved.length} resolved
                {audit.changes.resolved.length ? `: ${audit.changes.resolved.map((finding) => `${finding.code}${finding.agent ? ` (${finding.agent})` : ''}`).join(', ')}` : ''}.
              </p>
            </Section>
          ) : null}
          <Section title={`Pages (${audit.pages.length})`}>
            <ListTable
              name="audit-pages"
              label="Audited pages"
              rows={audit.pages}
              rowKey={(page) => page.url}
              columns={[
                { key: 'page', header: 'Page', cell: (page) => page.url },
                { key: 'status', header: 'Status', cell: (page) => `${page.status ?? 'no answer'}${page.noindex ? ' · noindex' : ''}` },
                { key: 'ttfb', header: 'Time to first byte', numeric: true, cell: (page) => (page.ttfb_ms === null ? '–' : `${page.ttfb_ms} ms`) },
                { key: 'text', header: 'Text', numeric: true, cell: (page) => page.text_chars ?? '–' },
                { key: 'json-ld', header: 'JSON-LD', cell: (page) => (page.json_ld_types ?? []).join(', ') || '–' },
              ]}
            />
          </Section>
        </>
      ) : null}
    </>
  );
}
