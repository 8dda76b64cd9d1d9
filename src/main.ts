import { type Config, ConfigError, loadConfig } from './config.js';
import { createRuntime, type Runtime } from './runtime.js';
import { StoreLockedError } from './store/lock.js';
import { createLogger } from './logger.js';
import { startupBanner } from './banner.js';
import { listenProblem, portProblem } from './lib/port-check.js';

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }
  // Before any store is opened or secret generated: a busy port stops here, plainly.
  if (config.role !== 'worker') {
    const problem = await portProblem(config.port, config.host);
    if (problem) {
      console.error(problem);
      process.exit(1);
    }
  }
  // A person at a terminal gets readable lines and a banner; anything else (a pipe, a log
  // collector) gets JSON lines, as before.
  const atTerminal = process.stdout.isTTY === true;
  const log = createLogger(config, { pretty: atTerminal });
  let runtime: Runtime;
  try {
    runtime = await createRuntime(config, log);
  } catch (err) {
    if (err instanceof StoreLockedError) {
      log.fatal(err.message);
      process.exit(1);
    }
    throw err;
  }
  if (runtime.app) {
    let address: string;
    try {
      address = await runtime.app.listen({ port: config.port, host: config.host });
    } catch (err) {
      // Taken between the check and now: the same plain words, after closing the store.
      const problem = listenProblem(err as NodeJS.ErrnoException, config.port, config.host);
      if (!problem) throw err;
      console.error(problem);
      await runtime.stop().catch(() => {});
      process.exit(1);
    }
    if (atTerminal) process.stdout.write(`${startupBanner(runtime.ctx.config, address)}\n`);
    else {
      log.info(
        { store: config.databaseUrl ? 'postgres' : `embedded (${config.dataDir})`, role: config.role },
        `Sightline listening on ${address} (API at ${address}/v1, docs at ${address}/docs)`,
      );
    }
  } else {
    log.info({ role: config.role }, 'Sightline worker started');
  }
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      log.error('shutdown took too long; exiting');
      process.exit(1);
    }, 30_000);
    timer.unref();
    try {
      await runtime.stop();
      process.exit(0);
    } catch (err) {
      log.error({ err }, 'error during shutdown');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  // A lost store connection surfaces in background timers (queue polling, heartbeats) as
  // rejected promises; the service must ride it out and recover, not exit.
  process.on('unhandledRejection', (err) => log.error({ err }, 'unhandled rejection'));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
