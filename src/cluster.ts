import cluster from 'node:cluster';
import os from 'node:os';
import { type Config, ConfigError, loadConfig } from './config.js';

/**
 * `npm run start:cluster`: N API processes sharing one port (Node's cluster module) plus
 * M worker processes, all on one PostgreSQL (DATABASE_URL) and Redis (REDIS_URL, the
 * shared rate-limit windows). API_PROCESSES (default: cores) and WORKER_PROCESSES
 * (default 1) choose the counts. A process that dies is started again; SIGTERM stops all
 * of them gracefully.
 */
if (cluster.isPrimary) {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    console.error(err instanceof ConfigError ? err.message : err);
    process.exit(2);
  }
  if (!config.databaseUrl) {
    console.error('start:cluster needs DATABASE_URL (several processes cannot share the embedded store) and REDIS_URL.');
    process.exit(2);
  }
  if (!config.redisUrl) console.warn('REDIS_URL is not set: each API process will keep its own rate-limit windows.');
  const apis = Number(process.env.API_PROCESSES ?? os.availableParallelism());
  const workers = Number(process.env.WORKER_PROCESSES ?? 1);
  let stopping = false;
  const roles = new Map<number, 'api' | 'worker'>();
  const fork = (role: 'api' | 'worker') => {
    const w = cluster.fork({ ROLE: role });
    roles.set(w.id, role);
  };
  for (let i = 0; i < apis; i++) fork('api');
  for (let i = 0; i < workers; i++) fork('worker');
  cluster.on('exit', (w, code, signal) => {
    const role = roles.get(w.id) ?? 'api';
    roles.delete(w.id);
    if (stopping) return;
    console.error(`${role} process ${w.process.pid} exited (${signal ?? code}); starting another`);
    setTimeout(() => fork(role), 1000);
  });
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    for (const w of Object.values(cluster.workers ?? {})) w?.process.kill(signal);
    const deadline = setTimeout(() => process.exit(1), 35_000);
    deadline.unref();
    const check = setInterval(() => {
      if (Object.keys(cluster.workers ?? {}).length === 0) {
        clearInterval(check);
        process.exit(0);
      }
    }, 100);
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGTERM'));
  console.log(`Sightline cluster: ${apis} API process(es) on port ${config.port}, ${workers} worker process(es)`);
} else {
  await import('./main.js');
}
