// The MCP tests' seeded project and the table of every tool beside the REST call it mirrors,
// shared by the Streamable HTTP test (test/mcp.test.ts) and the stdio test (test/mcp-stdio.test.ts).
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'vitest';
import { OWN, storeSpecs, type AnswerSpec } from './analytics-fixture.js';
import { startFixtureServer, type FixtureServer } from './fixtures/page-fixtures.js';
import { client, createAccount, createProject, setTeam, startTestApp, type Account, type TestApp } from './helpers.js';

export const E1 = '2025-03-10';
export const E3 = '2025-03-12';
export const WINDOW = { date_from: E1, date_to: E3 };
const W = `date_from=${E1}&date_to=${E3}`;

/** The tools issue 14 names; the read ones are those a viewer key lists. */
export const ALL_TOOLS = [
  'list_projects', 'get_project', 'create_project', 'list_topics', 'list_prompts', 'create_prompts', 'update_prompt', 'delete_prompt',
  'list_competitors', 'add_competitors', 'update_competitor', 'remove_competitor', 'get_overview', 'get_visibility', 'get_prompt_analytics',
  'list_chats', 'list_sources', 'get_sources_analytics', 'list_actions', 'create_action', 'transition_action', 'recommend_actions',
  'get_recommendation_task', 'enrich_content', 'execute_action', 'get_workflow', 'respond_to_checkpoint', 'list_webhooks',
];
export const READ_TOOLS = [
  'list_projects', 'get_project', 'list_topics', 'list_prompts', 'list_competitors', 'get_overview', 'get_visibility', 'get_prompt_analytics',
  'list_chats', 'list_sources', 'get_sources_analytics', 'list_actions', 'get_recommendation_task', 'get_workflow', 'list_webhooks',
];

export interface Seeded {
  t: TestApp;
  pages: FixtureServer;
  base: string;
  acct: Account;
  viewerKey: string;
  other: Account;
  otherProject: string;
  pid: string;
  topicId: string;
  prompts: string[];
  gamma: string;
  contentAction: string;
  articleAction: string;
}

/** A listening service with one project of hand-made answers (role api: no workers move anything). */
export async function seed(): Promise<Seeded> {
  const pages = await startFixtureServer();
  const t = await startTestApp({ allowPrivateUrls: true, role: 'api' });
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const acct = await createAccount(t.app);
  await setTeam(t, acct.teamId, { rate_limit_tier: 'premium', plan: 'pro' });
  const api = client(t.app, acct.key);
  const pid = await createProject(t.app, acct.key, { brand_name: 'Beta', brand_url: 'https://beta.io' });
  await t.runtime.ctx.store.query(`update projects set status = 'completed' where id = $1`, [pid]);
  const topicId = (await api.post(`/projects/${pid}/topics`, { name: 'Analytics tools' })).json().data.topic_id;
  const created = await api.post(`/projects/${pid}/prompts`, { prompts: ['Which analytics tool should I pick?', 'Best product analytics for startups'], topicId });
  const prompts = created.json().data.prompts.map((p: { id: string }) => p.id);
  const gamma = (await api.post(`/projects/${pid}/competitors`, { competitors: [{ name: 'Gamma', website: 'gamma.app' }] })).json().data.competitors[0].competitorId;
  const [Q1, Q2] = prompts;
  const specs: AnswerSpec[] = [
    { prompt: Q1, provider: 'chatgpt', day: E1, named: { [OWN]: [1, 1, 70], [gamma]: [2, 1, 50] }, cites: [{ url: 'https://src01.com/a', domain: 'src01.com', category: 1, urlType: 1 }] },
    { prompt: Q1, provider: 'perplexity', day: E3, named: { [gamma]: [1, 2, 80] }, cites: [{ url: 'https://beta.io/', domain: 'beta.io', category: 0, urlType: 0 }] },
    { prompt: Q2, provider: 'chatgpt', day: E3, named: { [gamma]: [1, 1, 60], [OWN]: [2, 1, 40] } },
    { prompt: Q2, provider: 'gemini', day: E3 },
  ];
  await storeSpecs(t, pid, specs, 'beta.io', { 'beta.io': OWN, 'gamma.app': gamma });
  const action = (category: string, targets: Array<{ type: string; value: string }>, execution = 'prompt') =>
    api.post(`/projects/${pid}/actions`, {
      title: `A ${category} action`,
      description: 'So that engines cite the brand',
      category,
      priority: 'high',
      execution: { type: execution },
      targets,
    });
  const contentAction = (await action('content_update', [{ type: 'url', value: `${pages.base}/article.html` }])).json().data.id;
  const articleAction = (await action('new_content', [{ type: 'keyword', value: 'product analytics' }], 'publishable_content')).json().data.id;
  const hook = await api.post('/webhooks', { url: 'https://hooks.beta.io/sightline', events: ['action.checkpoint', 'action.completed'] });
  expect(hook.statusCode).toBe(201);
  const viewer = await api.post('/keys', { scope: 'viewer' });
  expect(viewer.statusCode).toBe(201);
  const other = await createAccount(t.app);
  const otherProject = await createProject(t.app, other.key, { brand_name: 'Other', brand_url: 'https://other.example' });
  return { t, pages, base: address, acct, viewerKey: viewer.json().data.api_key, other, otherProject, pid, topicId, prompts, gamma, contentAction, articleAction };
}

export async function unseed(s: Seeded | undefined): Promise<void> {
  await s?.t.stop();
  await s?.pages.close();
}

export type Rest = [method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown];

/**
 * Every tool with arguments and the REST call that answers the same. Reads are compared
 * with REST at once; each write is compared with the REST read of what it made.
 */
export function readCases(s: Seeded): Array<[tool: string, args: Record<string, unknown>, rest: Rest]> {
  const p = `/projects/${s.pid}`;
  const [Q1] = s.prompts;
  return [
    ['list_projects', {}, ['GET', '/projects']],
    ['get_project', { project_id: s.pid }, ['GET', p]],
    ['list_topics', { project_id: s.pid }, ['GET', `${p}/topics`]],
    ['list_prompts', { project_id: s.pid, ...WINDOW }, ['GET', `${p}/prompts?${W}`]],
    ['list_competitors', { project_id: s.pid, ...WINDOW }, ['GET', `${p}/competitors?${W}`]],
    ['get_overview', { project_id: s.pid, ...WINDOW }, ['GET', `${p}/overview?${W}`]],
    ['get_visibility', { project_id: s.pid, ...WINDOW }, ['GET', `${p}/visibility?${W}`]],
    ['get_prompt_analytics', { project_id: s.pid, prompt_id: Q1, ...WINDOW }, ['GET', `${p}/prompts/${Q1}/analytics?${W}`]],
    ['list_chats', { project_id: s.pid, prompt_id: Q1, ...WINDOW, page_size: 1 }, ['GET', `${p}/prompts/${Q1}/chats?${W}&page_size=1`]],
    ['list_sources', { project_id: s.pid, ...WINDOW }, ['GET', `${p}/sources?${W}`]],
    ['get_sources_analytics', { project_id: s.pid, ...WINDOW }, ['GET', `${p}/sources/analytics?${W}`]],
    ['list_actions', { project_id: s.pid, status: 'suggested' }, ['GET', `${p}/actions?status=suggested`]],
    ['list_webhooks', {}, ['GET', '/webhooks']],
  ];
}

export const textOf = (r: CallToolResult): string => (r.content[0] as { text: string }).text;

/** A tool call through the SDK's client; the result as the client validated it. */
export async function call(c: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await c.callTool({ name, arguments: args })) as CallToolResult;
}

/** The REST answer of one call, with a key. */
export async function rest(s: Seeded, key: string, [method, url, body]: Rest): Promise<{ status: number; body: { detail?: string } & Record<string, unknown> }> {
  const res = await s.t.app.inject({ method, url: `/v1${url}`, headers: { 'x-api-key': key }, ...(body === undefined ? {} : { payload: body as object }) });
  return { status: res.statusCode, body: res.json() };
}
