import crypto from 'node:crypto';
import { FALLBACK_MARKET, marketCode, parseMarketCode } from '../lib/markets.js';
import type { ServiceContext } from '../context.js';
import { createAnalyzer } from '../analysis/index.js';
import { createKey } from '../modules/keys/service.js';
import { textKey } from '../modules/common.js';
import { classifyIntent } from '../modules/prompts/intent.js';
import { generatePassword, hashPassword } from '../lib/crypto.js';
import { utcDay } from '../lib/time.js';
import { normalizeWebsite } from '../lib/url.js';
import type { ProviderName } from '../ports/providers/types.js';
import { loadBrandSpecs } from '../modules/projects/brands.js';
import { loadProjectWithPlan } from '../modules/projects/project-row.js';
import { storeAnswers, type AnalysedAnswer } from '../modules/answers/store-answers.js';
import { keepMarketTotals } from '../modules/rollups/market-totals.js';

export interface SeedOptions {
  prompts: number;
  providers: ProviderName[];
  days: number;
  competitors: number;
  /** The markets every prompt runs in (`US-en`, ...): each a series of its own; default the project's, US-en. */
  markets?: string[];
  /** Last day of history (UTC), default today. */
  endDay?: string;
  log?: (line: string) => void;
}

export interface SeedResult {
  projectId: string;
  teamId: string;
  email: string;
  password: string;
  apiKey: string;
  answers: number;
  seconds: number;
  answersPerSecond: number;
  peakRssMb: number;
}

const COMPETITORS: Array<[string, string]> = [
  ['HubSpot', 'hubspot.com'],
  ['Salesforce', 'salesforce.com'],
  ['Pipedrive', 'pipedrive.com'],
  ['Zoho CRM', 'zoho.com'],
  ['Freshsales', 'freshworks.com'],
  ['Monday Sales CRM', 'monday.com'],
  ['Close', 'close.com'],
  ['Copper', 'copper.com'],
  ['Insightly', 'insightly.com'],
  ['Keap', 'keap.com'],
  ['Nutshell', 'nutshell.com'],
  ['Capsule', 'capsulecrm.com'],
];

const TOPICS = ['CRM software', 'Sales pipeline', 'Small business tools', 'Integrations', 'Pricing and plans'];
const SUBJECTS = ['a startup', 'a small business', 'a B2B sales team', 'real estate agents', 'a marketing agency', 'freelancers', 'an enterprise', 'nonprofits', 'e-commerce brands', 'SaaS companies'];
const ASKS = ['What is the best CRM for', 'Which CRM should I choose for', 'Top CRM tools for', 'Most affordable CRM for', 'CRM with the best email integration for', 'Easiest CRM to set up for', 'Best sales pipeline software for', 'Which CRM has the best mobile app for', 'CRM alternatives to spreadsheets for', 'Best free CRM for'];

function addDays(day: string, n: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

/**
 * Fills a new project (own account on the enterprise plan) with `days` days of simulated
 * history through the real analysis and rollup path (storeAnswers), for demos and
 * benchmarks. Seeding does not spend credits: it is an operator tool, not a collection run.
 */
export async function seedProject(ctx: ServiceContext, opts: SeedOptions): Promise<SeedResult> {
  const log = opts.log ?? (() => {});
  const email = `seed-${crypto.randomBytes(4).toString('hex')}@sightline.test`;
  const password = generatePassword();
  const { store } = ctx;
  const { teamId, projectId, topicIds } = await store.tx(async (tx) => {
    const team = await tx.query<{ id: string }>(`insert into teams (plan, rate_limit_tier) values ('enterprise', 'premium') returning id`);
    const teamId = team.rows[0].id;
    const user = await tx.query<{ id: string }>(`insert into users (team_id, email, password_hash) values ($1, $2, $3) returning id`, [
      teamId,
      email,
      await hashPassword(password),
    ]);
    await tx.query(`insert into team_members (team_id, user_id, role) values ($1, $2, 'admin')`, [teamId, user.rows[0].id]);
    const project = await tx.query<{ id: string }>(
      `insert into projects (team_id, name, brand_name, website_url, domain, status, brand_aliases, location, language)
       values ($1, 'Acme CRM', 'Acme CRM', 'https://acmecrm.com/', 'acmecrm.com', 'completed', '["Acme"]'::jsonb, 'US', 'en') returning id`,
      [teamId],
    );
    const projectId = project.rows[0].id;
    const topicIds: string[] = [];
    for (const t of TOPICS) {
      const r = await tx.query<{ id: string }>(`insert into topics (project_id, name, name_key) values ($1, $2, $3) returning id`, [projectId, t, textKey(t)]);
      topicIds.push(r.rows[0].id);
    }
    for (const [name, domain] of COMPETITORS.slice(0, opts.competitors)) {
      const site = normalizeWebsite(domain)!;
      await tx.query(`insert into competitors (project_id, name, website, domain) values ($1, $2, $3, $4)`, [projectId, name, site.website, site.domain]);
    }
    return { teamId, projectId, topicIds };
  });
  const key = await createKey(ctx, teamId, { scope: 'admin', name: 'Seed key' });

  const firstDay = addDays(opts.endDay ?? utcDay(), -(opts.days - 1));
  const promptTexts = Array.from({ length: opts.prompts }, (_, i) => {
    const ask = ASKS[i % ASKS.length];
    const subject = SUBJECTS[Math.floor(i / ASKS.length) % SUBJECTS.length];
    const round = Math.floor(i / (ASKS.length * SUBJECTS.length));
    return `${ask} ${subject}${round ? ` (${round + 1})` : ''}?`;
  });
  const markets = (opts.markets ?? ['US-en']).map((code) => parseMarketCode(code) ?? FALLBACK_MARKET);
  const { rows: prompts } = await store.query<{ id: string; content: string }>(
    `insert into prompts (project_id, team_id, topic_id, content, content_key, prompt_type, intent, created_at, markets)
     select $1, $2, t, c, k, 'active', i, $6::timestamptz, $8::jsonb
       from unnest($3::uuid[], $4::text[], $5::text[], $7::text[]) as x(t, c, k, i)
     returning id, content`,
    [
      projectId,
      teamId,
      promptTexts.map((_, i) => topicIds[i % topicIds.length]),
      promptTexts,
      promptTexts.map(textKey),
      `${firstDay}T00:00:00Z`,
      promptTexts.map(classifyIntent),
      opts.markets ? JSON.stringify(markets) : null,
    ],
  );

  // every prompt in several markets: the project keeps market totals from its first answer
  if (markets.length > 1) await store.tx((tx) => keepMarketTotals(tx, projectId));
  const project = (await loadProjectWithPlan(store, projectId))!;
  const brands = await loadBrandSpecs(store, project);
  const analyse = createAnalyzer(brands);
  const context = {
    brand: { name: brands[0].name, domain: brands[0].domain, aliases: brands[0].aliases },
    competitors: brands.slice(1).map((b) => ({ name: b.name, domain: b.domain })),
  };
  const started = process.hrtime.bigint();
  let peak = process.memoryUsage().rss;
  let answers = 0;
  // One transaction per day of history; the next day is simulated and analysed while the
  // store writes the last one (on PostgreSQL that work overlaps on the server's core).
  let writing: Promise<unknown> | null = null;
  for (let d = 0; d < opts.days; d++) {
    const day = addDays(firstDay, d);
    const batch: AnalysedAnswer[] = [];
    for (const p of prompts) {
      for (const market of markets) {
        for (const provider of opts.providers) {
          const answer = await ctx.ports.providers[provider].ask({ prompt: p.content, day, country: market.country, language: market.language, context });
          batch.push({ promptId: p.id, provider, day, market: marketCode(market), answer, analysis: analyse(answer.text, answer.references) });
        }
      }
      // back to the event loop between prompts: the last day's statements go out as their
      // answers come in, instead of waiting for the whole day to be simulated
      await new Promise(setImmediate);
    }
    await writing;
    writing = store.tx((tx) => storeAnswers(tx, projectId, batch));
    answers += batch.length;
    peak = Math.max(peak, process.memoryUsage().rss);
    if ((d + 1) % 30 === 0 || d === opts.days - 1) log(`  day ${d + 1}/${opts.days}: ${answers} answers`);
  }
  await writing;
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return {
    projectId,
    teamId,
    email,
    password,
    apiKey: key.api_key,
    answers,
    seconds,
    answersPerSecond: answers / seconds,
    peakRssMb: Math.round(peak / 1024 / 1024),
  };
}
