import { z } from 'zod';
import { Invalid } from '../../lib/errors.js';
import { utcDay } from '../../lib/time.js';
import { addDays } from '../analytics/window.js';
import { AI_ENGINES, AGENT_NAMES } from './agents.js';

export const IngestResult = z
  .object({
    lines: z.number().int().meta({ description: 'Non-empty lines read.' }),
    parsed: z.number().int().meta({ description: 'Lines read as a request (combined format or a JSON object with the fields named in docs/crawler-logs.md).' }),
    rejected: z.number().int().meta({ description: 'Lines that could not be read: counted, never stored.' }),
    bot_hits: z.number().int().meta({ description: "Requests of the project's site by a known AI agent (verified or not)." }),
    referrals: z.number().int().meta({ description: "Page visits of the project's site referred by an AI engine." }),
    other_hosts: z.number().int().meta({ description: 'Extension: parsed lines for another host than the project domain, not counted.' }),
    duplicate: z.boolean().meta({ description: 'Extension: true when this file (same uncompressed bytes) was ingested before; nothing was added again.' }),
  })
  .meta({ id: 'CrawlerLogIngest' });

const day = (name: string) => z.string().optional().meta({ description: `${name}: YYYY-MM-DD (UTC), inclusive` });
export const DayRangeQuery = z.strictObject({ start_date: day('First day'), end_date: day('Last day') });

const DEFAULT_DAYS = 30;
const MAX_DAYS = 366;

function checkDay(value: string, name: string): string {
  const t = Date.parse(`${value}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(t) || new Date(t).toISOString().slice(0, 10) !== value) {
    throw new Invalid(`${name} must be a date in the form YYYY-MM-DD`);
  }
  return value;
}

/** The window: end_date (default today, UTC) and start_date (default 29 days before it), at most 366 days. */
export function dayRange(q: z.infer<typeof DayRangeQuery>, today = utcDay()) {
  const to = q.end_date !== undefined ? checkDay(q.end_date, 'end_date') : today;
  const from = q.start_date !== undefined ? checkDay(q.start_date, 'start_date') : addDays(to, -(DEFAULT_DAYS - 1));
  if (from > to) throw new Invalid('start_date must not be after end_date');
  if (from < addDays(to, -(MAX_DAYS - 1))) throw new Invalid(`The window may span at most ${MAX_DAYS} days`);
  return { from, to };
}

const counts = (what: string) => z.record(z.string(), z.number().int()).meta({ description: what });

export const CrawlerReport = z
  .object({
    bots: z.array(
      z.object({
        agent: z.string().meta({ description: `The user-agent token: ${AGENT_NAMES.join(', ')}` }),
        operator: z.string(),
        purpose: z.enum(['training', 'search', 'user']),
        hits: z.number().int(),
        verified_hits: z.number().int().meta({ description: "Hits from addresses in the operator's published ranges." }),
        pages: z.number().int().meta({ description: 'Distinct pages the agent fetched.' }),
      }),
    ),
    pages: z.array(
      z.object({
        path: z.string(),
        hits: z.number().int(),
        by_agent: counts('Hits per agent.'),
        cited: z.number().int().meta({ description: "The window's answers citing this page." }),
      }),
    ),
  })
  .meta({ id: 'CrawlerReport' });

export const AiTrafficReport = z
  .object({
    engines: z.array(z.object({ engine: z.string().meta({ description: `The referrer's host: ${AI_ENGINES.join(', ')}` }), visits: z.number().int() })),
    pages: z.array(z.object({ path: z.string(), visits: z.number().int(), by_engine: counts('Visits per engine.') })),
  })
  .meta({ id: 'AiTrafficReport' });

const DrainName = z.string().trim().min(1).max(100);
export const DrainCreate = z
  .strictObject({
    name: DrainName.optional().meta({ description: 'What the drain is for, e.g. "Cloudflare Logpush".' }),
    vercel_verify: z.string().trim().min(1).max(200).optional().meta({ description: "Vercel's verification value: sent back as the x-vercel-verify header on every answer of the drain." }),
  })
  .meta({ id: 'CrawlerLogDrainCreate' });

export const DrainCreated = z
  .object({
    drain_id: z.string(),
    name: z.string().nullable(),
    url: z.string().meta({ description: 'PUBLIC_URL/v1/crawler-log-drains/{token}: where the CDN sends the logs. Shown only here.' }),
    token: z.string().meta({ description: 'The credential in the URL. Shown only here; only its hash is kept.' }),
    created_at: z.string(),
  })
  .meta({ id: 'CrawlerLogDrainCreated' });

export const Drain = z
  .object({
    drain_id: z.string(),
    name: z.string().nullable(),
    token_prefix: z.string().meta({ description: 'The first characters of the token, to tell drains apart.' }),
    vercel_verify: z.boolean().meta({ description: 'True when a Vercel verification value is set.' }),
    created_at: z.string(),
    last_used_at: z.string().nullable(),
    status: z.enum(['active', 'revoked']),
  })
  .meta({ id: 'CrawlerLogDrain' });

export const DrainRevoked = z.object({ drain_id: z.string(), message: z.string() }).meta({ id: 'CrawlerLogDrainRevoked' });
