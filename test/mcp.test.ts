// The MCP server over Streamable HTTP, through the SDK's own client, on a seeded project:
// every tool against the REST answer of the same call, scopes, errors, limits, resources.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_TOOLS, call, checkErrors, checkRateLimit, checkReads, checkWrites, READ_TOOLS, rest, seed, textOf, unseed, WINDOW, type Seeded } from './mcp-harness.js';

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
}, 180_000);
afterAll(async () => {
  for (const c of clients) await c.close();
  await unseed(s);
});

describe('MCP over Streamable HTTP', { timeout: 60_000 }, () => {
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
      expect(t.annotations?.readOnlyHint, t.name).toBe(READ_TOOLS.includes(t.name) || ['enrich_content', 'enrich_forum', 'draft_action'].includes(t.name));
    }
    // the input schema is the route's params + query (+ body), from the same zod schemas
    expect(Object.keys(byName.get('get_overview')!.inputSchema.properties!)).toEqual(['project_id', 'duration_days', 'date_from', 'date_to', 'providers', 'surface', 'market', 'prompt_type']);
    expect(byName.get('create_prompts')!.inputSchema.required).toEqual(['project_id', 'prompts', 'topic_id']);
    expect(byName.get('delete_prompt')!.annotations).toMatchObject({ destructiveHint: true, idempotentHint: true });
    expect(byName.get('add_competitors')!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: false });
  });

  it('answers every read tool with the REST body of the same call as structuredContent, and a summary', async () => {
    await checkReads(s, connect);
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
    await checkWrites(s, connect);
  });

  it("answers a write with a viewer key, another team's project and bad arguments with REST's detail as a tool error", async () => {
    await checkErrors(s, connect);
  });

  it('takes snake_case arguments where REST names the field in camelCase, and says so in its errors', async () => {
    const c = await connect(s.acct.key);
    const missing = await call(c, 'create_prompts', { project_id: s.pid, prompts: ['Which suite has the best funnels?'] });
    expect(missing).toMatchObject({ isError: true, content: [{ type: 'text', text: 'topic_id is required' }] });
    const camel = await call(c, 'create_prompts', { project_id: s.pid, prompts: ['Which suite has the best funnels?'], topicId: s.topicId });
    expect(camel).toMatchObject({ isError: true, content: [{ type: 'text', text: 'Unknown field: topicId (this tool calls it topic_id)' }] });
    const made = await call(c, 'create_prompts', { project_id: s.pid, prompts: ['Which suite has the best funnels?'], topic_id: s.topicId });
    expect(made.isError, textOf(made)).toBeFalsy();
    const created = (made.structuredContent as { data: { prompts: Array<{ id: string; topicId: string }> } }).data.prompts[0];
    expect(created.topicId).toBe(s.topicId);
    const moved = await call(c, 'update_prompt', { project_id: s.pid, prompt_id: created.id, prompt_type: 'Inactive' });
    expect(moved.isError, textOf(moved)).toBeFalsy();
    expect((moved.structuredContent as { data: { prompt_type: string } }).data.prompt_type).toBe('inactive');
    await call(c, 'delete_prompt', { project_id: s.pid, prompt_id: created.id });
  });

  it('counts each tool call on the key\'s window and answers the one over the limit with a tool error that gives the wait in seconds', async () => {
    await checkRateLimit(s, connect);
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
    // a web page's request (an Origin header) only from an allowed origin, checked before the key
    const list = (origin: string, key = s.acct.key) =>
      fetch(`${s.base}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', origin, 'x-api-key': key },
        body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
      });
    const evil = await list('https://evil.example');
    expect(evil.status).toBe(403);
    expect(await evil.json()).toMatchObject({ detail: 'Origin https://evil.example may not call /mcp; set MCP_ALLOWED_ORIGINS to allow a browser client', code: 'forbidden' });
    expect((await list('https://evil.example', 'sl_live_not_a_key')).status).toBe(403);
    const inspector = await list('http://localhost:6274');
    expect(inspector.status).toBe(200);
    expect((await inspector.json()).result.tools.length).toBe(ALL_TOOLS.length);
    const guide = await fetch(`${s.base}/llms.txt`);
    expect(guide.headers.get('content-type')).toContain('text/plain');
    const body = await guide.text();
    for (const name of ALL_TOOLS) expect(body).toContain(name);
    expect(body).toContain('POST /mcp');
  });
});
