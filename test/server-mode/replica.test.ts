import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReplicaStatus } from '../../src/store/types.js';
import { startReceiver } from '../fakes/receiver.js';
import { until } from '../helpers.js';
import {
  call,
  cleanup,
  createTenant,
  freshDatabase,
  onCleanup,
  postgresBinDir,
  printProcessOutputOnFailure,
  rows,
  scenario,
  serverModeSkipReason,
  sleep,
  startProcess,
  startReplicatedPostgres,
  startTcpProxy,
  type Database,
  type Proc,
  type Tenant,
} from './harness.js';

// Reads from a streaming replica (DATABASE_READ_URL, docs/replicas.md), with real processes
// (the build) on a primary and a hot standby of our own (pg_basebackup -R), never the shared
// server. Two API processes read through it: `steady` tolerates 10 minutes of lag, so only
// the project's own version decides where its reads go (read-your-writes), and keeps the
// read cache; `strict` tolerates 1 s, caches nothing (every request is routed), and reaches
// the replica through a proxy that can go silent. Where each read went is counted by the
// process (/healthz) and seen on the replica (pg_stat_activity).

printProcessOutputOnFailure();
const SKIP =
  serverModeSkipReason(false) ?? (postgresBinDir() ? null : 'needs PostgreSQL server binaries (initdb, pg_ctl, pg_basebackup) under /usr/lib/postgresql');
const ADMIN = 'operator-token-for-server-mode-0123';
const SECRET_KEY = 'server-mode-secret-key-0123456789';

type Reads = ReplicaStatus['reads'];
const delta = (after: Reads, before: Reads): Reads => ({
  replica: after.replica - before.replica,
  primary_behind: after.primary_behind - before.primary_behind,
  primary_unhealthy: after.primary_unhealthy - before.primary_unhealthy,
  fell_back: after.fell_back - before.fell_back,
});

describe.skipIf(SKIP !== null)(`reads from a streaming replica${SKIP ? ` (skipped: ${SKIP})` : ''}`, () => {
  const flow = scenario();
  afterAll(async () => {
    await replicaPool?.end().catch(() => {});
    await cleanup();
  });
  let servers: Awaited<ReturnType<typeof startReplicatedPostgres>>;
  let proxy: Awaited<ReturnType<typeof startTcpProxy>>;
  let db: Database;
  /** The replica's copy of the service's database, for what the test checks there. */
  let replicaPool: pg.Pool | undefined;
  let steady: Proc;
  let strict: Proc;
  let tenant: Tenant;
  /** Written to by the tests (competitors, prompts) ... */
  let written: string;
  /** ... and never touched after its bootstrap. */
  let untouched: string;

  const replicaOf = async (api: Proc): Promise<ReplicaStatus> => (await (await fetch(`${api.base}/healthz`)).json()).replica;
  const get = (api: Proc, url: string) => call(api.base, 'GET', url, undefined, tenant.auth);
  const names = (res: Awaited<ReturnType<typeof call>>) => (res.json.data.active_competitors as { name: string }[]).map((c) => c.name);
  const version = async (pool: pg.Pool, projectId: string) =>
    Number((await pool.query('select version from analytics_versions where project_id = $1', [projectId])).rows[0]?.version ?? 0);
  /** Until the replica has replayed every change of the project. */
  const replayed = (projectId: string) =>
    until(async () => (await version(replicaPool!, projectId).catch(() => -1)) >= (await version(db.pool, projectId)), 60_000, 50);
  /** Until no job that writes answers or rollups is waiting or running (their writes move the versions). */
  const collected = () =>
    until(async () => {
      const pending = await rows(
        db,
        `select 1 from pgboss.job where name in ('project-bootstrap', 'project-refresh', 'project-reanalyse') and state in ('created', 'retry', 'active') limit 1`,
      );
      return pending.length === 0;
    }, 120_000, 100);
  const state = (api: Proc, want: ReplicaStatus['state']) => until(async () => (await replicaOf(api))?.state === want, 60_000, 50);

  beforeAll(async () => {
    servers = await startReplicatedPostgres();
    db = await freshDatabase(servers.primary.url);
    const replicaUrl = (port: number) => {
      const u = new URL(db.url);
      u.port = String(port);
      return u.toString();
    };
    replicaPool = new pg.Pool({ connectionString: replicaUrl(servers.replica.port), max: 2 });
    replicaPool.on('error', () => {}); // the replica is stopped on purpose
    proxy = await startTcpProxy(servers.replica.port);
    const env = {
      DATABASE_URL: db.url,
      SECRET_KEY,
      ADMIN_TOKEN: ADMIN,
      ALLOW_PRIVATE_URLS: 'true',
      PROVIDERS_MODE: 'simulated',
      // A 1-second window keeps the request streams below the limit (70 a window).
      RATE_LIMIT_WINDOW_MS: '1000',
    };
    // The worker first: it migrates the database the API processes then open.
    await startProcess('worker', env);
    [steady, strict] = await Promise.all([
      startProcess('api', { ...env, DATABASE_READ_URL: replicaUrl(servers.replica.port), REPLICA_MAX_LAG_MS: '600000' }),
      startProcess('api', { ...env, DATABASE_READ_URL: replicaUrl(proxy.port), REPLICA_MAX_LAG_MS: '1000', READ_CACHE_MB: '0' }),
    ]);
    tenant = await createTenant(steady.base, ADMIN);
  });

  it('analytics reads go to the replica once it holds the project, and show what the primary holds', async (ctx) => {
    flow.needsEarlierSteps(ctx);
    const receiver = await startReceiver();
    onCleanup(() => receiver.close());
    const ids: string[] = [];
    for (const brand of ['Acme CRM', 'Globex CRM']) {
      const res = await call(steady.base, 'POST', '/account/projects', { brand_name: brand, brand_url: 'http://127.0.0.1:1/', webhook_url: receiver.url }, tenant.auth);
      expect(res.status, JSON.stringify(res.json)).toBe(202);
      ids.push(res.json.data.project_id);
    }
    [written, untouched] = ids;
    for (const id of ids) await until(async () => (await get(steady, `/projects/${id}`)).json?.data?.bootstrap_status === 'completed', 90_000, 200);
    await collected();
    for (const id of ids) await replayed(id);
    await state(steady, 'up');
    await state(strict, 'up');
    const [{ id: promptId }] = await rows<{ id: string }>(db, `select id from prompts where project_id = $1 order by created_at limit 1`, [written]);
    const reads = [
      'overview/summary',
      'overview',
      'visibility',
      'competitors',
      'competitors/suggestions',
      'sources',
      'sources/analytics',
      'prompts',
      'prompts/series',
      'markets',
      'chats',
      'themes',
      'sampling-plan',
      'model-changes',
      `prompts/${promptId}`,
      `prompts/${promptId}/analytics`,
      `prompts/${promptId}/chats`,
      `prompts/${promptId}/domains`,
      `prompts/${promptId}/urls`,
      `prompts/${promptId}/search-queries`,
      'export/daily.csv',
    ].map((path) => `/projects/${written}/${path}`);

    const before = (await replicaOf(steady)).reads;
    const answers = await Promise.all(reads.map((url) => get(steady, url)));
    expect(answers.map((a, i) => `${reads[i]} ${a.status}`)).toEqual(reads.map((url) => `${url} 200`));
    expect(delta((await replicaOf(steady)).reads, before)).toEqual({ replica: reads.length, primary_behind: 0, primary_unhealthy: 0, fell_back: 0 });

    // What was read there is what the primary holds.
    const prompts = answers[reads.indexOf(`/projects/${written}/prompts`)].json.data;
    const [{ n }] = await rows<{ n: number }>(db, `select count(*)::int as n from prompts where project_id = $1`, [written]);
    expect(prompts.total).toBe(n);
    const [{ answered }] = await rows<{ answered: number }>(db, `select count(*)::int as answered from responses where project_id = $1`, [written]);
    const visibility = await get(steady, `/projects/${written}/competitors?duration_days=7`);
    const own = visibility.json.data.active_competitors.find((c: { is_own_brand: boolean }) => c.is_own_brand);
    expect(own.metrics.responses).toBe(answered);

    // The replica's own view: sessions of the read pool, whose last statements read the project's figures.
    const sessions = await replicaPool!.query<{ query: string }>(
      `select query from pg_stat_activity where application_name = 'sightline:reads' and datname = $1`,
      [db.name],
    );
    expect(sessions.rows.length).toBeGreaterThan(0);
    expect(sessions.rows.some((s) => !s.query.includes('analytics_versions') && /\bfrom\b/i.test(s.query))).toBe(true);
    const onPrimary = await rows(db, `select 1 from pg_stat_activity where application_name = 'sightline:reads'`);
    expect(onPrimary).toEqual([]);

    // MCP's figure tools read as their REST routes do.
    const mcp = new Client({ name: 'replica-test', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${steady.base}/mcp`), { requestInit: { headers: tenant.auth } }));
    try {
      const beforeTool = (await replicaOf(steady)).reads;
      const tool = await mcp.callTool({ name: 'list_competitors', arguments: { project_id: written, duration_days: 3 } });
      expect(tool.isError).toBeFalsy();
      expect(delta((await replicaOf(steady)).reads, beforeTool)).toEqual({ replica: 1, primary_behind: 0, primary_unhealthy: 0, fell_back: 0 });
    } finally {
      await mcp.close();
    }
  }, 180_000);

  it('read-your-writes: right after a write the writer sees it, read on the primary while the replica has not replayed it', async (ctx) => {
    flow.needsEarlierSteps(ctx);
    await get(steady, `/projects/${written}/competitors`); // cached under the version before the write
    await servers.replica.pause();
    const before = (await replicaOf(steady)).reads;

    const added = await call(steady.base, 'POST', `/projects/${written}/competitors`, { competitors: [{ name: 'Zoho CRM', website: 'https://zoho.com' }] }, tenant.auth);
    expect(added.status, JSON.stringify(added.json)).toBe(200);
    const topic = await call(steady.base, 'POST', `/projects/${written}/topics`, { name: 'Replica test' }, tenant.auth);
    expect(topic.status, JSON.stringify(topic.json)).toBe(201);
    const text = 'which crm has the best replica story';
    const created = await call(steady.base, 'POST', `/projects/${written}/prompts`, { prompts: [text], topicId: topic.json.data.topic_id }, tenant.auth);
    expect(created.status, JSON.stringify(created.json)).toBe(200);
    // The replica does not have them: reading there would not show them.
    expect((await replicaPool!.query(`select 1 from competitors where project_id = $1 and name = 'Zoho CRM'`, [written])).rows).toEqual([]);

    const competitors = await get(steady, `/projects/${written}/competitors`);
    expect(competitors.status).toBe(200);
    expect(names(competitors)).toContain('Zoho CRM');
    const prompts = await get(steady, `/projects/${written}/prompts`);
    expect(prompts.json.data.prompts.map((p: { content: string }) => p.content)).toContain(text);
    // Another project, unchanged, still reads from the replica (this process tolerates its lag).
    expect((await get(steady, `/projects/${untouched}/competitors?duration_days=30`)).status).toBe(200);
    expect(delta((await replicaOf(steady)).reads, before)).toEqual({ replica: 1, primary_behind: 2, primary_unhealthy: 0, fell_back: 0 });

    // Served again from the cache: what was filed under the new version is the new list.
    expect(names(await get(steady, `/projects/${written}/competitors`))).toContain('Zoho CRM');
    expect(delta((await replicaOf(steady)).reads, before).replica).toBe(1);
  }, 120_000);

  it('replayed, the project reads from the replica again; the cache answers a repeat without asking anyone', async (ctx) => {
    flow.needsEarlierSteps(ctx);
    await servers.replica.resume();
    await collected(); // the new prompt's answers and the re-analysis the new competitor asked for
    // Those jobs may have finished before the last read above filed its entry; a write now
    // moves the version past that entry whatever their timing.
    const moved = await call(steady.base, 'POST', `/projects/${written}/topics`, { name: 'Replica test, replayed' }, tenant.auth);
    expect(moved.status, JSON.stringify(moved.json)).toBe(201);
    await replayed(written);
    const before = (await replicaOf(steady)).reads;
    const fresh = await get(steady, `/projects/${written}/competitors?duration_days=14`);
    expect(names(fresh)).toContain('Zoho CRM');
    expect((await get(steady, `/projects/${written}/competitors?duration_days=14`)).json).toEqual(fresh.json);
    // Filed while paused under a version since moved past: read again, there.
    expect(names(await get(steady, `/projects/${written}/competitors`))).toContain('Zoho CRM');
    expect(delta((await replicaOf(steady)).reads, before)).toEqual({ replica: 2, primary_behind: 0, primary_unhealthy: 0, fell_back: 0 });
  }, 120_000);

  it('a replica lagging past REPLICA_MAX_LAG_MS: reads go to the primary and see new data; caught up, to the replica again', async (ctx) => {
    flow.needsEarlierSteps(ctx);
    await servers.replica.pause();
    // The primary writes on (another database: no project's version moves).
    const filler = new pg.Client({ connectionString: servers.primary.url });
    await filler.connect();
    await filler.query('create table if not exists filler (x int)');
    const writing = setInterval(() => void filler.query('insert into filler select generate_series(1, 100)').catch(() => {}), 100);
    try {
      await state(strict, 'lagging');
      const status = await replicaOf(strict);
      expect(status.lag_ms).toBeGreaterThan(1000);
      expect((await replicaOf(steady)).state).toBe('up'); // the same replica, within steady's 10 minutes

      const before = (await replicaOf(strict)).reads;
      const read = await get(strict, `/projects/${untouched}/competitors`);
      expect(read.status).toBe(200);
      const added = await call(strict.base, 'POST', `/projects/${untouched}/competitors`, { competitors: [{ name: 'Pipedrive', website: 'https://pipedrive.com' }] }, tenant.auth);
      expect(added.status, JSON.stringify(added.json)).toBe(200);
      expect(names(await get(strict, `/projects/${untouched}/competitors`))).toContain('Pipedrive');
      expect(delta((await replicaOf(strict)).reads, before)).toEqual({ replica: 0, primary_behind: 0, primary_unhealthy: 2, fell_back: 0 });
    } finally {
      clearInterval(writing);
      await filler.end();
    }
    await servers.replica.resume();
    await state(strict, 'up');
    await collected();
    await replayed(untouched);
    const before = (await replicaOf(strict)).reads;
    expect(names(await get(strict, `/projects/${untouched}/competitors`))).toContain('Pipedrive');
    expect(delta((await replicaOf(strict)).reads, before).replica).toBe(1);
  }, 120_000);

  /** Requests on both processes, over and over, until stopped: every status kept. */
  function stream() {
    const statuses: { at: number; status: number; url: string }[] = [];
    let on = true;
    let i = 0;
    const loop = async (api: Proc) => {
      while (on) {
        i += 1;
        // Different windows: steady's cache does not answer them all.
        const url = `/projects/${i % 2 ? written : untouched}/${['competitors', 'visibility', 'prompts', 'overview/summary'][i % 4]}?duration_days=${1 + (i % 90)}`;
        const r = await get(api, url);
        statuses.push({ at: Date.now(), status: r.status, url });
        await sleep(20);
      }
    };
    const loops = [loop(steady), loop(strict)];
    return {
      statuses,
      async stop() {
        on = false;
        await Promise.all(loops);
      },
    };
  }

  it('the replica stopped: every read still answers 200, from the primary; restarted, it is used again', async (ctx) => {
    flow.needsEarlierSteps(ctx);
    await state(strict, 'up');
    const load = stream();
    await until(async () => load.statuses.length > 20, 30_000, 20);
    await servers.replica.stop();
    const stoppedAt = Date.now();
    await state(steady, 'down');
    await state(strict, 'down');
    const down = await replicaOf(strict);
    expect(down.retry_at).not.toBeNull();
    await until(async () => load.statuses.filter((s) => s.at > stoppedAt).length > 20, 30_000, 20);
    const whileDown = (await replicaOf(strict)).reads;

    await servers.replica.start();
    const startedAt = Date.now();
    await state(steady, 'up');
    await state(strict, 'up');
    await until(async () => (await replicaOf(strict)).reads.replica > whileDown.replica, 30_000, 50);
    const usedAgainAfter = Date.now() - startedAt;
    await load.stop();
    expect(load.statuses.filter((s) => s.status !== 200)).toEqual([]);
    expect(steady.alive() && strict.alive()).toBe(true);
    await ctx.annotate(
      `${load.statuses.length} requests, ${load.statuses.filter((s) => s.at > stoppedAt && s.at < startedAt).length} while the replica was down; used again ${usedAgainAfter} ms after its restart`,
    );
  }, 180_000);

  it('a replica that stops answering (timeouts, not refusals): reads wait at most the timeout, answer 200 from the primary; back, it is used again', async (ctx) => {
    flow.needsEarlierSteps(ctx);
    await state(strict, 'up');
    const load = stream();
    await until(async () => load.statuses.length > 10, 30_000, 20);
    proxy.silence();
    const silencedAt = Date.now();
    await state(strict, 'down');
    await until(async () => load.statuses.filter((s) => s.at > silencedAt).length > 20, 60_000, 20);
    const whileDown = (await replicaOf(strict)).reads;
    proxy.forward();
    await state(strict, 'up');
    await until(async () => (await replicaOf(strict)).reads.replica > whileDown.replica, 30_000, 50);
    await load.stop();
    expect(load.statuses.filter((s) => s.status !== 200)).toEqual([]);
    expect((await replicaOf(steady)).state).toBe('up'); // steady reaches the replica directly
  }, 180_000);
});
