import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, createAccount, createProject, errorBody, setTeam, startTestApp, type TestApp } from './helpers.js';

// Text that is not valid Unicode (issue 11, defect 1). JSON's "\ud800" escape parses to a
// lone UTF-16 surrogate, which PostgreSQL cannot store as text (it became U+FFFD, so the
// prompt look-up by its text missed: a 500) nor as jsonb (22P02: a 500). One rule, one
// place (src/http/error-handler.ts): a 400 naming the field, and nothing stored.

let t: TestApp;
let api: ReturnType<typeof client>;
let key: string;
let projectId: string;
let topicId: string;
beforeAll(async () => {
  t = await startTestApp({ role: 'api', rateLimitWindowMs: 1_000 });
  const acct = await createAccount(t.app);
  await setTeam(t, acct.teamId, { plan: 'pro', rate_limit_tier: 'premium' });
  key = acct.key;
  api = client(t.app, key);
  projectId = await createProject(t.app, acct.key);
  topicId = (await api.post(`/projects/${projectId}/topics`, { name: 'Surrogates' })).json().data.topic_id;
});
afterAll(async () => t?.stop());

const count = async (table: string) =>
  (await t.runtime.ctx.store.query<{ n: number }>(`select count(*)::int as n from ${table} where project_id = $1`, [projectId])).rows[0].n;

describe('POST /projects/{id}/prompts with a lone surrogate', () => {
  it.each([
    ['a high surrogate', '\ud800x', 'prompts[0]', '\\ud800'],
    ['a low surrogate at the end', 'best crm\udfff', 'prompts[0]', '\\udfff'],
    ['two highs in a row', 'a\ud83d\ud83db', 'prompts[0]', '\\ud83d'],
  ])('%s → 400 naming the field, nothing stored', async (_name, text, field, shown) => {
    const before = await count('prompts');
    const res = await api.post(`/projects/${projectId}/prompts`, { prompts: [text], topicId });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual(errorBody(`${field} must be valid Unicode text (no lone surrogate ${shown})`, 'invalid_request'));
    expect(await count('prompts')).toBe(before);
  });

  it('a valid surrogate pair (an emoji) is text like any other', async () => {
    const res = await api.post(`/projects/${projectId}/prompts`, { prompts: ['best crm 🚀 for startups'], topicId });
    expect(res.statusCode, res.body).toBe(200);
  });
});

describe('POST /projects/{id}/actions with a lone surrogate', () => {
  const BODY = { title: 'Publish a comparison', description: 'A page answer engines can cite.', category: 'new_content', priority: 'high' };
  it.each([
    ['execution.prompt', { execution: { type: 'prompt', prompt: 'write \ud800 this' } }],
    ['execution.skill', { execution: { type: 'prompt', skill: '\udc00skill' } }],
    ['execution.params.tone', { execution: { type: 'prompt', params: { tone: 'bold\ud800' } } }],
    ['execution.params.nested[1]', { execution: { type: 'prompt', params: { nested: ['ok', '\udbff'] } } }],
    ['targets[0].value', { execution: { type: 'manual' }, targets: [{ type: 'keyword', value: 'crm \ud800' }] }],
    ['title', { execution: { type: 'manual' }, title: 'Title \udfff' }],
  ])('%s → 400 naming it, nothing stored', async (field, extra) => {
    const before = await count('actions');
    const res = await api.post(`/projects/${projectId}/actions`, { ...BODY, ...extra });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().detail).toMatch(new RegExp(`^${field.replace(/[.[\]]/g, '\\$&')} must be valid Unicode text \\(no lone surrogate \\\\u[0-9a-f]{4}\\)$`));
    expect(await count('actions')).toBe(before);
  });

  it('a lone surrogate in an object key of execution.params → 400 naming the key', async () => {
    const res = await api.post(`/projects/${projectId}/actions`, { ...BODY, execution: { type: 'prompt', params: { 'k\ud800': 1 } } });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual(errorBody('execution.params.k\\ud800 must be valid Unicode text (no lone surrogate \\ud800)', 'invalid_request'));
  });
});

describe('the same rule for query strings and path parameters', () => {
  it('a lone surrogate escaped in a query value cannot be sent: percent-decoding refuses it', async () => {
    // UTF-8 has no encoding of a surrogate: %ED%A0%80 is invalid UTF-8, refused as such.
    const res = await t.app.inject({ method: 'GET', url: `/v1/projects/${projectId}/actions?group=%ED%A0%80`, headers: { 'x-api-key': key } });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual(errorBody('query parameter group is not valid percent-encoded UTF-8', 'invalid_request'));
  });

  it('a path parameter with invalid UTF-8 → 400 {detail, code, request_id}', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/v1/projects/%ED%A0%80`, headers: { 'x-api-key': key } });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual(errorBody(expect.any(String), 'invalid_request'));
  });
});

describe('a body that is not valid UTF-8', () => {
  it.each([
    ['a lone continuation byte', Buffer.from([0x80])],
    ['an overlong encoding', Buffer.from([0xc0, 0xaf])],
    ['a surrogate encoded as UTF-8 (CESU)', Buffer.from([0xed, 0xa0, 0x80])],
    ['a truncated sequence', Buffer.from([0xe2, 0x82])],
  ])('%s inside a string → 400, not a silent U+FFFD', async (_name, bytes) => {
    const before = await count('prompts');
    const body = Buffer.concat([Buffer.from(`{"topicId":"${topicId}","prompts":["crm `), bytes, Buffer.from(` tools"]}`)]);
    const res = await t.app.inject({
      method: 'POST',
      url: `/v1/projects/${projectId}/prompts`,
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      payload: body,
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual(errorBody(expect.stringMatching(/^Request body is not valid UTF-8 text \(invalid byte at offset \d+\)$/), 'invalid_request'));
    expect(await count('prompts')).toBe(before);
  });

  it('valid UTF-8 (accents, emoji, a byte order mark) still parses (a guard, passes before the fix too)', async () => {
    const body = Buffer.from(`\ufeff{"topicId":"${topicId}","prompts":["crm für Ärzte 🚀"]}`, 'utf8');
    const res = await t.app.inject({
      method: 'POST',
      url: `/v1/projects/${projectId}/prompts`,
      headers: { 'x-api-key': key, 'content-type': 'application/json; charset=utf-8' },
      payload: body,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.prompts[0].content).toBe('crm für Ärzte 🚀');
  });
});

describe('a JSON body nested deeper than 64 levels (issue 25: 4,500 deep was a 500 at createAction)', () => {
  /** `levels` arrays, one inside the other, around a leaf. */
  const nested = (levels: number, leaf = '"x"') => `${'['.repeat(levels)}${leaf}${']'.repeat(levels)}`;
  const post = (url: string, body: string) =>
    t.app.inject({ method: 'POST', url: `/v1${url}`, headers: { 'x-api-key': key, 'content-type': 'application/json' }, payload: body });

  it.each([65, 4_500, 200_000])('execution.params nested %i deep → 400 {detail}, nothing stored', async (depth) => {
    const before = await count('actions');
    const body = `{"title":"Deep","description":"d","category":"new_content","priority":"high","execution":{"type":"prompt","params":{"deep":${nested(depth - 3)}}}}`;
    const res = await post(`/projects/${projectId}/actions`, body);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(400);
    expect(res.json()).toEqual(errorBody('Request body is nested too deeply (at most 64 levels of objects and arrays)', 'invalid_request'));
    expect(await count('actions')).toBe(before);
  });

  it('64 levels in all is accepted; brackets inside strings do not count', async () => {
    const body = `{"title":"[[[[{{{{","description":"d","category":"new_content","priority":"high","execution":{"type":"prompt","params":{"deep":${nested(61, '"]]]\\"[[[["')}}}}`;
    const res = await post(`/projects/${projectId}/actions`, body);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(201);
  });

  it('a deep body on a route without a body schema is the same 400', async () => {
    const res = await post('/account/create', `{"email":${nested(100)}}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toMatch(/nested too deeply/);
  });
});
