import type { Tx } from '../../store/index.js';

export type Severity = 'high' | 'medium' | 'low';

export interface Finding {
  code: string;
  severity: Severity;
  url: string;
  agent?: string;
  detail: string;
  /** What to change, in a sentence; also the description of the Action offered for it. */
  fix: string;
}

export const FINDING_CODES = [
  'robots_disallows_agent',
  'agent_blocked_http',
  'noindex',
  'nosnippet',
  'llms_txt_missing',
  'sitemap_missing',
  'no_server_rendered_text',
  'structured_data_missing',
  'page_error',
  'slow_response',
] as const;

/** A finding's identity across runs: what the difference from the last run compares. */
export const findingKey = (f: Pick<Finding, 'code' | 'url' | 'agent'>) => `${f.code}|${f.url}|${f.agent ?? ''}`;

const PRIORITY: Record<Severity, string> = { high: 'high', medium: 'medium', low: 'low' };

const TITLES: Record<string, (f: Finding) => string> = {
  robots_disallows_agent: (f) => `Let ${f.agent} read ${f.url} in robots.txt`,
  agent_blocked_http: (f) => `Stop blocking ${f.agent} at the server or CDN`,
  noindex: (f) => `Remove noindex from ${f.url}`,
  nosnippet: (f) => `Remove nosnippet from ${f.url}`,
  llms_txt_missing: () => 'Publish an llms.txt',
  sitemap_missing: () => 'Publish a sitemap.xml and name it in robots.txt',
  no_server_rendered_text: (f) => `Serve the text of ${f.url} without JavaScript`,
  structured_data_missing: (f) => `Add structured data (JSON-LD) to ${f.url}`,
  page_error: (f) => `Fix the error on ${f.url}`,
  slow_response: (f) => `Make ${f.url} answer faster`,
};

/**
 * Offers each finding's fix as an Action (status suggested, category on_page_seo, manual
 * execution). The fingerprint names the finding, so a finding seen again weekly does not
 * open a second Action while the first is open.
 */
export async function offerActions(tx: Tx, projectId: string, teamId: string, findings: Finding[]): Promise<number> {
  let opened = 0;
  for (const f of findings) {
    const { rows } = await tx.query(
      `insert into actions (project_id, team_id, priority, title, description, category, effort, status, targets, execution, group_name, source, fingerprint)
       values ($1, $2, $3, $4, $5, 'on_page_seo', 'quick-win', 'suggested', $6::jsonb, $7::jsonb, 'Site audit', 'manual', $8)
       on conflict do nothing returning id`,
      [
        projectId,
        teamId,
        PRIORITY[f.severity],
        (TITLES[f.code] ?? (() => f.code))(f).slice(0, 200),
        `${f.detail} ${f.fix}`,
        JSON.stringify([{ type: 'url', value: f.url }]),
        JSON.stringify({ type: 'manual', prompt: null, skill: null, params: null }),
        `site-audit:${findingKey(f)}`,
      ],
    );
    opened += rows.length;
  }
  return opened;
}
