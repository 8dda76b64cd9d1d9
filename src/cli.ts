#!/usr/bin/env node
import { Command } from 'commander';
import pino from 'pino';
import { loadConfig } from './config.js';
import { PROVIDERS, type ProviderName } from './ports/providers/types.js';
import { callbackSecretFromService, registerAdminCommands } from './admin-cli.js';

// The service's modules load inside the commands that need them: `sightline mcp` starts
// in a moment and loads none of them.
const service = async () => ({
  ...(await import('./jobs/queue.js')),
  ...(await import('./jobs/catalog.js')),
  ...(await import('./runtime.js')),
  ...(await import('./store/index.js')),
  ...(await import('./store/secrets.js')),
});

const program = new Command('sightline').description('Sightline operator commands');

program
  .command('migrate')
  .description('Apply the schema migrations (safe when several processes start at once) and exit')
  .action(async () => {
    const { Jobs, jobCatalog, openStore } = await service();
    const config = loadConfig();
    const store = await openStore(config);
    try {
      // The job queue's schema and queues too, so the processes started next create nothing.
      const jobs = new Jobs(store, jobCatalog, pino({ level: 'warn' }), { supervise: false, schedule: false, listen: false, role: 'migrate' });
      await jobs.start();
      await jobs.stop();
    } finally {
      await store.close();
    }
    console.log(`Migrations applied (${config.databaseUrl ? 'PostgreSQL' : `embedded store in ${config.dataDir}`}).`);
  });

program
  .command('seed')
  .description('Fill a new project with simulated history through the real analysis and rollup path')
  .option('--prompts <n>', 'prompts', '20')
  .option('--providers <list>', 'comma-separated providers', PROVIDERS.join(','))
  .option('--days <n>', 'days of history ending today', '30')
  .option('--competitors <n>', 'competitors (max 12)', '10')
  .action(async (o) => {
    const providers = String(o.providers).split(',').map((p) => p.trim()) as ProviderName[];
    const unknown = providers.filter((p) => !PROVIDERS.includes(p));
    if (unknown.length) throw new Error(`Unknown provider(s): ${unknown.join(', ')}`);
    const { createRuntime } = await service();
    const config = loadConfig({ ...process.env, PROVIDERS_MODE: 'simulated' }, { role: 'api' });
    const runtime = await createRuntime(config, pino({ level: 'warn' }));
    try {
      const { seedProject } = await import('./collection/seed.js');
      const r = await seedProject(runtime.ctx, {
        prompts: Number(o.prompts),
        providers,
        days: Number(o.days),
        competitors: Math.min(12, Number(o.competitors)),
        log: (l) => console.log(l),
      });
      console.log(
        JSON.stringify(
          {
            project_id: r.projectId,
            team_id: r.teamId,
            email: r.email,
            password: r.password,
            api_key: r.apiKey,
            answers: r.answers,
            seconds: Number(r.seconds.toFixed(1)),
            answers_per_second: Math.round(r.answersPerSecond),
            peak_rss_mb: r.peakRssMb,
          },
          null,
          2,
        ),
      );
    } finally {
      await runtime.stop();
    }
  });

program
  .command('callback-secret')
  .description('Print the secret that signs bootstrap callbacks (give it to your receivers; it is never logged)')
  .action(async () => {
    const config = loadConfig();
    if (config.callbackSigningSecret) {
      console.log(config.callbackSigningSecret);
      return;
    }
    const { openStore, resolveCallbackSecret } = await service();
    const { StoreLockedError } = await import('./store/lock.js');
    // While `npm start` holds the embedded store, ask the running service instead.
    const store = await openStore(config).catch(async (err) => {
      if (!(err instanceof StoreLockedError)) throw err;
      console.log(await callbackSecretFromService());
      return null;
    });
    if (!store) return;
    try {
      console.log((await resolveCallbackSecret(config, store)).secret);
    } finally {
      await store.close();
    }
  });

program
  .command('reset-password')
  .description("Make a one-time link (valid 24 hours) that sets a new password for the user with this email; prints the link, never a password")
  .argument('<email>', "the user's email")
  .option('--base-url <url>', 'where the dashboard is served (default http://localhost:PORT)')
  .action(async (email: string, o: { baseUrl?: string }) => {
    const { openStore } = await service();
    const { createPasswordReset, resetUrl } = await import('./modules/team/passwords.js');
    const { recordAuditForUser } = await import('./modules/audit/service.js');
    const config = loadConfig();
    const store = await openStore(config);
    try {
      const r = await createPasswordReset({ store, clock: { now: () => new Date() } }, email);
      await recordAuditForUser({ store }, r.userId, { actorLabel: 'operator (CLI)', action: 'password.reset_link', targetType: 'user', targetId: r.userId });
      console.log(resetUrl(o.baseUrl ?? `http://localhost:${config.port}`, r.token));
      console.error(`One-time link for ${email.trim().toLowerCase()}, valid until ${r.expiresAt.toISOString()}; earlier links no longer work.`);
    } finally {
      await store.close();
    }
  });

program
  .command('mcp')
  .description('MCP over stdio for desktop clients and coding agents: a proxy to the running Sightline at SIGHTLINE_URL, acting with SIGHTLINE_API_KEY')
  .action(async () => {
    // Loaded only here: stdout belongs to the protocol, and nothing else of the service starts.
    const { runStdioProxy } = await import('./mcp/stdio.js');
    await runStdioProxy();
  });

registerAdminCommands(program);
const logs = program.command('logs').description('AI crawler and AI referral logs');
logs
  .command('ingest')
  .description("Send an access log (combined format or CDN NDJSON, plain or gzip) to the running service's crawler-logs route")
  .argument('<file>', 'the log file (.gz is sent compressed)')
  .requiredOption('--project <id>', 'the project the log belongs to')
  .option('--api-key <key>', 'an admin API key (default SIGHTLINE_API_KEY)')
  .option('--url <url>', 'where the service runs (default SIGHTLINE_URL, else http://localhost:PORT)')
  .option('--format <format>', 'combined or ndjson (default: by the file name; .ndjson/.jsonl/.json are NDJSON)')
  .action(async (file: string, o: { project: string; apiKey?: string; url?: string; format?: string }) => {
    const { ingestFile } = await import('./logs-cli.js');
    const port = Number(process.env.PORT ?? 8080);
    console.log(JSON.stringify(await ingestFile(file, { ...o, port }), null, 2));
  });

program.parseAsync().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
