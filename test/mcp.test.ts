// The MCP server over Streamable HTTP, through the SDK's own client, on a seeded project:
// every tool against the REST answer of the same call, scopes, errors, limits, resources.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from './helpers.js';
import { ALL_TOOLS, call, READ_TOOLS, readCases, rest, seed, textOf, unseed, WINDOW, type Seeded } from './mcp-harness.js';

let s: Seeded;
const clients: Client[] = [];

async function connect(key: string, header: 'x-api-key' | 'bearer' = 'x-api-key'): Promise<Client> {
  const headers: Record<string, string> = header === 'bearer' ? { authorization: `Bearer ${key}` } : { 'x-api-key': key };
  const c = new Client({ name: 'sightline-test', version: '1.0.0' });
  await c.connect(new StreamableHTTPClientTransport(new URL(`${s.base}/mcp`), { requestInit: { headers } }));
  clients.push(c);
  return c;
}

beforeAll(async () => {
  s = await seed();
}, 60_000);
afterAll(async () => {
  for (const c of clients) await c.close();
  await unseed(s);
});

describe('MCP over Streamable HTTP', { timeout: 30_000 }, () => {
  it('initializes with a key in X-API-Key or as a Bearer token, and lists every tool for an admin key, the read tools for a viewer', async () => {
    const admin = await connect(s.acct.key, 'bearer');
    expect(admin.getServerVersion()?.name).toBe('sightline');
    expect(admin.getServerCapabilities()).toMatchObject({ tools: {}, resources: {}, prompts: {} });
    expect(admin.getInstructions()).toContain('list_projects');
    const { tools } = await admin.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...ALL_TOOLS].sort());
    const viewer = await connect(s.viewerKey);
    expect((await viewer.listTools()).tools.map((t) => t.name).sort()).toEqual([...READ_TOOLS].sort());

    const byName = new Map(tools.map((t) => [t.name, t]));
    for (const t of tools) {
      expect(t.description?.length, t.name).toBeGreaterThan(40);
      expect(t.outputSchema?.type, t.name).toBe('object');
      expect(t.annotations?.readOnlyHint, t.name).toBe(READ_TOOLS.includes(t.name) || t.name === 'enrich_content');
    }
    // the input schema is the route's params + query (+ body), from the same zod schemas
    expect(Object.keys(byName.get('get_overview')!.inputSchema.properties!)).toEqual(['project_id', 'duration_days', 'date_from', 'date_to', 'providers', 'prompt_type']);
    expect(byName.get('create_prompts')!.inputSchema.required).toEqual(['project_id', 'prompts', 'topicId']);
    expect(byName.get('delete_prompt')!.annotations).toMatchObject({ destructiveHint: true, idempotentHint: true });
    expect(byName.get('add_competitors')!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: false });
  });

  it('answers every read tool with the REST body of the same call as structuredContent, and a summary', async () => {
    const c = await connect(s.acct.key);
    for (const [name, args, route] of readCases(s)) {
      const r = await call(c, name, args);
      expect(r.isError, `${name}: ${textOf(r)}`).toBeFalsy();
      const expected = await rest(s, s.acct.key, route);
      expect(expected.status).toBe(200);
      expect(r.structuredContent, name).toEqual(expected.body);
      expect(textOf(r).length, name).toBeGreaterThan(5);
    }
  });

  it("says the own brand's visibility with its interval and the window before, in REST's figures", async () => {
    const c = await connect(s.acct.key);
    const text = textOf(await call(c, 'get_visibility', { project_id: s.pid, ...WINDOW }));
    const { body } = await rest(s, s.acct.key, ['GET', `/projects/${s.pid}/competitors?date_from=${WINDOW.date_from}&date_to=${WINDOW.date_to}`]);
    const own = (body.data as { active_competitors: Array<{ is_own_brand: boolean; metrics: { visibility: number; visibility_ci: [number, number]; responses: number } }> }).active_competitors.find((b) => b.is_own_brand)!.metrics;
    expect(text).toBe(
      `Visibility ${own.visibility.toFixed(1)}% (95% CI ${own.visibility_ci[0].toFixed(1)}–${own.visibility_ci[1].toFixed(1)}) over 3 days, no answers in the window before; ${own.responses} answers.`,
    );
  });

  it('runs every write tool, each leaving what REST then reads', async () => {
    const c = await connect(s.acct.key);
    const p = `/projects/${s.pid}`;
    const ok = async (name: string, args: Record<string, unknown>) => {
      const r = await call(c, name, args);
      expect(r.isError, `${name}: ${textOf(r)}`).toBeFalsy();
      return r.structuredContent as { data: Record<string, unknown> & { id?: string } };
    };
    const made = await ok('create_prompts', { project_id: s.pid, prompts: ['Cheapest analytics suite'], topicId: s.topicId });
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
    expect((await rest(s, s.acct.key, ['GET', `/projects/${project.data.project_id}`])).status).toBe(200);
  });

  it("answers a write with a viewer key, another team's project and bad arguments with REST's detail as a tool error", async () => {
    const viewer = await connect(s.viewerKey);
    const admin = await connect(s.acct.key);
    const cases: Array<[key: string, c: Client, tool: string, args: Record<string, unknown>, rest: Parameters<typeof rest>[2], status: number]> = [
      [s.viewerKey, viewer, 'create_prompts', { project_id: s.pid, prompts: ['x'], topicId: s.topicId }, ['POST', `/projects/${s.pid}/prompts`, { prompts: ['x'], topicId: s.topicId }], 403],
      [s.acct.key, admin, 'get_project', { project_id: s.otherProject }, ['GET', `/projects/${s.otherProject}`], 403],
      [s.acct.key, admin, 'get_project', { project_id: 'not-a-uuid' }, ['GET', '/projects/not-a-uuid'], 400],
      [s.acct.key, admin, 'get_overview', { project_id: s.pid, duration_days: 0 }, ['GET', `/projects/${s.pid}/overview?duration_days=0`], 400],
      [s.acct.key, admin, 'get_overview', { project_id: s.pid, colour: 'red' }, ['GET', `/projects/${s.pid}/overview?colour=red`], 400],
      [s.acct.key, admin, 'create_prompts', { project_id: s.pid, prompts: [], topicId: s.topicId }, ['POST', `/projects/${s.pid}/prompts`, { prompts: [], topicId: s.topicId }], 400],
      [s.acct.key, admin, 'create_prompts', { project_id: s.pid, prompts: ['y'] }, ['POST', `/projects/${s.pid}/prompts`, { prompts: ['y'] }], 400],
      [s.acct.key, admin, 'update_competitor', { project_id: s.pid, competitor_id: s.gamma, shade: 1 }, ['PATCH', `/projects/${s.pid}/competitors/${s.gamma}`, { shade: 1 }], 400],
    ];
    for (const [key, c, tool, args, route, status] of cases) {
      const expected = await rest(s, key, route);
      expect(expected.status, tool).toBe(status);
      const r = await call(c, tool, args);
      expect(r, `${tool} ${JSON.stringify(args)}`).toMatchObject({ isError: true, content: [{ type: 'text', text: expected.body.detail }] });
    }
    // a write tool the viewer was not shown, called anyway; an unknown tool
    expect(textOf(await call(viewer, 'delete_prompt', { project_id: s.pid, prompt_id: s.prompts[0] }))).toBe('This API key is read-only; an admin key is required for this operation');
    expect(await call(admin, 'no_such_tool', {})).toMatchObject({ isError: true, content: [{ text: 'Unknown tool: "no_such_tool"' }] });
  });

  it('counts each tool call on the key\'s window and answers the one over the limit with a tool error that gives the wait in seconds', async () => {
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
  });

  it('serves each project as a resource and the weekly report prompt', async () => {
    const c = await connect(s.acct.key);
    const { resources } = await c.listResources();
    expect(resources.map((r) => r.uri)).toContain(`sightline://projects/${s.pid}`);
    const read = await c.readResource({ uri: `sightline://projects/${s.pid}` });
    const summary = JSON.parse((read.contents[0] as { text: string }).text);
    const rest30 = (await rest(s, s.acct.key, ['GET', `/projects/${s.pid}/competitors?duration_days=30`])).body.data as { active_competitors: Array<{ metrics: unknown }> };
    expect(summary.project).toEqual((await rest(s, s.acct.key, ['GET', `/projects/${s.pid}`])).body.data);
    expect(summary.brands.map((b: { metrics: unknown }) => b.metrics)).toEqual(rest30.active_competitors.map((b) => b.metrics));
    const denied = await rest(s, s.acct.key, ['GET', `/projects/${s.otherProject}`]);
    expect(denied.status).toBe(403);
    await expect(c.readResource({ uri: `sightline://projects/${s.otherProject}` })).rejects.toThrow(`MCP error -32602: ${denied.body.detail}`);

    const { prompts } = await c.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(['weekly_visibility_report']);
    const got = await c.getPrompt({ name: 'weekly_visibility_report', arguments: { project_id: s.pid } });
    const text = (got.messages[0].content as { text: string }).text;
    for (const tool of ['get_visibility', 'list_competitors', 'get_overview', 'get_sources_analytics', 'list_actions']) expect(text).toContain(tool);
    expect(text).toContain(s.pid);
  });

  it('refuses a request without a valid key with a 401, and serves /llms.txt', async () => {
    const none = await fetch(`${s.base}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' });
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toContain('Bearer');
    expect((await none.json()).detail).toBe('Missing API key: send X-API-Key or Authorization: Bearer <key>');
    await expect(connect('sl_live_not_a_key')).rejects.toThrow(/401|Invalid API key/);
    expect((await fetch(`${s.base}/mcp`)).status).toBe(405);
    const guide = await fetch(`${s.base}/llms.txt`);
    expect(guide.headers.get('content-type')).toContain('text/plain');
    const body = await guide.text();
    for (const name of ALL_TOOLS) expect(body).toContain(name);
    expect(body).toContain('POST /mcp');
  });
});
