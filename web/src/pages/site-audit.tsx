import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, data, get } from '../api';
import { Empty, ErrorBox, Loading, Section, TableWrap } from '../ui';

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
  const q = useQuery({
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
  const a = q.data;
  const running = !!a && ['queued', 'running'].includes(a.status);
  return (
    <>
      <h1>Site audit</h1>
      <p class="muted">How AI agents (GPTBot, ClaudeBot, PerplexityBot, ...) see the project's website: robots.txt, blocks, noindex, text without JavaScript, llms.txt, sitemap, structured data.</p>
      <p>
        <button type="button" class="primary" disabled={running || start.isPending} onClick={() => start.mutate()}>
          {running ? 'Audit running…' : 'Run an audit now'}
        </button>
      </p>
      <ErrorBox error={q.error ?? start.error} />
      {q.isPending ? <Loading /> : null}
      {q.data === null ? <Empty>No audit yet. Run one: it fetches up to 10 pages, a few at a time.</Empty> : null}
      {a?.status === 'failed' ? <ErrorBox error={new Error(`The audit failed: ${a.error ?? 'unknown error'}`)} /> : null}
      {a && a.status === 'completed' ? (
        <>
          <Section title={`Findings (${a.findings.length})`}>
            {a.findings.length ? (
              <ul class="findings" data-list="findings">
                {a.findings.map((f) => (
                  <li key={`${f.code}|${f.url}|${f.agent ?? ''}`} data-code={f.code}>
                    <strong>
                      [{f.severity}] {f.code}
                      {f.agent ? ` · ${f.agent}` : ''}
                    </strong>{' '}
                    <span class="muted">{f.url}</span>
                    <div>{f.detail}</div>
                    <div>Fix: {f.fix}</div>
                  </li>
                ))}
              </ul>
            ) : (
              <Empty>No problem found.</Empty>
            )}
          </Section>
          {a.changes ? (
            <Section title="Since the previous audit">
              <p>
                {a.changes.new.length} new, {a.changes.resolved.length} resolved
                {a.changes.resolved.length ? `: ${a.changes.resolved.map((f) => `${f.code}${f.agent ? ` (${f.agent})` : ''}`).join(', ')}` : ''}.
              </p>
            </Section>
          ) : null}
          <Section title={`Pages (${a.pages.length})`}>
            <TableWrap label="Audited pages">
              <table data-table="audit-pages">
                <thead>
                  <tr>
                    <th scope="col">Page</th>
                    <th scope="col">Status</th>
                    <th scope="col">Time to first byte</th>
                    <th scope="col">Text</th>
                    <th scope="col">JSON-LD</th>
                  </tr>
                </thead>
                <tbody>
                  {a.pages.map((p) => (
                    <tr key={p.url}>
                      <td>{p.url}</td>
                      <td>{p.status ?? 'no answer'}{p.noindex ? ' · noindex' : ''}</td>
                      <td>{p.ttfb_ms === null ? '–' : `${p.ttfb_ms} ms`}</td>
                      <td>{p.text_chars ?? '–'}</td>
                      <td>{(p.json_ld_types ?? []).join(', ') || '–'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableWrap>
          </Section>
        </>
      ) : null}
    </>
  );
}
