import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PROJECT_PROVIDERS, PROVIDERS } from '../../src/ports/providers/types.js';

import { startFakeProvider, type FakeProvider } from '../fakes/index.js';
import { startReceiver } from '../fakes/receiver.js';
import { until, errorBody } from '../helpers.js';
import {
  call,
  cleanup,
  createTenant,
  freshDatabase,
  hasRedisServer,
  jobHolder,
  onCleanup,
  printProcessOutputOnFailure,
  postgresBinDir,
  rows,
  scenario,
  serverModeSkipReason,
  sleep,
  startProcess,
  startRedis,
  startScratchPostgres,
  startSlowReceiver,
  type Database,
  type Proc,
  type Tenant,
} from './harness.js';

/** What the test's project tracks (it names no engines): the five of the contract; a fake runs for every engine. */
const TRACKED = DEFAULT_PROJECT_PROVIDERS;

// Server mode under faults, with real processes (the build, `node dist/main.js`): a worker
// killed with SIGKILL in the middle of a collection run and of a webhook delivery (its jobs
// come back through pg-boss's job heartbeat, timings shortened here), Redis going away under
// an API process, and a PostgreSQL server (a throwaway one, never the shared server) stopped
// and started again under a stream of requests.

printProcessOutputOnFailure();
const SKIP = serverModeSkipReason(false);
const ADMIN = 'operator-token-for-server-mode-0123';
const SECRET_KEY = 'server-mode-secret-key-0123456789';
// A running job whose heartbeat is 10 s old (pg-boss's shortest) goes back to the queue;
// workers look for such jobs every second. The job then waits out its retry delay.
const JOBS = { JOB_HEARTBEAT_SECONDS: '10', JOB_SUPERVISE_SECONDS: '1' };
const FAIL_OPEN_WARNING = 'rate limiter store unavailable; failing open';
const REDIS_SERVER = hasRedisServer();

describe.skipIf(SKIP !== null)(`server mode under faults${SKIP ? ` (skipped: ${SKIP})` : ''}`, () => {
  // Each group removes what it started (processes, databases, servers) when it ends, even
  // after a failure; this one catches anything left.
  afterAll(async () => {
    await cleanup();
  });

  describe('workers killed with kill -9 or stopped with SIGTERM, Redis going away', () => {
    const flow = scenario();
    afterAll(async () => {
      await cleanup();
    });
    let db: Database;
    let fakes: FakeProvider[];
    let redis: Awaited<ReturnType<typeof startRedis>> | null = null;
    let env: Record<string, string>;
    let api: Proc;
    let workers: Proc[];
    let tenant: Tenant;
    let projectId: string;

    beforeAll(async () => {
      db = await freshDatabase();
      fakes = await Promise.all(PROVIDERS.map((k) => startFakeProvider(k)));
      onCleanup(() => Promise.all(fakes.map((f) => f.close())));
      // A Redis of our own, so it can be killed without touching a shared one.
      if (REDIS_SERVER) redis = await startRedis();
      env = {
        DATABASE_URL: db.url,
        ...(redis ? { REDIS_URL: redis.url } : {}),
        SECRET_KEY,
        ADMIN_TOKEN: ADMIN,
        ALLOW_PRIVATE_URLS: 'true',
        WEBHOOK_RETRY_BASE_MS: '200',
        PROVIDERS_MODE: 'live',
        ...JOBS,
        ...Object.assign({}, ...fakes.map((f) => f.env)),
      };
      [api, ...workers] = await Promise.all([startProcess('api', env), startProcess('worker', env), startProcess('worker', env)]);
      tenant = await createTenant(api.base, ADMIN);
    });

    it('a worker killed while a callback is in flight: the callback arrives again with the same webhook-id, signed', async (ctx) => {
      flow.needsEarlierSteps(ctx);
      // The receiver holds each request 3 s before its 200: time to kill the sender mid-request.
      const receiver = await startSlowReceiver(3_000);
      const res = await call(
        api.base,
        'POST',
        '/account/projects',
        { brand_name: 'Acme CRM', brand_url: 'http://127.0.0.1:1/', webhook_url: receiver.url },
        tenant.auth,
      );
      expect(res.status, JSON.stringify(res.json)).toBe(202);
      projectId = res.json.data.project_id;
      await until(async () => receiver.received.length > 0, 60_000, 20);
      const sender = await until(() => jobHolder(db, 'delivery-attempt', workers), 5_000, 20);
      const killedAt = Date.now();
      await sender.kill();
      workers = [...workers.filter((w) => w !== sender), await startProcess('worker', env)];

      // pg-boss hands the job back once its heartbeat is 10 s old (the job's own expiry, 60 s,
      // would come much later); after its retry delay (5 to 10 s) another worker sends it again,
      // and the receiver answers 3 s later: within 10 + 1 + 10 + 3 s and polling.
      const [{ status }] = await until(async () => {
        const r = await rows<{ status: string }>(db, `select status from deliveries where team_id = $1 and status <> 'pending'`, [tenant.teamId]);
        return r.length > 0 && r;
      }, 45_000, 100);
      expect(status).toBe('delivered');
      expect(receiver.answered.length).toBe(1);
      expect(receiver.received.length).toBeGreaterThanOrEqual(2);
      expect(receiver.answered[0].at - killedAt).toBeLessThan(30_000);
      // At least once, as one message: same webhook-id and body, each copy signed.
      expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
      expect(new Set(receiver.received.map((r) => r.body)).size).toBe(1);
      const [{ value: secret }] = await rows<{ value: string }>(db, `select value from settings where key = 'callback_signing_secret'`);
      for (const r of receiver.received) {
        expect(new Webhook(secret.replace(/^whsec_/, '')).verify(r.body, r.headers)).toMatchObject({ project_id: projectId, status: 'completed' });
      }
      const deliveries = await rows<{ message_id: string }>(db, `select message_id from deliveries where team_id = $1`, [tenant.teamId]);
      expect(deliveries.map((d) => d.message_id)).toEqual([receiver.received[0].headers['webhook-id']]);
      const [job] = await rows<{ retry_count: number; state: string }>(
        db,
        `select retry_count, state from pgboss.job where name = 'delivery-attempt' and data->>'attempt' = '1'`,
      );
      expect(job).toMatchObject({ state: 'completed' });
      expect(job.retry_count).toBeGreaterThanOrEqual(1);
    }, 120_000);

    /** New prompts under a new topic of the tenant's project (collected at once), and a count of their stored answers. */
    async function addPrompts(topicName: string, texts: string[]): Promise<() => Promise<number>> {
      const topic = await call(api.base, 'POST', `/projects/${projectId}/topics`, { name: topicName }, tenant.auth);
      expect(topic.status, JSON.stringify(topic.json)).toBe(201);
      const created = await call(api.base, 'POST', `/projects/${projectId}/prompts`, { prompts: texts, topicId: topic.json.data.topic_id }, tenant.auth);
      expect(created.status, JSON.stringify(created.json)).toBe(200);
      return async () =>
        (
          await rows<{ n: number }>(
            db,
            `select count(*)::int as n from responses r join prompts p on p.id = r.prompt_id where p.project_id = $1 and p.content = any($2)`,
            [projectId, texts],
          )
        )[0].n;
    }

    it('a worker killed mid-collection: the run is finished elsewhere, every answer stored once, credits equal answers', async (ctx) => {
      flow.needsEarlierSteps(ctx);
      // Each provider answers 4 at a time after 700 ms: the 60 answers land in three waves.
      for (const f of fakes) f.behave({ delayMs: 700 });
      const texts = Array.from({ length: 12 }, (_, i) => `which crm is best for a team of ${i + 2}`);
      const storedOf = await addPrompts('Kill test', texts);
      const planned = texts.length * TRACKED.length;

      // Kill the worker running the collection once some, not all, answers are stored. Found
      // first, so nothing stands between the count and the kill.
      const runner = await until(() => jobHolder(db, 'project-refresh', workers), 30_000, 20);
      const atKill = await until(async () => {
        const n = await storedOf();
        return n >= 4 && n < planned - 10 && n;
      }, 60_000, 25);
      await runner.kill();
      workers = [...workers.filter((w) => w !== runner), await startProcess('worker', env)];
      const afterKill = await storedOf();
      expect(afterKill).toBeLessThan(planned);

      // Back in the queue once its heartbeat is 10 s old, then its retry delay (30 to 60 s).
      await until(async () => (await storedOf()) === planned, 120_000, 200);
      // the last answer is stored before its run finishes (credits settled, the run recorded,
      // the alerts job sent): the job is completed a moment later. Another run (the daily tick
      // of a worker that just started) may store the missing answers first; the killed job then
      // completes, with nothing left to ask, once its retry delay (up to 60 s) has passed.
      const jobOf = async () =>
        (
          await rows<{ retry_count: number; state: string }>(
            db,
            `select retry_count, state from pgboss.job where name = 'project-refresh' and data->>'kind' = 'new_prompts'`,
          )
        )[0];
      const job = await until(async () => {
        const current = await jobOf();
        return current?.state === 'completed' && current;
      }, 90_000, 100).catch(async () => jobOf());
      expect(job).toMatchObject({ state: 'completed' });
      expect(job.retry_count).toBeGreaterThanOrEqual(1);

      const [{ n: answers }] = await rows<{ n: number }>(db, `select count(*)::int as n from responses where project_id = $1`, [projectId]);
      expect(await storedOf()).toBe(planned);
      // the bootstrap's 5 × 3, then 12 × 5; and when the hourly tick (minute 5) fell in this
      // test, the day's run also asked the bootstrap's 5 prompts on the 2 engines it does not ask
      const daily = await rows(db, `select 1 from pgboss.job where name = 'project-refresh' and data->>'kind' = 'daily' and data->>'projectId' = $1`, [projectId]);
      expect(answers).toBe(15 + planned + (daily.length > 0 ? 5 * 2 : 0));
      expect(await rows(db, `select 1 from responses group by prompt_id, provider, day having count(*) > 1`)).toEqual([]);
      // Rollups counted each answer once (a transaction cut off by the kill left nothing).
      const [{ n: rolled }] = await rows<{ n: number }>(db, `select sum(responses)::int as n from project_daily where provider = '*' and project_id = $1`, [projectId]);
      expect(rolled).toBe(answers);
      // Credits: one per stored answer; the holds of the killed run were reused, then settled.
      const [{ used }] = await rows<{ used: number }>(db, `select used from credit_usage where team_id = $1`, [tenant.teamId]);
      expect(Number(used)).toBe(answers);
      expect(await rows(db, `select 1 from credit_holds where team_id = $1`, [tenant.teamId])).toEqual([]);
      const check = await call(api.base, 'GET', '/projects', undefined, tenant.auth);
      expect(check.headers.get('x-credit-available')).toBe(String(500 - answers));
      await ctx.annotate(`killed with ${atKill} of ${planned} answers stored`);
      for (const f of fakes) f.behave({});
    }, 240_000);

    it('SIGTERM to a worker mid-collection: it finishes the run it holds, stops its pg-boss instance and exits 0', async (ctx) => {
      flow.needsEarlierSteps(ctx);
      for (const f of fakes) f.behave({ delayMs: 700 });
      const texts = Array.from({ length: 8 }, (_, i) => `which crm syncs best with calendar app ${i + 1}`);
      const storedOf = await addPrompts('Stop test', texts);
      const planned = texts.length * TRACKED.length;
      await until(async () => {
        const n = await storedOf();
        return n >= 1 && n < planned;
      }, 60_000, 25);
      const runner = await until(() => jobHolder(db, 'project-refresh', workers), 5_000, 20);
      const exit = await runner.stop();
      expect(exit, runner.output().slice(-2000)).toEqual({ code: 0, signal: null });
      // Finished before exiting, not handed back: every answer is there, the job completed at the first attempt.
      expect(await storedOf()).toBe(planned);
      const [job] = await rows<{ retry_count: number; state: string }>(
        db,
        `select j.retry_count, j.state from pgboss.job j where j.name = 'project-refresh' and j.data->>'kind' = 'new_prompts'
            and j.data->'promptIds' ?| (select array_agg(id::text) from prompts where content = any($1))`,
        [texts],
      );
      expect(job).toMatchObject({ state: 'completed', retry_count: 0 });
      // pg-boss's instance registry records a graceful stop (a killed process goes quiet instead).
      const instances = await rows<{ stopped: boolean }>(db, `select stopped_on is not null as stopped from pgboss.instance where pid = $1`, [runner.pid]);
      expect(instances).toEqual([{ stopped: true }]);
      // and left no job active: one it abandoned would stay so until its expiry (minutes), while
      // what the other worker runs meanwhile (the run's alert evaluation, deliveries) ends in seconds
      const active = () => rows<{ name: string }>(db, `select name from pgboss.job where state = 'active'`);
      await until(async () => (await active()).length === 0, 15_000, 100).catch(async () => expect(await active()).toEqual([]));
      workers = workers.filter((w) => w !== runner);
      for (const f of fakes) f.behave({});
    });

    it.skipIf(!REDIS_SERVER)('Redis down: the limiter fails open with a warning; once Redis is back the limit of 70 applies again (needs redis-server)', async (ctx) => {
      flow.needsEarlierSteps(ctx);
      if (!redis) throw new Error('no Redis of our own');
      const probe = await call(api.base, 'POST', '/keys', { scope: 'viewer', name: 'redis probe' }, tenant.auth);
      expect(probe.status, JSON.stringify(probe.json)).toBe(201);
      const key = { 'x-api-key': probe.json.data.api_key as string };
      const burst = async (n: number) => {
        const out: number[] = [];
        for (let i = 0; i < n; i += 10) {
          const batch = await Promise.all(Array.from({ length: Math.min(10, n - i) }, () => call(api.base, 'GET', '/projects', undefined, key)));
          out.push(...batch.map((r) => r.status));
        }
        return out;
      };
      const count = (s: number[], status: number) => s.filter((x) => x === status).length;

      // Up: the window lives in Redis.
      const up = await burst(75);
      expect([count(up, 200), count(up, 429)]).toEqual([70, 5]);

      // Down: served (this key is over its limit, yet every request passes), and logged.
      const logged = api.output().length;
      await redis.kill();
      const down = await burst(30);
      expect(count(down, 200)).toBe(30);
      expect(down.length).toBe(30);
      expect(api.output().slice(logged)).toContain(FAIL_OPEN_WARNING);
      expect(api.alive()).toBe(true);

      // Back (empty: it keeps nothing on disk): the client reconnects and limits again.
      redis = await startRedis(redis.port); // same port: the service's REDIS_URL
      await until(async () => {
        const r = await call(api.base, 'GET', '/projects', undefined, key);
        return r.status === 200 && r.headers.get('x-ratelimit-remaining') === '69';
      }, 20_000, 200);
      const again = await burst(75);
      expect([count(again, 200), count(again, 429)]).toEqual([69, 6]);
    });
  });

  describe.skipIf(!postgresBinDir())('PostgreSQL restarted under load (a throwaway server on its own port)', () => {
    afterAll(async () => {
      await cleanup();
    });
    it('requests get 503 {detail} while it is down and 200 after; no process crashes; jobs run again', async (ctx) => {
      const server = await startScratchPostgres();
      const db = await freshDatabase(server.url);
      const receiver = await startReceiver();
      onCleanup(() => receiver.close());
      const env = {
        DATABASE_URL: db.url,
        SECRET_KEY,
        ADMIN_TOKEN: ADMIN,
        ALLOW_PRIVATE_URLS: 'true',
        PROVIDERS_MODE: 'simulated',
        // A 1-second window keeps the steady stream below the limit (70 a window).
        RATE_LIMIT_WINDOW_MS: '1000',
        ...JOBS,
      };
      const [api, worker] = await Promise.all([startProcess('api', env), startProcess('worker', env)]);
      const tenant = await createTenant(api.base, ADMIN);

      type Sample = { at: number; status: number; body: any };
      const samples: Sample[] = [];
      let streaming = true;
      const stream = async () => {
        while (streaming) {
          const r = await call(api.base, 'GET', '/projects', undefined, tenant.auth);
          samples.push({ at: Date.now(), status: r.status, body: r.json });
          await sleep(40);
        }
      };
      const loops = [stream(), stream()];
      await sleep(1_000);
      const downAt = Date.now();
      await server.stop();
      const stoppedAt = Date.now();
      await sleep(2_500);
      const ready = await fetch(`${api.base}/readyz`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toEqual(errorBody(expect.any(String)));
      const restartAt = Date.now();
      await server.start();
      const upAt = Date.now();
      // Until the service answers 200 again for 2 s on end.
      await until(async () => {
        const recent = samples.filter((s) => s.at > Date.now() - 2_000);
        return Date.now() - upAt > 2_000 && recent.length > 10 && recent.every((s) => s.status === 200);
      }, 30_000, 100);
      streaming = false;
      await Promise.all(loops);

      const statuses = new Set(samples.map((s) => s.status));
      const whileDown = samples.filter((s) => s.at > stoppedAt + 200 && s.at < restartAt);
      const unavailable = samples.filter((s) => s.status === 503);
      // Only 200 and 503: never a 500, a 401 or a refused connection (status 0).
      expect([...statuses].sort()).toEqual([200, 503]);
      expect(whileDown.length).toBeGreaterThan(10);
      expect(whileDown.filter((s) => s.status !== 503)).toEqual([]);
      for (const s of unavailable) expect(s.body).toEqual(errorBody(expect.any(String)));
      expect(samples.filter((s) => s.at < downAt).every((s) => s.status === 200)).toBe(true);
      // Both processes rode it out.
      expect(api.alive()).toBe(true);
      expect(worker.alive()).toBe(true);

      // The worker is back at work: a new project bootstraps (simulated providers) and calls back.
      const project = await call(
        api.base,
        'POST',
        '/account/projects',
        { brand_name: 'Acme CRM', brand_url: 'http://127.0.0.1:1/', webhook_url: receiver.url },
        tenant.auth,
      );
      expect(project.status, JSON.stringify(project.json)).toBe(202);
      const [callback] = await receiver.waitFor(1, 60_000);
      expect(JSON.parse(callback.body)).toMatchObject({ project_id: project.json.data.project_id, status: 'completed' });
      await ctx.annotate(`${samples.length} requests, ${unavailable.length} answered 503 while PostgreSQL was down`);
    }, 120_000);
  });
});
