import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { STORE, startTestApp, until, type TestApp } from '../../test/helpers.js';
import { ConfigError, loadConfig } from '../config.js';
import { jobCatalog, refreshJob } from './catalog.js';
import { Jobs } from './queue.js';
import type { Tx } from '../store/index.js';

describe('job heartbeat settings', () => {
  it('default to a 30 s heartbeat and a 10 s supervision pass', () => {
    expect(loadConfig({}).jobTimings).toEqual({ heartbeatSeconds: 30, superviseSeconds: 10, pollSeconds: 5 });
    expect(loadConfig({ JOB_HEARTBEAT_SECONDS: '12', JOB_SUPERVISE_SECONDS: '2', JOB_POLL_SECONDS: '0.5' }).jobTimings).toEqual({
      heartbeatSeconds: 12,
      superviseSeconds: 2,
      pollSeconds: 0.5,
    });
    expect(() => loadConfig({ JOB_POLL_SECONDS: '0.1' })).toThrow(/JOB_POLL_SECONDS/);
  });

  it('refuse a heartbeat under pg-boss minimum of 10 s, naming the variable', () => {
    expect(() => loadConfig({ JOB_HEARTBEAT_SECONDS: '5' })).toThrow(/JOB_HEARTBEAT_SECONDS/);
    expect(() => loadConfig({ JOB_SUPERVISE_SECONDS: '0' })).toThrow(/JOB_SUPERVISE_SECONDS/);
  });

  it('refuse the lease settings of earlier releases with the name of their replacement', () => {
    expect(() => loadConfig({ JOB_DEAD_AFTER_MS: '30000' })).toThrow(ConfigError);
    expect(() => loadConfig({ JOB_DEAD_AFTER_MS: '30000' })).toThrow(/JOB_DEAD_AFTER_MS: replaced by JOB_HEARTBEAT_SECONDS/);
    expect(() => loadConfig({ JOB_REAP_EVERY_MS: '500' })).toThrow(/replaced by JOB_SUPERVISE_SECONDS/);
    expect(() => loadConfig({ JOB_HEARTBEAT_MS: '' })).not.toThrow(); // empty counts as unset
  });
});

// What replaced our job leases: a worker that took a job and went silent (killed before its
// first heartbeat) does not hold it until the job's expiry (an hour for a collection run).
describe('a job whose worker went silent', () => {
  let t: TestApp;
  let jobs: Jobs;
  beforeAll(async () => {
    // ROLE=api: no handler runs in the app, so the only taker of the job is the fetch below;
    // a second Jobs on the same store supervises, as any worker process does.
    t = await startTestApp({ role: 'api' }, { JOB_HEARTBEAT_SECONDS: '10', JOB_SUPERVISE_SECONDS: '1' });
    jobs = new Jobs(t.runtime.ctx.store, jobCatalog, t.runtime.ctx.log, { supervise: true, schedule: false, listen: false, role: 'test', timings: t.config.jobTimings });
    await jobs.start();
  });
  afterAll(async () => {
    await jobs?.stop();
    await t?.stop();
  });

  it('every queue carries the configured heartbeat', async () => {
    for (const d of jobCatalog) expect((await jobs.boss.getQueue(d.name))?.heartbeatSeconds).toBe(10);
  });

  it('goes back to the queue as a retry once its heartbeat is older than JOB_HEARTBEAT_SECONDS', async () => {
    const id = await t.runtime.ctx.jobs.send(refreshJob, { projectId: crypto.randomUUID(), day: '2030-01-01', runId: crypto.randomUUID(), kind: 'manual' });
    const [taken] = await jobs.boss.fetch(refreshJob.name);
    expect(taken.id).toBe(id);
    const takenAt = Date.now();
    expect((await jobs.status(refreshJob.name, id!))?.state).toBe('active');
    const back = await until(async () => {
      const [job] = await jobs.boss.findJobs(refreshJob.name, { id: id! });
      return job.state !== 'active' && job;
    }, 30_000, 250);
    expect(back).toMatchObject({ state: 'retry', output: { value: { message: 'job heartbeat timeout' } } });
    expect(Date.now() - takenAt).toBeGreaterThanOrEqual(9_000);
  }, 40_000);
});

// Workers are woken by the job itself (LISTEN/NOTIFY), not by polling: an idle service runs
// no fetch for JOB_POLL_SECONDS, and a job sent, in a transaction or to start a little later,
// is still taken at once.
describe('workers woken by the jobs sent', () => {
  let t: TestApp;
  let jobs: Jobs;
  const taken: Array<{ id: string; at: number }> = [];
  let holdMs = 0;
  let running = 0;
  let mostAtOnce = 0;
  let fetchSql: ReturnType<typeof vi.spyOn>;
  const fetches = () => fetchSql.mock.calls.filter(([text]: unknown[]) => /skip locked/i.test(String(text))).length;
  const sendRefresh = (opts: { tx?: Tx; startAfter?: Date } = {}) =>
    jobs.send(refreshJob, { projectId: crypto.randomUUID(), day: '2030-01-01', runId: crypto.randomUUID(), kind: 'manual' }, opts);

  beforeAll(async () => {
    // ROLE=api: the app's own workers are not there; these take the refresh queue, polling
    // only every 300 s
    t = await startTestApp({ role: 'api' });
    const store = t.runtime.ctx.store;
    jobs = new Jobs(store, jobCatalog, t.runtime.ctx.log, {
      supervise: false,
      schedule: false,
      listen: true,
      role: 'test',
      timings: { ...t.config.jobTimings, pollSeconds: 300 },
    });
    await jobs.start();
    fetchSql = vi.spyOn(store, 'executeSql');
    const handle = async (_ctx: unknown, _payload: unknown, meta: { id: string }) => {
      taken.push({ id: meta.id, at: Date.now() });
      running++;
      mostAtOnce = Math.max(mostAtOnce, running);
      await new Promise((r) => setTimeout(r, holdMs));
      running--;
    };
    await jobs.work(t.runtime.ctx, [{ spec: refreshJob, handle }]);
  });
  afterAll(async () => {
    fetchSql?.mockRestore();
    await jobs?.stop();
    await t?.stop();
  });

  const takenOf = (id: string | null) => until(async () => taken.find((j) => j.id === id), 10_000, 20);

  it('an idle worker does not poll', async () => {
    // each worker slot fetches once when it starts, then waits for a wake-up
    await until(async () => fetches() >= (refreshJob.concurrency ?? 1) && fetches(), 10_000, 50);
    const before = fetches();
    await new Promise((r) => setTimeout(r, 2_500));
    expect(fetches() - before).toBe(0);
  });

  it('a job sent is taken at once', async () => {
    const sentAt = Date.now();
    const id = await sendRefresh();
    expect((await takenOf(id)).at - sentAt).toBeLessThan(5_000);
  });

  it('a job sent wakes one worker, not every worker of its queue', async () => {
    const slots = refreshJob.concurrency ?? 1;
    expect(slots).toBeGreaterThanOrEqual(4);
    await new Promise((r) => setTimeout(r, 300));
    const before = fetches();
    await takenOf(await sendRefresh());
    await new Promise((r) => setTimeout(r, 500));
    // the woken worker's fetch, the next worker it wakes and its own next look finding nothing
    // (every worker of the queue woken: one fetch a slot and more)
    expect(fetches() - before).toBeLessThanOrEqual(3);
  });

  it('the jobs of one transaction (one notification) are taken side by side', async () => {
    const slots = refreshJob.concurrency ?? 1;
    holdMs = 400;
    mostAtOnce = 0;
    try {
      const ids = await t.runtime.ctx.store.tx(async (tx) => Promise.all(Array.from({ length: slots }, () => sendRefresh({ tx }))));
      for (const id of ids) await takenOf(id);
      expect(mostAtOnce).toBe(slots);
    } finally {
      holdMs = 0;
    }
  });

  it('a job sent in a transaction is taken once the transaction commits', async () => {
    let committedAt = 0;
    const id = await t.runtime.ctx.store.tx(async (tx) => {
      const sent = await sendRefresh({ tx });
      // not before the commit: the job is not there for anyone else yet
      await new Promise((r) => setTimeout(r, 300));
      expect(taken.some((j) => j.id === sent)).toBe(false);
      committedAt = Date.now();
      return sent;
    });
    expect((await takenOf(id)).at - committedAt).toBeLessThan(5_000);
  });

  it('a job sent to start later is taken when it may start', async () => {
    const startAfter = new Date(Date.now() + 700);
    const id = await sendRefresh({ startAfter });
    const job = await takenOf(id);
    expect(job.at).toBeGreaterThanOrEqual(startAfter.getTime());
    expect(job.at - startAfter.getTime()).toBeLessThan(5_000);
  });

  it.runIf(STORE === 'postgres')('a lost LISTEN connection is made again, and jobs sent after are taken at once', async () => {
    const listeners = () =>
      t.runtime.ctx.store.query<{ pid: number }>(`select pid from pg_stat_activity where application_name = 'sightline-listen' and datname = current_database()`);
    const before = (await listeners()).rows;
    expect(before.length).toBeGreaterThanOrEqual(1);
    await t.runtime.ctx.store.query('select pg_terminate_backend(pid) from pg_stat_activity where pid = any($1::int[])', [before.map((r) => r.pid)]);
    const again = await until(async () => {
      const now = (await listeners()).rows;
      return now.length >= before.length && now.every((r) => !before.some((b) => b.pid === r.pid)) && now;
    }, 15_000, 100);
    expect(again.length).toBe(before.length);
    const sentAt = Date.now();
    const id = await sendRefresh();
    expect((await takenOf(id)).at - sentAt).toBeLessThan(5_000);
  }, 30_000);
});
