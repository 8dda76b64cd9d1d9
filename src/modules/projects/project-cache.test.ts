import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver, type Receiver } from '../../../test/fakes/receiver.js';
import { client, createAccount, createProject, startTestApp, until, type TestApp } from '../../../test/helpers.js';
import { serializerCompiler } from 'fastify-type-provider-zod';
import type { ZodType } from 'zod';
import { TtlCache } from '../../lib/ttl-cache.js';
import { forgetProject } from './project-row.js';
import * as schemas from './schema.js';

// GET /projects/{id} answers from the per-process cache for AUTH_CACHE_MS (no store read
// per request); whatever changes its answer in this process forgets it at once. An hour
// of cache here, so only a forgotten entry can explain a fresh answer.

let t: TestApp;
let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
  t = await startTestApp({ authCacheMs: 3_600_000, allowPrivateUrls: true, providersMode: 'simulated', webhookRetryBaseMs: 20 });
});
afterAll(async () => {
  await t?.stop();
  await receiver?.close();
});

const nameBehindTheApi = (id: string, name: string) => t.runtime.ctx.store.query(`update projects set name = $2 where id = $1`, [id, name]);

describe('GET /projects/{id} from the project cache', () => {
  it('answers from the cache until an edit through the API, which shows at once', async () => {
    const acct = await createAccount(t.app);
    const id = await createProject(t.app, acct.key, { brand_name: 'Cacheco' });
    const api = client(t.app, acct.key);
    expect((await api.get(`/projects/${id}`)).json().data.name).toBe('Cacheco');
    await nameBehindTheApi(id, 'Written in SQL');
    expect((await api.get(`/projects/${id}`)).json().data.name).toBe('Cacheco');
    expect((await api.get(`/projects/${id.toUpperCase()}`)).json().data.name).toBe('Cacheco');
    const patched = await api.patch(`/projects/${id}`, { brand_aliases: ['Cache Co'] });
    expect(patched.statusCode, patched.body).toBe(200);
    const after = (await api.get(`/projects/${id}`)).json().data;
    expect(after).toMatchObject({ name: 'Written in SQL', brand_aliases: ['Cache Co'] });
    expect(patched.json().data).toEqual(after);
  });

  it("a cached project is still another team's: 403", async () => {
    const owner = await createAccount(t.app);
    const other = await createAccount(t.app);
    const id = await createProject(t.app, owner.key, { brand_name: 'Ownedco' });
    expect((await client(t.app, owner.key).get(`/projects/${id}`)).statusCode).toBe(200);
    const res = await client(t.app, other.key).get(`/projects/${id}`);
    expect(res.statusCode).toBe(403);
    expect(res.json().detail).toBe('Project does not belong to your team');
  });

  it('a deleted project is 404 at once', async () => {
    const acct = await createAccount(t.app);
    const id = await createProject(t.app, acct.key, { brand_name: 'Goneco' });
    const api = client(t.app, acct.key);
    expect((await api.get(`/projects/${id}`)).statusCode).toBe(200);
    expect((await api.delete(`/projects/${id}`)).statusCode).toBe(200);
    expect((await api.get(`/projects/${id}`)).statusCode).toBe(404);
  });

  it("the bootstrap's end and its callback's fate show while the answer is cached", async () => {
    const acct = await createAccount(t.app);
    const api = client(t.app, acct.key);
    const res = await api.post('/account/projects', { brand_name: 'Pollco', brand_url: 'http://127.0.0.1:1/', webhook_url: receiver.url });
    expect(res.statusCode, res.body).toBe(202);
    const id = res.json().data.project_id as string;
    const first = (await api.get(`/projects/${id}`)).json().data;
    expect(['initializing', 'completed']).toContain(first.bootstrap_status);
    const done = await until(async () => {
      const d = (await api.get(`/projects/${id}`)).json().data;
      return d.callback_status === 'delivered' ? d : null;
    }, 45_000);
    expect(done).toMatchObject({ bootstrap_status: 'completed', bootstrap_error: null, callback_status: 'delivered' });
  });
});

describe('the project routes serialized without zod (src/http/serializer.ts)', () => {
  // Each body as sent must be zod's serialization of the same answer, byte for byte: the
  // contract's shape and key order, nothing more (zod drops extra keys).
  const asZod = (schema: ZodType, url: string, body: string) =>
    (serializerCompiler as any)({ schema, method: 'GET', url })(JSON.parse(body)) as string;

  it('GET, PATCH and DELETE, in every state of the bootstrap', async () => {
    const acct = await createAccount(t.app);
    const id = await createProject(t.app, acct.key, { brand_name: 'Shapeco', location: 'de', language: 'DE' });
    const api = client(t.app, acct.key);
    const url = '/v1/projects/:project_id';
    const bodies: string[] = [];
    const get = async () => {
      const res = await api.get(`/projects/${id}`);
      expect(res.statusCode, res.body).toBe(200);
      bodies.push(res.body);
      expect(res.body).toBe(asZod(schemas.ProjectEnvelope, url, res.body));
    };
    await get();
    const patched = await api.patch(`/projects/${id}`, { brand_aliases: ['Shape Co', 'Shapes'], samples_per_run: 1, sampling: 'adaptive', sampling_margin: 2.5 });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.body).toBe(asZod(schemas.ProjectEnvelope, url, patched.body));
    for (const [status, error] of [['error', 'No AI provider answered'], ['error', null], ['completed', null]]) {
      await t.runtime.ctx.store.query(`update projects set status = $2, status_error = $3 where id = $1`, [id, status, error]);
      forgetProject(t.runtime.ctx, id);
      await get();
    }
    expect(bodies.map((b) => JSON.parse(b).data.bootstrap_error)).toEqual([null, 'No AI provider answered', 'Bootstrap failed', null]);
    const deleted = await api.delete(`/projects/${id}`);
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(deleted.body).toBe(asZod(schemas.ProjectDeleted, url, deleted.body));
  });
});

describe('GET /projects/{id} with AUTH_CACHE_MS=0', () => {
  let fresh: TestApp;
  beforeAll(async () => {
    fresh = await startTestApp({ authCacheMs: 0 });
  });
  afterAll(async () => fresh?.stop());

  it('reads the store on every request', async () => {
    const acct = await createAccount(fresh.app);
    const id = await createProject(fresh.app, acct.key, { brand_name: 'Freshco' });
    const api = client(fresh.app, acct.key);
    expect((await api.get(`/projects/${id}`)).json().data.name).toBe('Freshco');
    await fresh.runtime.ctx.store.query(`update projects set name = 'Renamed' where id = $1`, [id]);
    expect((await api.get(`/projects/${id}`)).json().data.name).toBe('Renamed');
  });
});

describe('TtlCache versions', () => {
  it('keeps no value read before a forget that happened meanwhile', () => {
    const cache = new TtlCache<string>(60_000);
    const before = cache.version;
    cache.delete('p');
    cache.set('p', 'read before the change', before);
    expect(cache.get('p')).toBeUndefined();
    cache.set('p', 'read after', cache.version);
    expect(cache.get('p')).toBe('read after');
  });
});
