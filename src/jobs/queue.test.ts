import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, until, type TestApp } from '../../test/helpers.js';
import { ConfigError, loadConfig } from '../config.js';
import { jobCatalog, refreshJob } from './catalog.js';
import { Jobs } from './queue.js';

describe('job heartbeat settings', () => {
  it('default to a 30 s heartbeat and a 10 s supervision pass', () => {
    expect(loadConfig({}).jobTimings).toEqual({ heartbeatSeconds: 30, superviseSeconds: 10 });
    expect(loadConfig({ JOB_HEARTBEAT_SECONDS: '12', JOB_SUPERVISE_SECONDS: '2' }).jobTimings).toEqual({ heartbeatSeconds: 12, superviseSeconds: 2 });
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
    jobs = new Jobs(t.runtime.ctx.store, jobCatalog, t.runtime.ctx.log, { supervise: true, schedule: false, role: 'test', timings: t.config.jobTimings });
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
