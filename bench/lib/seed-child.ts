// The seeding of a bench run, in a process of its own (bench/lib/seeding.ts starts it): the
// process that then times the requests keeps none of the seeding's heap, and no embedded
// store it opened, so its own garbage collection stays out of the latencies it measures.
// Input: BENCH_SEED_JOB (JSON: SeedJob); output: the SeedOutcome as JSON in BENCH_SEED_OUT.
import fs from 'node:fs';
import pino from 'pino';
import { seedProject, type SeedResult } from '../../src/collection/seed.js';
import { loadConfig } from '../../src/config.js';
import { createKey } from '../../src/modules/keys/service.js';
import { createRuntime } from '../../src/runtime.js';
import type { SeedJob, SeedOutcome } from './seeding.js';

const job = JSON.parse(process.env.BENCH_SEED_JOB ?? '') as SeedJob;
const config = loadConfig({ ...job.env, PROVIDERS_MODE: 'simulated' }, { role: 'api', ...job.overrides } as never);
const runtime = await createRuntime(config, pino({ level: 'warn' }));
try {
  const projects: SeedResult[] = [];
  for (const p of job.projects) {
    if (p.title) console.log(`   ${p.title}`);
    const log = p.log ? (line: string) => console.log(`   ${line}`) : undefined;
    projects.push(await seedProject(runtime.ctx, { prompts: p.prompts, providers: p.providers, days: p.days, competitors: p.competitors, markets: p.markets, log }));
  }
  // The embedded store's own maintenance (autovacuum's thresholds, once a minute) would
  // vacuum and analyze what the last minute of seeding changed; done now, as `vacuum
  // analyze` is for PostgreSQL by the suites, so neither store's measured requests meet it.
  if (runtime.ctx.store.kind === 'pglite') await runtime.ctx.store.query('vacuum analyze');
  const extraKeys: string[] = [];
  for (let i = 0; i < (job.extraKeys ?? 0); i++) extraKeys.push((await createKey(runtime.ctx, projects[0].teamId, { scope: 'admin' })).api_key);
  const outcome: SeedOutcome = { projects, extraKeys };
  fs.writeFileSync(process.env.BENCH_SEED_OUT ?? '', JSON.stringify(outcome));
} finally {
  await runtime.stop();
}
