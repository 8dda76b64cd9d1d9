import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/helpers.js';
import { refreshJob } from './catalog.js';
import { Leases } from './leases.js';

// A worker killed mid-job (no graceful stop, no lease release) must not strand its job:
// once its heartbeat is older than deadAfterMs, any other worker's reap hands the job back.
describe('job leases', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ role: 'api' });
  });
  afterAll(async () => t?.stop());

  it('hands the active jobs of a silent worker back to the queue, and only those', async () => {
    const { store, jobs, log } = t.runtime.ctx;
    const timings = { heartbeatMs: 50, deadAfterMs: 300, reapEveryMs: 60_000 };
    const alive = new Leases(store, log, 'worker', timings);
    await alive.start();
    // A worker that was killed: registered, holding a lease, heartbeat stopped 1 s ago.
    await store.query(
      `insert into worker_processes (id, role, host, pid, heartbeat_at) values ('dead-worker', 'worker', 'h', 1, now() - interval '1 second')`,
    );
    const send = () =>
      jobs.send(refreshJob, { projectId: crypto.randomUUID(), day: '2030-01-01', runId: crypto.randomUUID(), kind: 'manual' });
    const [a, b] = [await send(), await send()];
    await store.query(`update pgboss.job set state = 'active', started_on = now() where id = any($1::uuid[])`, [[a, b]]);
    await store.query(`insert into job_leases (job_id, queue, worker_id) values ($1, 'project-refresh', 'dead-worker')`, [a]);
    await alive.take(b!, 'project-refresh');
    expect(await alive.reap()).toBe(1);
    expect(await alive.reap()).toBe(0); // the lease is gone: nothing to hand back twice
    const states = await store.query<{ id: string; state: string; retry_count: number }>(
      `select id, state, retry_count from pgboss.job where id = any($1::uuid[])`,
      [[a, b]],
    );
    const byId = Object.fromEntries(states.rows.map((r) => [r.id, r]));
    expect(byId[a!]).toMatchObject({ state: 'retry', retry_count: 1 });
    expect(byId[b!]).toMatchObject({ state: 'active' });
    await alive.stop();
  });
});
