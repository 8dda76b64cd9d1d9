import { z } from 'zod';
import { FINDING_CODES } from './findings.js';

export const AuditStarted = z.object({ audit_id: z.uuid(), status: z.enum(['queued', 'running']) }).meta({ id: 'SiteAuditStarted' });

const Finding = z
  .object({
    code: z.string().meta({ description: `One of ${FINDING_CODES.join(', ')}` }),
    severity: z.enum(['high', 'medium', 'low']),
    url: z.string(),
    agent: z.string().optional().meta({ description: 'The user-agent token the finding is about, when it is about one.' }),
    detail: z.string(),
    fix: z.string().meta({ description: 'What to change; also offered as an Action (group "Site audit").' }),
  })
  .meta({ id: 'SiteAuditFinding' });

const Page = z
  .object({
    url: z.string(),
    status: z.number().int().nullable().meta({ description: 'Status a browser got; null when the page did not answer.' }),
    ttfb_ms: z.number().int().nullable(),
    error: z.string().optional(),
    noindex: z.boolean().optional(),
    nosnippet: z.boolean().optional(),
    text_chars: z.number().int().optional().meta({ description: 'Visible text served without JavaScript, in characters.' }),
    json_ld_types: z.array(z.string()).optional(),
    agents: z.record(z.string(), z.number().int().nullable()).meta({ description: "Status each agent's user agent got." }),
  })
  .meta({ id: 'SiteAuditPage' });

export const SiteAudit = z
  .object({
    audit_id: z.uuid(),
    status: z.enum(['queued', 'running', 'completed', 'failed']),
    created_at: z.string(),
    started_at: z.string().nullable(),
    finished_at: z.string().nullable(),
    error: z.string().nullable(),
    pages: z.array(Page),
    findings: z.array(Finding),
    changes: z
      .object({ previous_audit_id: z.uuid(), new: z.array(Finding), resolved: z.array(Finding) })
      .nullable()
      .meta({ description: 'Findings new or resolved since the last completed audit before this one; null for the first audit or one not completed.' }),
  })
  .meta({ id: 'SiteAudit' });
