import { PgBoss, type Queue } from 'pg-boss';
import { DEFAULT_JOB_TIMINGS, type JobTimings } from '../config.js';
import type { ServiceContext } from '../context.js';
import type { Logger } from '../lib/log.js';
import type { Store } from '../store/index.js';
import type { JobQueue, JobSpec, JobStatus, SendOptions } from './catalog.js';
import type { BoundJob } from './registry.js';
import { upgradeFromPgBoss10 } from './upgrade-v10.js';

/** Advisory lock key that serialises queue set-up when several processes start at once. */
export const JOBS_SETUP_LOCK_KEY = 7_403_112_902;
/** pg-boss's schema; tests and operators read pgboss.job. */
export const JOBS_SCHEMA = 'pgboss';
/** How often a worker polls while the LISTEN connection is lost (at most JOB_POLL_SECONDS). */
const LISTENER_DOWN_POLL_SECONDS = 1;
/** A job sent to start within this long wakes this process's workers when it may start. */
const WAKE_AT_START_MAX_MS = 10 * 60_000;
/** After the job's start, so the database's clock has passed it too. */
const WAKE_AT_START_MARGIN_MS = 100;

export interface JobsOptions {
  /** Run pg-boss's supervision (expiry, lost heartbeats, maintenance) in this process. */
  supervise: boolean;
  /** Run pg-boss's cron scheduler in this process. */
  schedule: boolean;
  /** This process runs workers: listen for the jobs sent (a wake-up instead of polling). */
  listen: boolean;
  /** Names this process in pg-boss's instance registry (pgboss.instance): all, api, worker, migrate. */
  role?: string;
  timings?: JobTimings;
}

/**
 * pg-boss on our own connection (PGlite or PostgreSQL): the queues of the job catalog.
 *
 * A worker killed mid-job needs no code of ours: every queue has a heartbeat
 * (`JOB_HEARTBEAT_SECONDS`), pg-boss renews it while the handler runs, and a supervising
 * process hands a job whose heartbeat went silent back to the queue as a retry. Handlers are
 * idempotent, so running a job again is safe.
 */
export class Jobs implements JobQueue {
  readonly boss: PgBoss;
  readonly #defs = new Map<string, JobSpec<unknown>>();
  readonly #timings: JobTimings;
  /** This process's workers by queue: what a wake-up in this process reaches. */
  readonly #workers = new Map<string, string[]>();
  /** Workers running a job now (a wake-up goes to one of the others). */
  readonly #busy = new Set<string>();
  #started = false;

  constructor(
    private readonly store: Store,
    catalog: JobSpec<unknown>[],
    private readonly log: Logger,
    opts: JobsOptions,
  ) {
    for (const d of catalog) this.#defs.set(d.name, d);
    this.#timings = opts.timings ?? DEFAULT_JOB_TIMINGS;
    this.boss = new PgBoss({
      // pg-boss's NOTIFY names a queue, and pg-boss would wake every worker of it: 16 fetches
      // for one delivery, each a query on the embedded store's one thread. One idle worker is
      // woken instead; a worker that finds a job wakes the next (see work()).
      db: {
        executeSql: (text: string, values?: unknown[]) => store.executeSql(text, values),
        listen: (channel: string, _wakesEveryWorker: (queue: string) => void, onReconnect: () => void) =>
          store.listen(channel, (queue) => this.#wakeOne(queue), onReconnect),
      },
      schema: JOBS_SCHEMA,
      backend: store.kind === 'pglite' ? 'pglite' : 'postgres',
      supervise: opts.supervise,
      schedule: opts.schedule,
      migrate: true,
      // One pass looks for expired jobs and lost heartbeats; the monitor interval gates the
      // same pass per queue, so both follow JOB_SUPERVISE_SECONDS.
      superviseIntervalSeconds: this.#timings.superviseSeconds,
      monitorIntervalSeconds: this.#timings.superviseSeconds,
      instanceName: opts.role,
      // A job sent now wakes the workers of its queue the moment its transaction commits, in
      // every process (a NOTIFY, on a connection of its own on PostgreSQL, in-process on the
      // embedded store); the workers poll only as a backstop (JOB_POLL_SECONDS). Polling every
      // half second instead kept an idle embedded service busy: every fetch of every worker
      // slot is a query on the process's one thread. A process without workers (API, migrate)
      // only sends, and holds no listening connection.
      useListenNotify: opts.listen,
    });
    this.boss.on('error', (err) => this.log.error({ err }, 'job queue error'));
    // pg-boss's own diagnoses (a slow query, a queue backlog, clock skew, vacuum falling behind).
    this.boss.on('warning', (w) => this.log.warn({ data: w.data }, `job queue: ${w.message}`));
  }

  async start(): Promise<void> {
    await this.#exclusive(() => this.#setUp());
    this.#started = true;
  }

  /**
   * Runs `fn` while no other process of this database sets up its queue: the upgrade from a
   * pg-boss 10 schema must run once, and queue creation used to deadlock when several
   * processes started at once on a fresh database. The embedded store has one process, so
   * no lock.
   */
  async #exclusive(fn: () => Promise<void>): Promise<void> {
    if (this.store.kind !== 'postgres') return fn();
    await this.store.tx(async (tx) => {
      await tx.query('select pg_advisory_xact_lock($1)', [JOBS_SETUP_LOCK_KEY]);
      await fn();
    });
  }

  async #setUp(): Promise<void> {
    // pg-boss 12 cannot migrate a pg-boss 10 schema: set it aside first, carry its jobs over after.
    const upgrade = await upgradeFromPgBoss10(this.store, JOBS_SCHEMA, this.log);
    await this.boss.start();
    for (const d of this.#defs.values()) {
      const options = this.#queueOptions(d);
      // createQueue leaves an existing queue as it is: the update applies a changed retry
      // policy or heartbeat to queues created by an earlier release.
      await this.boss.createQueue(d.name, { policy: d.policy ?? 'standard', ...options });
      await this.boss.updateQueue(d.name, options);
    }
    await upgrade?.carryOver(this.boss);
  }

  #queueOptions(d: JobSpec<unknown>): Omit<Queue, 'name' | 'policy'> {
    return {
      retryLimit: d.retry.limit,
      retryDelay: d.retry.delaySeconds,
      retryBackoff: d.retry.backoff,
      expireInSeconds: d.expireInSeconds,
      heartbeatSeconds: this.#timings.heartbeatSeconds,
      // a job sent to this queue NOTIFYs its workers (see useListenNotify above)
      notify: true,
    };
  }

  /** Registers the cron definitions (worker and all roles). */
  async schedule(): Promise<void> {
    for (const d of this.#defs.values()) {
      if (d.cron) await this.boss.schedule(d.name, d.cron, {}, { tz: 'UTC' });
    }
  }

  /** Starts the handlers of the registry (worker and all roles). */
  async work(ctx: ServiceContext, registry: BoundJob[]): Promise<void> {
    for (const { spec: d, handle } of registry) {
      // One work() per slot rather than localConcurrency: notifyWorker below wakes one worker id.
      for (let i = 0; i < (d.concurrency ?? 1); i++) {
        let workerId = '';
        const polling = {
          batchSize: 1,
          // while the listener is up (a backstop) and while it is down (the only way in)
          notifyPollingIntervalSeconds: this.#timings.pollSeconds,
          pollingIntervalSeconds: Math.min(this.#timings.pollSeconds, LISTENER_DOWN_POLL_SECONDS),
        };
        workerId = await this.boss.work<unknown>(d.name, polling, async ([job]) => {
          // pg-boss 12 still waits out the rest of its polling interval after a fruitful fetch
          // (src/worker.ts: burst mode needs batchSize > 1): this worker asks for the next job as
          // soon as this one ends, and waits only when the queue is empty. And there may be more
          // where this one came from (a transaction's jobs share one NOTIFY): the next idle worker
          // looks now, and so on while the fetches find jobs.
          this.#busy.add(workerId);
          setImmediate(() => {
            this.boss.notifyWorker(workerId);
            this.#wakeOne(d.name);
          });
          try {
            return await this.#run(ctx, d, handle, job);
          } finally {
            this.#busy.delete(workerId);
          }
        });
        this.#workers.set(d.name, [...(this.#workers.get(d.name) ?? []), workerId]);
      }
    }
  }

  /** One job: its payload checked against the catalog, then its handler. */
  async #run(ctx: ServiceContext, d: JobSpec<unknown>, handle: BoundJob['handle'], job: { id: string; data: unknown; retryCount: number }): Promise<unknown> {
    this.log.debug({ job: job.id, queue: d.name, retryCount: job.retryCount }, 'job started');
    const parsed = d.payload.safeParse(job.data);
    if (!parsed.success) {
      this.log.error({ job: job.id, queue: d.name, issues: parsed.error.issues }, 'bad job payload');
      throw new Error(`Invalid payload for ${d.name}`);
    }
    return handle(ctx, parsed.data, { id: job.id, retryCount: job.retryCount });
  }

  /** Wakes one idle worker of `name` in this process to fetch now (none idle: each busy one fetches again when it ends). */
  #wakeOne(name: string): void {
    const idle = this.#workers.get(name)?.find((id) => !this.#busy.has(id));
    if (idle) this.boss.notifyWorker(idle);
  }

  async send<P>(job: JobSpec<P>, payload: P, opts: SendOptions = {}): Promise<string | null> {
    if (this.#defs.get(job.name) !== job) throw new Error(`Unknown job ${job.name}`);
    const data = job.payload.parse(payload) as object;
    const id = await this.boss.send(job.name, data, {
      id: opts.id,
      startAfter: opts.startAfter,
      singletonKey: opts.singletonKey,
      db: opts.tx,
    });
    // No notification announces a job once its start comes (a webhook's next attempt): a
    // worker of this process that could take it is woken then, not at its next poll.
    const delayMs = opts.startAfter === undefined ? 0 : typeof opts.startAfter === 'number' ? opts.startAfter * 1000 : opts.startAfter.getTime() - Date.now();
    if (delayMs > 0 && delayMs <= WAKE_AT_START_MAX_MS && this.#workers.has(job.name)) {
      setTimeout(() => this.#wakeOne(job.name), delayMs + WAKE_AT_START_MARGIN_MS).unref();
    }
    return id;
  }

  /** A job of any queue by id, while pg-boss keeps it (a week after it ends, by default). */
  async find(id: string): Promise<JobStatus | null> {
    for (const name of this.#defs.keys()) {
      const found = await this.status(name, id);
      if (found) return found;
    }
    return null;
  }

  async status(name: string, id: string): Promise<JobStatus | null> {
    const [job] = await this.boss.findJobs(name, { id });
    if (!job) return null;
    return { id: job.id, name: job.name, state: job.state, output: job.output, createdOn: job.createdOn, completedOn: job.completedOn };
  }

  /** Stop fetching; wait (bounded) for running handlers; pg-boss fails what is left, to be retried. */
  async stop(timeoutMs = 10_000): Promise<void> {
    if (!this.#started) return;
    this.#started = false;
    await this.boss.stop({ graceful: true, timeout: timeoutMs, close: false }).catch((err) => {
      this.log.warn({ err }, 'job queue stop');
    });
  }
}
