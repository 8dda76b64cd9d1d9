import PgBoss from 'pg-boss';
import type { ServiceContext } from '../context.js';
import type { Logger } from '../lib/log.js';
import type { Store } from '../store/index.js';
import type { JobQueue, JobSpec, JobStatus, SendOptions } from './catalog.js';
import type { LeaseTimings } from '../config.js';
import { Leases } from './leases.js';
import type { BoundJob } from './registry.js';

/** Advisory lock key that serialises queue set-up when several processes start at once. */
export const JOBS_SETUP_LOCK_KEY = 7_403_112_902;

/** pg-boss on our own connection (PGlite or PostgreSQL): the queues of the job catalog. */
export class Jobs implements JobQueue {
  readonly boss: PgBoss;
  readonly #defs = new Map<string, JobSpec<any>>();
  #started = false;
  #leases: Leases | null = null;

  constructor(
    private readonly store: Store,
    catalog: JobSpec<any>[],
    private readonly log: Logger,
    private readonly opts: { supervise: boolean; schedule: boolean; role?: string; leaseTimings?: LeaseTimings },
  ) {
    for (const d of catalog) this.#defs.set(d.name, d);
    this.boss = new PgBoss({
      db: store,
      schema: 'pgboss',
      supervise: opts.supervise,
      schedule: opts.schedule,
      migrate: true,
    } as any);
    this.boss.on('error', (err) => this.log.error({ err }, 'job queue error'));
  }

  async start(): Promise<void> {
    await this.#exclusive(() => this.#setUp());
    this.#started = true;
  }

  /**
   * Runs `fn` while no other process of this database sets up its queue: pg-boss creates a
   * queue (a row plus a partition of its job table) in one statement that deadlocks when
   * several processes start at once on a fresh database. The embedded store has one
   * process, so no lock.
   */
  async #exclusive(fn: () => Promise<void>): Promise<void> {
    if (this.store.kind !== 'postgres') return fn();
    await this.store.tx(async (tx) => {
      await tx.query('select pg_advisory_xact_lock($1)', [JOBS_SETUP_LOCK_KEY]);
      await fn();
    });
  }

  async #setUp(): Promise<void> {
    await this.boss.start();
    if (this.store.kind === 'pglite') {
      // The data-folder lock guarantees this process is the store's only user, so a job
      // still marked active was cut off by a crash or kill: make it runnable again now
      // instead of waiting for it to expire.
      const { rowCount } = await this.store.query(
        `update pgboss.job set state = 'retry', start_after = now() where state = 'active'`,
      );
      if (rowCount) this.log.warn({ jobs: rowCount }, 'resumed jobs interrupted by the last stop');
    }
    for (const d of this.#defs.values()) {
      await this.boss.createQueue(d.name, {
        name: d.name,
        policy: d.policy ?? 'standard',
        retryLimit: d.retry.limit,
        retryDelay: d.retry.delaySeconds,
        retryBackoff: d.retry.backoff,
        expireInSeconds: d.expireInSeconds,
      } as any);
    }
  }

  /** Registers the cron definitions (worker and all roles). */
  async schedule(): Promise<void> {
    for (const d of this.#defs.values()) {
      if (d.cron) await this.boss.schedule(d.name, d.cron, {}, { tz: 'UTC' } as any);
    }
  }

  /** Starts the handlers of the registry (worker and all roles). */
  async work(ctx: ServiceContext, registry: BoundJob[]): Promise<void> {
    const leases = (this.#leases = new Leases(this.store, this.log, this.opts.role ?? 'worker', this.opts.leaseTimings));
    await leases.start();
    for (const { spec: d, handle } of registry) {
      for (let i = 0; i < (d.concurrency ?? 1); i++) {
        // includeMetadata: without it pg-boss leaves out retryCount, and no handler could tell its last attempt
        let workerId = '';
        workerId = await this.boss.work(d.name, { batchSize: 1, pollingIntervalSeconds: 0.5, includeMetadata: true }, async ([job]) => {
          // pg-boss waits a polling interval after every fetch, even a fruitful one: ask for
          // the next job at once after finishing one, and wait only when the queue is empty.
          setImmediate(() => this.boss.notifyWorker(workerId));
          const parsed = d.payload.safeParse(job.data);
          if (!parsed.success) {
            this.log.error({ job: job.id, queue: d.name, issues: parsed.error.issues }, 'bad job payload');
            throw new Error(`Invalid payload for ${d.name}`);
          }
          await leases.take(job.id, d.name);
          try {
            return await handle(ctx, parsed.data, { id: job.id, retryCount: (job as any).retryCount ?? 0 });
          } finally {
            await leases.release(job.id).catch(() => {});
          }
        });
      }
    }
  }

  async send<P>(job: JobSpec<P>, payload: P, opts: SendOptions = {}): Promise<string | null> {
    if (this.#defs.get(job.name) !== job) throw new Error(`Unknown job ${job.name}`);
    const data = job.payload.parse(payload);
    return this.boss.send(job.name, data as object, {
      id: opts.id,
      startAfter: opts.startAfter as any,
      singletonKey: opts.singletonKey,
      db: opts.tx,
    } as any);
  }

  /** A job of any queue by id, live or archived. */
  async find(id: string): Promise<JobStatus | null> {
    for (const name of this.#defs.keys()) {
      const found = await this.status(name, id);
      if (found) return found;
    }
    return null;
  }

  async status(name: string, id: string): Promise<JobStatus | null> {
    const job = (await this.boss.getJobById(name, id, { includeArchive: true } as any)) as any;
    if (!job) return null;
    return {
      id: job.id,
      name: job.name,
      state: job.state,
      output: job.output,
      createdOn: job.createdOn ?? job.created_on,
      completedOn: job.completedOn ?? job.completed_on ?? null,
    };
  }

  /** Stop fetching; wait (bounded) for running handlers; in-flight jobs left are retried later. */
  async stop(timeoutMs = 10_000): Promise<void> {
    if (!this.#started) return;
    this.#started = false;
    await this.boss.stop({ graceful: true, wait: true, timeout: timeoutMs, close: false } as any).catch((err) => {
      this.log.warn({ err }, 'job queue stop');
    });
    await this.#leases?.stop();
  }
}
