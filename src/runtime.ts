import type { Logger } from 'pino';
import { sendPendingRollupRebuilds } from './collection/reanalyse.js';
import type { FastifyInstance } from 'fastify';
import type { Config } from './config.js';
import type { Ports, ServiceContext } from './context.js';
import { AuthCache } from './http/auth-cache.js';
import type { HttpContext } from './http/context.js';
import { createRateLimiter } from './http/rate-limit/index.js';
import { ReadCache } from './http/read-cache.js';
import { jobCatalog } from './jobs/catalog.js';
import { Jobs } from './jobs/queue.js';
import { jobRegistry } from './jobs/registry.js';
import { createLogger } from './logger.js';
import { SecretBox } from './lib/crypto.js';
import { atMostEvery } from './lib/throttle.js';
import { TtlCache } from './lib/ttl-cache.js';
import { createProviders } from './ports/providers/index.js';
import { createWriter } from './ports/writer/index.js';
import { createMailer } from './ports/mail/index.js';
import { createAnalysisModel } from './ports/analysis-model/index.js';
import { buildServer } from './server.js';
import { openReadRouter, openStore, primaryOnly, type ReadRouter } from './store/index.js';
import { resolveAdminToken, resolveCallbackSecret, resolveSecretKey } from './store/secrets.js';

export interface Runtime {
  /** What services and job handlers run with. */
  ctx: ServiceContext;
  /** The HTTP surface's own state: caches and the rate limiter (null in a worker process). */
  http: HttpContext | null;
  /** The HTTP API (null in a worker process). */
  app: FastifyInstance | null;
  stop(): Promise<void>;
}

/**
 * The composition root. Opens the store, starts the job queue (and its workers and
 * scheduler unless ROLE=api) and builds the HTTP API (unless ROLE=worker). Listening is
 * the caller's choice.
 */
export async function createRuntime(given: Config, log?: Logger, ports?: Partial<Ports>): Promise<Runtime> {
  const logger = log ?? createLogger(given);
  const store = await openStore(given);
  let readRouter: ReadRouter | null = null;
  try {
    // After the store's lock is held: only the process that owns DATA_DIR writes its token.
    const admin = resolveAdminToken(given);
    const config: Config = { ...given, adminToken: admin.token, adminTokenFile: admin.file };
    const box = new SecretBox(resolveSecretKey(config));
    const callback = await resolveCallbackSecret(config, store);
    if (callback.created && !config.memoryStore) {
      // The secret itself never goes to a log: logs are shipped and kept where secrets must not be.
      logger.warn(
        'Generated the bootstrap callback signing secret and kept it in the store (set CALLBACK_SIGNING_SECRET to choose your own). ' +
          'Print it for your receivers with `npm run callback-secret`, or GET /v1/admin/callback-secret with ADMIN_TOKEN.',
      );
    }
    const worker = config.role !== 'api';
    const jobs = new Jobs(store, jobCatalog, logger, {
      supervise: worker,
      schedule: worker,
      listen: worker,
      role: config.role,
      timings: config.jobTimings,
    });
    const serving = config.role !== 'worker';
    const authCache = serving ? new AuthCache(store, config.authCacheMs) : null;
    // Only requests read from a replica: the jobs of a worker read what they write, on the primary.
    const router = serving ? await openReadRouter(config, store, logger) : primaryOnly(store);
    readRouter = router;
    const ctx: ServiceContext = {
      config,
      store,
      reads: store,
      readRouter: router,
      jobs,
      box,
      log: logger,
      clock: { now: () => new Date() },
      ports: {
        providers: ports?.providers ?? createProviders(config),
        writer: ports?.writer ?? createWriter(config),
        mailer: ports?.mailer === undefined ? createMailer(config) : ports.mailer,
        analysisModel: ports?.analysisModel === undefined ? (config.analysisModel ? createAnalysisModel(config.analysisModel) : null) : ports.analysisModel,
      },
      callbackSecret: callback.secret,
      projectCache: new TtlCache(config.authCacheMs),
      projectDetails: new TtlCache(config.authCacheMs),
      teamChanged: (teamId) => authCache?.invalidateTeam(teamId),
    };
    await jobs.start();
    const rebuilds = await sendPendingRollupRebuilds(ctx);
    if (rebuilds > 0) logger.info({ projects: rebuilds }, 'rollups of projects asked in several markets: re-analysis sent');
    if (worker) {
      await jobs.work(ctx, jobRegistry);
      await jobs.schedule();
    }
    const http: HttpContext | null = authCache
      ? {
          services: ctx,
          authCache,
          limiter: createRateLimiter(
            config,
            // Once a minute at most: while Redis is down every request would log it.
            atMostEvery(60_000, (err, suppressed) =>
              logger.warn({ err, suppressed }, 'rate limiter store unavailable; failing open (requests are served without limits)'),
            ),
          ),
          readCache: new ReadCache(config.readCacheBytes),
        }
      : null;
    const app = http ? await buildServer(http) : null;
    let stopped: Promise<void> | null = null;
    const stop = () =>
      (stopped ??= (async () => {
        await app?.close(); // stop accepting, let in-flight requests finish
        await jobs.stop();
        await http?.limiter.close();
        await router.close();
        await store.close(); // CHECKPOINT first on the embedded store
      })());
    return { ctx, http, app, stop };
  } catch (err) {
    await readRouter?.close().catch(() => {});
    await store.close().catch(() => {});
    throw err;
  }
}
