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
  'list_projects', 'get_project', 'create_project', 'update_project', 'delete_project', 'list_topics', 'create_topic', 'update_topic', 'delete_topic',
  'list_prompts', 'get_prompt', 'create_prompts', 'update_prompt', 'delete_prompt',
  'list_competitors', 'suggest_competitors', 'add_competitors', 'update_competitor', 'remove_competitor', 'get_overview', 'get_visibility', 'get_prompt_analytics',
  'get_prompt_series', 'list_chats', 'list_prompt_domains', 'list_prompt_urls', 'list_prompt_search_queries', 'list_model_changes', 'list_markets', 'get_sampling_plan', 'list_sources', 'get_sources_analytics', 'list_actions', 'get_action', 'create_action',
  'transition_action', 'transition_actions', 'draft_action', 'recommend_actions', 'get_recommendation_task', 'enrich_content', 'enrich_forum', 'execute_action', 'get_workflow',
  'respond_to_checkpoint', 'list_webhooks', 'create_webhook', 'list_webhook_deliveries', 'delete_webhook',
  'get_crawlers', 'get_ai_traffic', 'start_site_audit', 'get_site_audit',
  'list_alerts', 'create_alert', 'delete_alert', 'list_alert_events',
  'list_themes', 'compare_themes',
];
export const READ_TOOLS = [
  'list_projects', 'get_project', 'list_topics', 'list_prompts', 'get_prompt', 'list_competitors', 'suggest_competitors', 'get_overview', 'get_visibility',
  'get_prompt_analytics', 'get_prompt_series', 'list_chats', 'list_prompt_domains', 'list_prompt_urls', 'list_prompt_search_queries', 'list_model_changes', 'list_markets', 'get_sampling_plan', 'list_sources', 'get_sources_analytics', 'list_actions',
  'get_action', 'get_recommendation_task', 'get_workflow', 'list_webhooks', 'list_webhook_deliveries',
  'get_crawlers', 'get_ai_traffic', 'get_site_audit',
  'list_alerts', 'list_alert_events',
  'list_themes', 'compare_themes',
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
  forumAction: string;
  webhookId: string;
}

/** A listening service with one project of hand-made answers (role api: no workers move anything). */
export async function seed(): Promise<Seeded> {
  const pages = await startFixtureServer();
  const t = await startTestApp({ allowPrivateUrls: true, role: 'api' }, { MCP_ALLOWED_ORIGINS: 'http://localhost:6274' });
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
  const forumAction = (await action('forum_engagement', [{ type: 'url', value: `${pages.base}/thread` }], 'forum_reply')).json().data.id;
  const hook = await api.post('/webhooks', { url: 'https://hooks.beta.io/sightline', events: ['action.checkpoint', 'action.completed'] });
  expect(hook.statusCode).toBe(201);
  const viewer = await api.post('/keys', { scope: 'viewer' });
  expect(viewer.statusCode).toBe(201);
  const other = await createAccount(t.app);
  const otherProject = await createProject(t.app, other.key, { brand_name: 'Other', brand_url: 'https://other.example' });
  return { t, pages, base: address, acct, viewerKey: viewer.json().data.api_key, other, otherProject, pid, topicId, prompts, gamma, contentAction, articleAction, forumAction, webhookId: hook.json().data.id };
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
    ['get_prompt', { project_id: s.pid, prompt_id: Q1, ...WINDOW }, ['GET', `${p}/prompts/${Q1}?${W}`]],
    ['list_competitors', { project_id: s.pid, ...WINDOW }, ['GET', `${p}/competitors?${W}`]],
    ['suggest_competitors', { project_id: s.pid, ...WINDOW, limit: 5 }, ['GET', `${p}/competitors/suggestions?${W}&limit=5`]],
    ['get_prompt_series', { project_id: s.pid, ...WINDOW }, ['GET', `${p}/prompts/series?${W}`]],
    ['get_overview', { project_id: s.pid, ...WINDOW }, ['GET', `${p}/overview?${W}`]],
    ['get_visibility', { project_id: s.pid, ...WINDOW }, ['GET', `${p}/visibility?${W}`]],
    ['get_prompt_analytics', { project_id: s.pid, prompt_id: Q1, ...WINDOW }, ['GET', `${p}/prompts/${Q1}/analytics?${W}`]],
    ['list_chats', { project_id: s.pid, prompt_id: Q1, ...WINDOW, page_size: 1 }, ['GET', `${p}/prompts/${Q1}/chats?${W}&page_size=1`]],
    ['list_prompt_domains', { project_id: s.pid, prompt_id: Q1, ...WINDOW }, ['GET', `${p}/prompts/${Q1}/domains?${W}`]],
    ['list_prompt_urls', { project_id: s.pid, prompt_id: Q1, ...WINDOW }, ['GET', `${p}/prompts/${Q1}/urls?${W}`]],
    ['list_prompt_search_queries', { project_id: s.pid, prompt_id: Q1, ...WINDOW }, ['GET', `${p}/prompts/${Q1}/search-queries?${W}`]],
    ['list_model_changes', { project_id: s.pid, ...WINDOW }, ['GET', `${p}/model-changes?${W}`]],
    ['list_markets', { project_id: s.pid }, ['GET', `${p}/markets`]],
    ['get_sampling_plan', { project_id: s.pid, ...WINDOW, margin: 10 }, ['GET', `${p}/sampling-plan?${W}&margin=10`]],
    ['list_sources', { project_id: s.pid, ...WINDOW }, ['GET', `${p}/sources?${W}`]],
    ['get_sources_analytics', { project_id: s.pid, ...WINDOW }, ['GET', `${p}/sources/analytics?${W}`]],
    ['list_actions', { project_id: s.pid, status: 'suggested' }, ['GET', `${p}/actions?status=suggested`]],
    ['get_action', { project_id: s.pid, action_id: s.contentAction }, ['GET', `${p}/actions/${s.contentAction}`]],
    ['list_themes', { project_id: s.pid, start_date: E1, end_date: E3 }, ['GET', `${p}/themes?start_date=${E1}&end_date=${E3}`]],
    ['list_webhooks', {}, ['GET', '/webhooks']],
    ['list_webhook_deliveries', { webhook_id: s.webhookId, limit: 5 }, ['GET', `/webhooks/${s.webhookId}/deliveries?limit=5`]],
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

export type Connect = (key: string) => Promise<Client>;

export async function checkReads(s: Seeded, connect: Connect): Promise<void> {
  const c = await connect(s.acct.key);
  for (const [name, args, route] of readCases(s)) {
    const r = await call(c, name, args);
    expect(r.isError, `${name}: ${textOf(r)}`).toBeFalsy();
    const expected = await rest(s, s.acct.key, route);
    expect(expected.status).toBe(200);
    expect(r.structuredContent, name).toEqual(expected.body);
    expect(textOf(r).length, name).toBeGreaterThan(5);
  }
}

export async function checkWrites(s: Seeded, connect: Connect): Promise<void> {
  const c = await connect(s.acct.key);
  const p = `/projects/${s.pid}`;
  const ok = async (name: string, args: Record<string, unknown>) => {
    const r = await call(c, name, args);
    expect(r.isError, `${name}: ${textOf(r)}`).toBeFalsy();
    return r.structuredContent as { data: Record<string, unknown> & { id?: string } };
  };
  const made = await ok('create_prompts', { project_id: s.pid, prompts: ['Cheapest analytics suite'], topic_id: s.topicId });
  const promptId = (made.data.prompts as Array<{ id: string }>)[0].id;
  const updated = await ok('update_prompt', { project_id: s.pid, prompt_id: promptId, content: 'Cheapest web analytics suite' });
  expect(updated).toEqual((await rest(s, s.acct.key, ['GET', `${p}/prompts/${promptId}`])).body);
  await ok('delete_prompt', { project_id: s.pid, prompt_id: promptId });
  expect((await rest(s, s.acct.key, ['GET', `${p}/prompts/${promptId}`])).status).toBe(404);

  const added = await ok('add_competitors', { project_id: s.pid, competitors: [{ name: 'Delta', website: 'delta.dev' }] });
  const delta = (added.data.competitors as Array<{ competitorId: string }>)[0].competitorId;
  const renamed = await ok('update_competitor', { project_id: s.pid, competitor_id: delta, name: 'Delta Analytics' });
  const list = (await rest(s, s.acct.key, ['GET', `${p}/competitors`])).body.data as { active_competitors: Array<{ competitor_id: string }> };
  expect(list.active_competitors.find((x) => x.competitor_id === delta)).toEqual({ ...renamed.data, metrics: expect.anything() });
  await ok('remove_competitor', { project_id: s.pid, competitor_id: delta });
  const after = (await rest(s, s.acct.key, ['GET', `${p}/competitors`])).body.data as { active_competitors: Array<{ competitor_id: string }> };
  expect(after.active_competitors.map((x) => x.competitor_id)).not.toContain(delta);

  const action = await ok('create_action', { project_id: s.pid, title: 'Answer the pricing question', description: 'A page on pricing', category: 'new_content', priority: 'medium', execution: { type: 'manual' } });
  const moved = await ok('transition_action', { project_id: s.pid, action_id: action.data.id, action: 'accept' });
  expect(moved.data.status).toBe('accepted');
  expect(moved).toEqual((await rest(s, s.acct.key, ['GET', `${p}/actions/${action.data.id}`])).body);

  const task = await ok('recommend_actions', { project_id: s.pid });
  const status = await ok('get_recommendation_task', { project_id: s.pid, task_id: task.data.task_id });
  expect(status).toEqual((await rest(s, s.acct.key, ['GET', `${p}/actions/tasks/${task.data.task_id}`])).body);

  const edits = await ok('enrich_content', { project_id: s.pid, action_id: s.contentAction });
  expect(edits).toEqual((await rest(s, s.acct.key, ['POST', `${p}/actions/${s.contentAction}/enrich-content`])).body);
  expect((edits.data as unknown as unknown[]).length).toBeGreaterThan(0);

  const run = await ok('execute_action', { project_id: s.pid, action_id: s.articleAction });
  const wf = await ok('get_workflow', { project_id: s.pid, action_id: s.articleAction });
  expect(wf.data.workflow_id).toBe(run.data.workflow_id);
  expect(wf).toEqual((await rest(s, s.acct.key, ['GET', `${p}/actions/${s.articleAction}/workflow`])).body);
  // no checkpoint waits while the workflow runs (no workers here): REST's 409, as a tool error
  const answer = { workflow_id: run.data.workflow_id, checkpoint: 'outline', action: 'approve' };
  const refused = await call(c, 'respond_to_checkpoint', { project_id: s.pid, action_id: s.articleAction, ...answer });
  const expected = await rest(s, s.acct.key, ['POST', `${p}/actions/${s.articleAction}/workflow/respond`, answer]);
  expect(expected.status).toBe(409);
  expect(refused).toMatchObject({ isError: true, content: [{ type: 'text', text: expected.body.detail }] });

  const project = await ok('create_project', { brand_name: 'Epsilon', brand_url: 'https://epsilon.example', webhook_url: 'https://hooks.epsilon.example/cb' });
  expect(project.data.status).toBe('initializing');
  const q = `/projects/${project.data.project_id}`;
  expect((await rest(s, s.acct.key, ['GET', q])).status).toBe(200);
  const edited = await ok('update_project', { project_id: project.data.project_id, name: 'Epsilon EU', brand_aliases: ['Eps'] });
  expect(edited).toEqual((await rest(s, s.acct.key, ['GET', q])).body);
  expect(edited.data).toMatchObject({ name: 'Epsilon EU', brand_aliases: ['Eps'] });

  const topic = await ok('create_topic', { project_id: project.data.project_id, name: 'Pricing' });
  const topicId = topic.data.topic_id as string;
  const renamedTopic = await ok('update_topic', { project_id: project.data.project_id, topic_id: topicId, name: 'Plans and pricing' });
  const topics = (await rest(s, s.acct.key, ['GET', `${q}/topics`])).body.data as Array<{ topic_id: string }>;
  expect(topics.find((x) => x.topic_id === topicId)).toEqual(renamedTopic.data);
  await ok('delete_topic', { project_id: project.data.project_id, topic_id: topicId });
  const topicsAfter = (await rest(s, s.acct.key, ['GET', `${q}/topics`])).body.data as Array<{ topic_id: string }>;
  expect(topicsAfter.map((x) => x.topic_id)).not.toContain(topicId);

  const deleted = await ok('delete_project', { project_id: project.data.project_id });
  expect(deleted.data.projectId).toBe(project.data.project_id);
  expect((await rest(s, s.acct.key, ['GET', q])).status).toBe(404);

  // the accepted action cannot be accepted again: counted as failed, the others move
  const batch = await ok('transition_actions', { project_id: s.pid, ids: [s.contentAction, action.data.id, s.forumAction], action: 'accept' });
  expect(batch.data).toEqual({ succeeded: 2, failed: 1, total: 3 });
  expect(((await rest(s, s.acct.key, ['GET', `${p}/actions/${s.contentAction}`])).body.data as { status: string }).status).toBe('accepted');

  const draftBody = { action_type: 'content_update', target_url: 'https://beta.io/pricing', keywords: ['analytics pricing'] };
  const draft = await ok('draft_action', { project_id: s.pid, ...draftBody });
  expect(draft).toEqual((await rest(s, s.acct.key, ['POST', `${p}/actions/enrich`, draftBody])).body);

  const reply = await ok('enrich_forum', { project_id: s.pid, action_id: s.forumAction });
  expect(reply).toEqual((await rest(s, s.acct.key, ['POST', `${p}/actions/${s.forumAction}/enrich-forum`])).body);
  expect(reply.data.thread_url).toBe(`${s.pages.base}/thread`);

  const hook = await ok('create_webhook', { url: 'https://hooks.beta.io/mcp', events: ['action.completed'] });
  expect(hook.data).toMatchObject({ url: 'https://hooks.beta.io/mcp', events: ['action.completed'], secret: expect.stringMatching(/^whsec_/) });
  const hooks = (await rest(s, s.acct.key, ['GET', '/webhooks'])).body.data as Array<{ id: string }>;
  const { secret: _secret, ...listed } = hook.data;
  expect(hooks.find((h) => h.id === hook.data.id)).toEqual(listed);
  await ok('delete_webhook', { webhook_id: hook.data.id });
  const hooksAfter = (await rest(s, s.acct.key, ['GET', '/webhooks'])).body.data as Array<{ id: string }>;
  expect(hooksAfter.map((h) => h.id)).not.toContain(hook.data.id);
}

export async function checkErrors(s: Seeded, connect: Connect): Promise<void> {
  const viewer = await connect(s.viewerKey);
  const admin = await connect(s.acct.key);
  const cases: Array<[key: string, c: Client, tool: string, args: Record<string, unknown>, rest: Parameters<typeof rest>[2], status: number]> = [
    [s.viewerKey, viewer, 'create_prompts', { project_id: s.pid, prompts: ['x'], topic_id: s.topicId }, ['POST', `/projects/${s.pid}/prompts`, { prompts: ['x'], topicId: s.topicId }], 403],
    [s.acct.key, admin, 'get_project', { project_id: s.otherProject }, ['GET', `/projects/${s.otherProject}`], 403],
    [s.acct.key, admin, 'get_project', { project_id: 'not-a-uuid' }, ['GET', '/projects/not-a-uuid'], 400],
    [s.acct.key, admin, 'get_overview', { project_id: s.pid, duration_days: 0 }, ['GET', `/projects/${s.pid}/overview?duration_days=0`], 400],
    [s.acct.key, admin, 'get_overview', { project_id: s.pid, colour: 'red' }, ['GET', `/projects/${s.pid}/overview?colour=red`], 400],
    [s.acct.key, admin, 'create_prompts', { project_id: s.pid, prompts: [], topic_id: s.topicId }, ['POST', `/projects/${s.pid}/prompts`, { prompts: [], topicId: s.topicId }], 400],
    [s.acct.key, admin, 'create_prompts', { project_id: s.pid, prompts: ['y'] }, ['POST', `/projects/${s.pid}/prompts`, { prompts: ['y'] }], 400],
    [s.acct.key, admin, 'update_competitor', { project_id: s.pid, competitor_id: s.gamma, shade: 1 }, ['PATCH', `/projects/${s.pid}/competitors/${s.gamma}`, { shade: 1 }], 400],
  ];
  for (const [key, c, tool, args, route, status] of cases) {
    const expected = await rest(s, key, route);
    expect(expected.status, tool).toBe(status);
    const r = await call(c, tool, args);
    // REST's text, with a field REST spells in camelCase named as the tool's argument is.
    const text = String(expected.body.detail).replace(/\btopicId\b/g, 'topic_id');
    expect(r, `${tool} ${JSON.stringify(args)}`).toMatchObject({ isError: true, content: [{ type: 'text', text }] });
  }
  // a write tool the viewer was not shown, called anyway; an unknown tool
  expect(textOf(await call(viewer, 'delete_prompt', { project_id: s.pid, prompt_id: s.prompts[0] }))).toBe('This API key is read-only; an admin key is required for this operation');
  expect(await call(admin, 'no_such_tool', {})).toMatchObject({ isError: true, content: [{ text: 'Unknown tool: "no_such_tool"' }] });
}

export async function checkRateLimit(s: Seeded, connect: Connect): Promise<void> {
  const acct = await createAccount(s.t.app); // standard tier: 70 requests a minute
  const c = await connect(acct.key);
  let calls = 0;
  let r = await call(c, 'list_projects', {});
  while (!r.isError && calls < 100) {
    calls++;
    r = await call(c, 'list_projects', {});
  }
  expect(calls).toBe(70);
  expect(textOf(r)).toMatch(/^Rate limit exceeded\. Retry after [1-9]\d* seconds\.$/);
  expect(r._meta).toEqual({ 'sightline/error': { code: 'rate_limited', status: 429 } });
  expect((await rest(s, acct.key, ['GET', '/projects'])).status).toBe(429);
}
