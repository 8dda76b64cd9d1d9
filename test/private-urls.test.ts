import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, createAccount, errorBody, setTeam, startTestApp, type TestApp } from './helpers.js';

// Callback and webhook URLs that can never be delivered to (issue 11, defect 3): with
// ALLOW_PRIVATE_URLS off they were accepted (202 / 201), then every delivery was refused
// by the connect-time guard and nobody was told. Now: a 400 naming the field, nothing stored.

const DISGUISES = [
  'https://127.0.0.1/cb',
  'https://[::1]/cb',
  'https://169.254.169.254/latest/meta-data/',
  'https://0x7f000001/cb',
  'https://127.1/cb',
  'https://localhost./cb',
  'https://LOCALHOST/cb',
  'https://api.localhost/cb',
  'https://2130706433/cb', // decimal
  'https://0177.0.0.1/cb', // octal
  'https://017700000001/cb',
  'https://0x7f.0x0.0x0.0x1/cb', // hex per part
  'https://[::ffff:127.0.0.1]/cb', // IPv4-mapped IPv6
  'https://[::ffff:a9fe:a9fe]/cb', // mapped metadata address
  'https://[64:ff9b::7f00:1]/cb', // NAT64 of loopback
  'https://[fd00::1]/cb',
  'https://10.0.0.1/cb',
  'https://192.168.1.20/cb',
  'https://172.16.5.4/cb',
  'https://0.0.0.0/cb',
  'https://0/cb',
  'https://127.0.0.1./cb',
  'https://%6c%6f%63%61%6c%68%6f%73%74/cb', // percent-encoded host
  'https://ｌｏｃａｌｈｏｓｔ/cb', // full-width letters (IDNA maps them)
  'https://hooks.acme.com@127.0.0.1/cb', // a public name as user info
  'https://metadata.google.internal/computeMetadata/v1/',
];

/** Names this machine's hosts file maps to loopback or private addresses (besides localhost). */
const HOSTS_NAMES = readFileSync('/etc/hosts', 'utf8')
  .split('\n')
  .map((l) => l.replace(/#.*/, '').trim().split(/\s+/))
  .filter(([addr]) => /^(127\.|10\.|192\.168\.|::1$)/.test(addr ?? ''))
  .flatMap(([, ...names]) => names)
  .filter((n) => n && !/localhost/.test(n))
  .slice(0, 3);

let strict: TestApp;
let key: string;
let teamId: string;
beforeAll(async () => {
  strict = await startTestApp({ role: 'api', allowPrivateUrls: false, rateLimitWindowMs: 1_000 });
  const acct = await createAccount(strict.app);
  await setTeam(strict, acct.teamId, { plan: 'enterprise', rate_limit_tier: 'premium' });
  key = acct.key;
  teamId = acct.teamId;
});
afterAll(async () => strict?.stop());

const count = async (table: string) =>
  (await strict.runtime.ctx.store.query<{ n: number }>(`select count(*)::int as n from ${table} where team_id = $1`, [teamId])).rows[0].n;

describe('with ALLOW_PRIVATE_URLS off', () => {
  it.each([...DISGUISES, ...HOSTS_NAMES.map((n) => `https://${n}/cb`)])('POST /account/projects webhook_url %s → 400', async (url) => {
    const res = await client(strict.app, key).post('/account/projects', { brand_name: 'Acme', brand_url: 'https://acme.com', webhook_url: url });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual(errorBody(expect.stringMatching(/^webhook_url must point to a public address \(.+: .+\)$/), 'invalid_request'));
    expect(await count('projects')).toBe(0);
  });

  it.each([...DISGUISES, ...HOSTS_NAMES.map((n) => `https://${n}/hook`)])('POST /webhooks url %s → 400', async (url) => {
    const res = await client(strict.app, key).post('/webhooks', { url, events: ['action.completed'] });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual(errorBody(expect.stringMatching(/^url must point to a public address \(.+: .+\)$/), 'invalid_request'));
    expect(await count('webhooks')).toBe(0);
  });

  it('the detail says which address and why', async () => {
    const res = await client(strict.app, key).post('/webhooks', { url: 'https://0x7f000001/hook', events: ['action.completed'] });
    expect(res.json().detail).toBe('url must point to a public address (127.0.0.1: loopback)');
  });

  it.each(DISGUISES.slice(0, 12))('POST /account/projects brand_url %s → 400 (its site is fetched too)', async (url) => {
    const res = await client(strict.app, key).post('/account/projects', { brand_name: 'Acme', brand_url: url, webhook_url: 'https://8.8.8.8/cb' });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual(errorBody(expect.stringMatching(/^brand_url must point to a public address \(.+: .+\)$/), 'invalid_request'));
    expect(await count('projects')).toBe(0);
  });

  it('PATCH /projects/{id} website_url on a private address → 400, the project unchanged', async () => {
    await setTeam(strict, teamId, { plan: 'enterprise', rate_limit_tier: 'premium' });
    const api = client(strict.app, key);
    const created = await api.post('/account/projects', { brand_name: 'Patchco', brand_url: 'https://patchco.com', webhook_url: 'https://8.8.8.8/cb' });
    expect(created.statusCode, created.body).toBe(202);
    const id = created.json().data.project_id;
    for (const url of ['http://192.168.1.20/', 'https://[::1]/', 'http://localhost:8080/']) {
      const res = await api.patch(`/projects/${id}`, { website_url: url });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().detail).toMatch(/^website_url must point to a public address/);
    }
    expect((await api.get(`/projects/${id}`)).json().data.website_url).toBe('https://patchco.com/');
    const ok = await api.patch(`/projects/${id}`, { website_url: 'https://www.patchco.com/' });
    expect(ok.statusCode, ok.body).toBe(200);
    await api.delete(`/projects/${id}`);
  });

  it('a public name is accepted (DNS is left to the connect-time guard)', async () => {
    const res = await client(strict.app, key).post('/webhooks', { url: 'https://hooks.acme.com/sightline', events: ['action.completed'] });
    expect(res.statusCode, res.body).toBe(201);
    const project = await client(strict.app, key).post('/account/projects', {
      brand_name: 'Acme',
      brand_url: 'https://acme.com',
      webhook_url: 'https://8.8.8.8/cb',
    });
    expect(project.statusCode, project.body).toBe(202);
  });
});

describe('with ALLOW_PRIVATE_URLS on', () => {
  let open: TestApp;
  beforeAll(async () => {
    open = await startTestApp({ role: 'api', allowPrivateUrls: true });
  });
  afterAll(async () => open?.stop());

  it('loopback and private addresses are accepted, metadata addresses still refused', async () => {
    const acct = await createAccount(open.app);
    const api = client(open.app, acct.key);
    expect((await api.post('/webhooks', { url: 'https://127.0.0.1:9/hook', events: ['action.failed'] })).statusCode).toBe(201);
    expect((await api.post('/webhooks', { url: 'https://localhost:9/hook', events: ['action.failed'] })).statusCode).toBe(201);
    const meta = await api.post('/webhooks', { url: 'https://169.254.169.254/hook', events: ['action.failed'] });
    expect(meta.statusCode).toBe(400);
    expect(meta.json().detail).toBe('url must point to a public address (169.254.169.254: cloud metadata endpoint)');
    const project = await api.post('/account/projects', { brand_name: 'Local', brand_url: 'http://127.0.0.1:3000/', webhook_url: 'https://127.0.0.1:9/cb' });
    expect(project.statusCode, project.body).toBe(202);
  });
});
