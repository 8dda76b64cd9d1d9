import crypto from 'node:crypto';
import os from 'node:os';
import type { Logger } from '../lib/log.js';
import { DEFAULT_LEASE_TIMINGS, type LeaseTimings } from '../config.js';
import type { Store } from '../store/index.js';


/**
 * Leases of running jobs, so a worker killed mid-job loses no work: another worker (or the
 * same one restarted) sees its heartbeat stop and puts its active jobs back in the queue
 * as a retry. Handlers are idempotent, so running a job again is safe.
 */
export class Leases {
  readonly workerId = `${os.hostname()}:${process.pid}:${crypto.randomBytes(3).toString('hex')}`;
  #timers: NodeJS.Timeout[] = [];

  constructor(
    private readonly store: Store,
    private readonly log: Logger,
    private readonly role: string,
    private readonly timings: LeaseTimings = DEFAULT_LEASE_TIMINGS,
  ) {}

  async start(): Promise<void> {
    await this.#beat();
    const every = (ms: number, fn: () => Promise<unknown>) => {
      const timer = setInterval(() => void fn().catch((err) => this.log.warn({ err }, 'job lease upkeep failed')), ms);
      timer.unref();
      this.#timers.push(timer);
    };
    every(this.timings.heartbeatMs, () => this.#beat());
    every(this.timings.reapEveryMs, () => this.reap());
  }

  /**
   * Registers this process or renews its heartbeat. An upsert, not an update: after a store
   * outage longer than 4 × deadAfterMs, any reaper (this one included) prunes every row,
   * live processes too, and a process that only updated its row would stay unregistered,
   * its running jobs handed back to the queue at every reap.
   */
  #beat(): Promise<unknown> {
    return this.store.query(
      `insert into worker_processes (id, role, host, pid) values ($1, $2, $3, $4)
       on conflict (id) do update set heartbeat_at = now()`,
      [this.workerId, this.role, os.hostname(), process.pid],
    );
  }

  take(jobId: string, queue: string): Promise<unknown> {
    return this.store.query(
      `insert into job_leases (job_id, queue, worker_id) values ($1, $2, $3)
       on conflict (job_id) do update set worker_id = excluded.worker_id, taken_at = now()`,
      [jobId, queue, this.workerId],
    );
  }

  release(jobId: string): Promise<unknown> {
    return this.store.query(`delete from job_leases where job_id = $1 and worker_id = $2`, [jobId, this.workerId]);
  }

  /** Hands the active jobs of silent processes back to the queue; returns how many. */
  async reap(): Promise<number> {
    return this.store.tx(async (tx) => {
      const dead = await tx.query<{ job_id: string; queue: string }>(
        `delete from job_leases l
          where not exists (select 1 from worker_processes w
                             where w.id = l.worker_id and w.heartbeat_at > now() - make_interval(secs => $1::double precision / 1000))
          returning job_id, queue`,
        [this.timings.deadAfterMs],
      );
      await tx.query(`delete from worker_processes where heartbeat_at < now() - make_interval(secs => $1::double precision / 1000)`, [
        this.timings.deadAfterMs * 4,
      ]);
      if (!dead.rows.length) return 0;
      const moved = await tx.query(
        `update pgboss.job j set state = case when j.retry_count < j.retry_limit then 'retry'::pgboss.job_state else 'failed'::pgboss.job_state end,
                retry_count = j.retry_count + 1, start_after = now()
           from unnest($1::uuid[], $2::text[]) as d(id, name)
          where j.id = d.id and j.name = d.name and j.state = 'active'`,
        [dead.rows.map((r) => r.job_id), dead.rows.map((r) => r.queue)],
      );
      if (moved.rowCount) this.log.warn({ jobs: moved.rowCount }, 'jobs of a silent worker handed back to the queue');
      return moved.rowCount;
    });
  }

  async stop(): Promise<void> {
    for (const t of this.#timers) clearInterval(t);
    this.#timers = [];
    await this.store.query(`delete from worker_processes where id = $1`, [this.workerId]).catch(() => {});
  }
}
