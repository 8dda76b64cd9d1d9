// Support for the analytics and sources tests: projects filled with hand-made analysed
// answers through the real write path (storeAnswers), so every expected figure can be
// worked out by hand, independent of the text analyser.
import { expect } from 'vitest';
import type { Analysis, Citation } from '../src/analysis/types.js';
import { OWN_BRAND_ID } from '../src/modules/projects/brands.js';
import { storeAnswers, type AnalysedAnswer } from '../src/modules/answers/store-answers.js';
import type { ProviderName } from '../src/ports/providers/types.js';
import { registrableDomain } from '../src/lib/url.js';
import { client, createAccount, setTeam, type TestApp } from './helpers.js';

export const OWN = OWN_BRAND_ID;

export interface Cite {
  url: string;
  domain: string;
  category: number;
  urlType: number | null;
  title?: string;
}

/** Tracked brands named in an answer: brand id -> [position, count, sentiment]. */
export type Named = Record<string, [number, number, number]>;

export interface AnswerSpec {
  prompt: string;
  provider: ProviderName;
  day: string;
  /** The market asked in; US-en when absent. */
  market?: string;
  /** The own brand is mentioned iff OWN is a key; its position and sentiment are then the answer's. */
  named?: Named;
  cites?: Cite[];
  text?: string;
}

export const MODELS: Record<ProviderName, string> = {
  chatgpt: 'gpt-4o-2024-08-06',
  perplexity: 'sonar',
  google_ai_overview: 'ai-overview',
  gemini: 'gemini-2.0-flash',
  claude: 'claude-3-5-sonnet',
  google_ai_mode: 'google-ai-mode',
  grok: 'grok-4-fast-reasoning',
  copilot: 'bing-copilot',
  chatgpt_ui: 'gpt-4o',
};

export const textOf = (s: AnswerSpec) => s.text ?? `Answer from ${s.provider} on ${s.day}. More detail follows here.`;

export const referencesOf = (s: AnswerSpec) =>
  (s.cites ?? []).map((c, i) => ({ title: c.title ?? `Title of ${c.url}`, link: c.url, snippet: `Snippet ${i + 1}`, reference_index: i + 1 }));

/** The Analysis a perfect analyser would produce for the spec. */
export function analysisOf(s: AnswerSpec, ownDomain: string, owners: Record<string, string> = {}): Analysis {
  const named = s.named ?? {};
  const own = named[OWN];
  const citations: Citation[] = (s.cites ?? []).map((c, i) => ({
    url: c.url,
    domain: c.domain,
    title: c.title ?? `Title of ${c.url}`,
    snippet: `Snippet ${i + 1}`,
    category: c.category,
    urlType: c.urlType,
    referenceIndex: i + 1,
    isOwn: c.domain === ownDomain,
    brandIds: owners[c.domain] ? [owners[c.domain]] : [],
  }));
  return {
    mentioned: !!own,
    position: own ? own[0] : null,
    sentiment: own ? own[2] : null,
    brands: Object.fromEntries(Object.entries(named).map(([id, [position, count, sentiment]]) => [id, { position, count, sentiment }])),
    citations,
    citesOwn: citations.some((c) => c.isOwn),
    otherBrands: [],
  };
}

export function answerOf(s: AnswerSpec, ownDomain: string, owners: Record<string, string> = {}): AnalysedAnswer {
  return {
    promptId: s.prompt,
    provider: s.provider,
    day: s.day,
    market: s.market ?? 'US-en',
    answer: { provider: s.provider, model: MODELS[s.provider], text: textOf(s), references: referencesOf(s), raw: null, simulated: false },
    analysis: analysisOf(s, ownDomain, owners),
  };
}

export async function storeSpecs(t: TestApp, projectId: string, specs: AnswerSpec[], ownDomain: string, owners: Record<string, string> = {}) {
  const stored = await t.runtime.ctx.store.tx((tx) => storeAnswers(tx, projectId, specs.map((s) => answerOf(s, ownDomain, owners))));
  expect(stored).toHaveLength(specs.length);
}

export type Api = ReturnType<typeof client>;

export interface FixtureProject {
  api: Api;
  /** The API key `api` sends. */
  key: string;
  projectId: string;
  topicId: string;
  promptIds: string[];
  /** Competitor ids by name. */
  competitorIds: Record<string, string>;
}

/**
 * A team (premium tier: the tests send many requests) with one project of the brand, one
 * topic, the prompts (in this order) and the competitors, all through the HTTP API. The
 * bootstrap is not run (role 'api'); the project is marked completed directly.
 */
export async function fixtureProject(
  t: TestApp,
  opts: { brand: string; url: string; prompts: string[]; competitors?: Array<{ name: string; website: string }>; account?: { key: string; teamId: string } },
): Promise<FixtureProject> {
  const acct = opts.account ?? (await createAccount(t.app));
  await setTeam(t, acct.teamId, { rate_limit_tier: 'premium' });
  const api = client(t.app, acct.key);
  // A project as it stands once its bootstrap has run: inserted as the service inserts one,
  // without the bootstrap job, which an app with workers would start the moment it is sent
  // and which would add prompts and competitors of its own.
  const website = new URL(opts.url).toString();
  const { rows } = await t.runtime.ctx.store.query<{ id: string }>(
    `insert into projects (team_id, name, brand_name, website_url, domain, providers, status)
     values ($1, $2, $2, $3, $4, '[]'::jsonb, 'completed') returning id`,
    [acct.teamId, opts.brand, website, registrableDomain(website)],
  );
  const projectId = rows[0].id;
  const topic = await api.post(`/projects/${projectId}/topics`, { name: `${opts.brand} topic` });
  expect(topic.statusCode, topic.body).toBe(201);
  const topicId = topic.json().data.topic_id as string;
  let promptIds: string[] = [];
  if (opts.prompts.length) {
    const res = await api.post(`/projects/${projectId}/prompts`, { prompts: opts.prompts, topicId });
    expect(res.statusCode, res.body).toBe(200);
    promptIds = res.json().data.prompts.map((p: { id: string }) => p.id);
  }
  const competitorIds: Record<string, string> = {};
  if (opts.competitors?.length) {
    const res = await api.post(`/projects/${projectId}/competitors`, { competitors: opts.competitors });
    expect(res.statusCode, res.body).toBe(200);
    for (const c of res.json().data.competitors) competitorIds[c.name] = c.competitorId;
  }
  return { api, key: acct.key, projectId, topicId, promptIds, competitorIds };
}

/** GET that must answer 200 in Envelope A; returns `data`. */
export async function data(api: Api, url: string): Promise<any> {
  const res = await api.get(url);
  if (res.statusCode !== 200) throw new Error(`GET ${url}: ${res.statusCode} ${res.body}`);
  const body = res.json();
  expect(body.success).toBe(true);
  return body.data;
}

export const icons = (domain: string) => [`https://${domain}/favicon.ico`, `https://${domain}/apple-touch-icon.png`];
export const brandInfo = (name: string, domain: string) => ({ name, icon_url: icons(domain)[0], icon_urls: icons(domain) });
