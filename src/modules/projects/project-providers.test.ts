import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapProviders } from '../../collection/bootstrap.js';
import { client, createAccount, errorBody, startTestApp, until, type TestApp } from '../../../test/helpers.js';

// POST /account/projects takes the engines the project tracks (extension field `providers`,
// issue 15), validated as PATCH /projects/{id} validates them; the bootstrap asks only
// engines the project tracks.

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp(); // simulated engines, workers on: the bootstrap runs
});
afterAll(async () => t?.stop());

const body = { brand_name: 'Velo', brand_url: 'https://velo.example.org', webhook_url: 'https://hooks.velo.example.org/cb' };

describe('POST /account/projects with providers', () => {
  it('stores the engines chosen (duplicates dropped, in the canonical order); the bootstrap asks only those', async () => {
    const acct = await createAccount(t.app);
    const api = client(t.app, acct.key);
    const res = await api.post('/account/projects', { ...body, providers: ['grok', 'claude', 'grok'] });
    expect(res.statusCode).toBe(202);
    const id = res.json().data.project_id;
    expect((await api.get(`/projects/${id}`)).json().data.providers).toEqual(['claude', 'grok']);
    const done = await until(async () => {
      const p = (await api.get(`/projects/${id}`)).json().data;
      return p.bootstrap_status !== 'initializing' && p;
    }, 60_000);
    expect(done.bootstrap_status).toBe('completed');
    const { rows } = await t.runtime.ctx.store.query<{ provider: string }>(`select distinct provider from responses where project_id = $1 order by provider`, [id]);
    expect(rows.map((r) => r.provider)).toEqual(['claude', 'grok']);
  }, 90_000);

  it('tracks the five of the contract when none are named', async () => {
    const acct = await createAccount(t.app);
    const api = client(t.app, acct.key);
    const res = await api.post('/account/projects', body);
    expect(res.statusCode).toBe(202);
    const p = (await api.get(`/projects/${res.json().data.project_id}`)).json().data;
    expect(p.providers).toEqual(['chatgpt', 'perplexity', 'google_ai_overview', 'gemini', 'claude']);
  });

  it('refuses unknown, empty or malformed lists with the texts PATCH uses', async () => {
    const acct = await createAccount(t.app);
    const api = client(t.app, acct.key);
    const unknown = await api.post('/account/projects', { ...body, providers: ['chatgpt', 'bard'] });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toEqual(errorBody(expect.stringMatching(/providers\[\] must be one of chatgpt, .*copilot/)));
    const empty = await api.post('/account/projects', { ...body, providers: [] });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().detail).toMatch(/at least one engine/);
    const text = await api.post('/account/projects', { ...body, providers: 'chatgpt' });
    expect(text.statusCode).toBe(400);
    expect(text.json().detail).toMatch(/providers must be an array of provider names/);
    expect((await api.get('/projects')).json().data).toEqual([]);
  });
});

describe('bootstrapProviders', () => {
  it('keeps the three of docs/decisions.md for a default project, and never an engine the project does not track', () => {
    expect(bootstrapProviders([])).toEqual(['chatgpt', 'perplexity', 'google_ai_overview']);
    expect(bootstrapProviders(null)).toEqual(['chatgpt', 'perplexity', 'google_ai_overview']);
    expect(bootstrapProviders(['claude', 'perplexity', 'grok', 'copilot', 'gemini'])).toEqual(['perplexity', 'gemini', 'claude']);
    expect(bootstrapProviders(['grok'])).toEqual(['grok']);
  });
});
