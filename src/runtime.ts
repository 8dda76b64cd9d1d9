import pino, { type Logger } from 'pino';
import type { FastifyInstance } from 'fastify';
import type { Config } from './config';
import type { AppContext, Ports } from './context';
import { createProviders } from './ports/providers';
import { createWriter } from './ports/writer';
import { createRateLimiter } from './http/rate-limit';
import { Jobs } from './jobs';
import { jobDefinitions } from './jobs/registry';
import { SecretBox } from './lib/crypto';
import { resolveCallbackSecret, resolveSecretKey } from './lib/secrets';
import { AuthCache } from './modules/keys/auth-cache';
import { ReadCache } from './http/read-cache';
import { TtlCache } from './lib/ttl-cache';
import { buildServer } from './server';
import { openStore } from './store';

export interface Runtime {
  ctx: AppContext;
  /** The HTTP API (null in a worker process). */
  app: FastifyInstance | null;
  stop(): Promise<void>;
}

/**
 * Opens the store, starts the job queue (and its workers and scheduler unless ROLE=api)
 * and builds the HTTP API (unless ROLE=worker). Listening is the caller's choice.
 */
export async function createRuntime(config: Config, log?: Logger, ports?: Partial<Ports>): Promise<Runtime> {
  const logger = log ?? pino({ level: config.logLevel });
  const store = await openStore(config);
  try {
    const box = new SecretBox(resolveSecretKey(config));
    const callback = await resolveCallbackSecret(config, store);
    if (callback.created && !config.memoryStore) {
      logger.warn(
        `Generated the bootstrap callback signing secret (set CALLBACK_SIGNING_SECRET to choose your own). ` +
          `Receivers verify callbacks with: ${callback.secret}`,
      );
    }
    const worker = config.role !== 'api';
    const jobs = new Jobs(store, jobDefinitions, logger, {
      supervise: worker,
      schedule: worker,
      role: config.role,
      leaseTimings: config.leaseTimings,
    });
    const limiter = createRateLimiter(config, (err) => logger.warn({ err }, 'rate limiter store unavailable; failing open'));
    const ctx: AppContext = {
      config,
      store,
      jobs,
      box,
      log: logger,
      limiter,
      authCache: new AuthCache(store, config.authCacheMs),
      projectCache: new TtlCache(config.authCacheMs),
      readCache: new ReadCache(config.readCacheBytes),
      callbackSecret: callback.secret,
      ports: { providers: ports?.providers ?? createProviders(config), writer: ports?.writer ?? createWriter(config) },
    };
    await jobs.start();
    if (worker) {
      await jobs.work(ctx);
      await jobs.schedule();
    }
    const app = config.role === 'worker' ? null : await buildServer(ctx);
    let stopped: Promise<void> | null = null;
    const stop = () =>
      (stopped ??= (async () => {
        await app?.close(); // stop accepting, let in-flight requests finish
        await jobs.stop();
        await limiter.close();
        await store.close(); // CHECKPOINT first on the embedded store
      })());
    return { ctx, app, stop };
  } catch (err) {
    await store.close().catch(() => {});
    throw err;
  }
}
