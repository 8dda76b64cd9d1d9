import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, createAccount, createProject, STORE, startTestApp, until, type TestApp } from './helpers.js';

// DATABASE_READ_URL naming a server that is not a standby (here the primary itself, under
// another host name, as a promoted replica would be): never read from, since what it holds
// would drift from the primary; reads answer from the primary. The replica's whole life
// (streaming, lagging, stopped, silent) is in test/server-mode/replica.test.ts.
describe.skipIf(STORE !== 'postgres')('a read replica that is not a standby', () => {
  let t: TestApp;
  beforeAll(async () => {
    // The suite's own server (a primary) by another host name.
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.hostname = url.hostname === 'localhost' ? '127.0.0.1' : 'localhost';
    t = await startTestApp({ role: 'api', replicaMaxLagMs: 1_000, databaseReadUrl: url.toString() });
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('is marked down and retried; every read answers from the primary', async () => {
    const status = await until(async () => {
      const s = (await t.app.inject({ url: '/healthz' })).json().replica;
      return s?.state === 'down' && s;
    }, 20_000, 50);
    expect(status).toMatchObject({ state: 'down', max_lag_ms: 1_000, lag_ms: null, retry_at: expect.any(String) });
    const account = await createAccount(t.app);
    const projectId = await createProject(t.app, account.key);
    const c = client(t.app, account.key);
    const res = await c.get(`/v1/projects/${projectId}/competitors`);
    expect(res.statusCode, res.body).toBe(200);
    const reads = (await t.app.inject({ url: '/healthz' })).json().replica.reads;
    expect(reads).toMatchObject({ replica: 0, primary_behind: 0, fell_back: 0 });
    expect(reads.primary_unhealthy).toBeGreaterThanOrEqual(1);
  });
});
