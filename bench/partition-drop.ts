// How long the retention job takes to drop one month of answers (docs/retention.md): a
// month partition of responses filled with synthetic answers, then dropped the way
// dropPastRetention drops it, on the embedded store and on PostgreSQL.
// Run: npx tsx bench/partition-drop.ts [rows per month]  (BENCH_DATABASE_URL as in README.md)
import crypto from 'node:crypto';
import pg from 'pg';
import pino from 'pino';
import type { Config } from '../src/config.js';
import { dropPastRetention } from '../src/modules/answers/retention.js';
import { openPglite } from '../src/store/pglite.js';
import { openPostgres } from '../src/store/postgres.js';
import type { Store } from '../src/store/index.js';
import { describeMachine, machineInfo } from './lib/machine.js';

const ROWS = Number(process.argv[2] ?? 100_000);
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function fillMonth(store: Store, month: string): Promise<string> {
  await store.query(`select responses_month_partition($1::date)`, [month]);
  // synthetic rows with no projects or prompts behind them: the foreign keys are left unchecked
  await store.tx(async (tx) => {
    await tx.query(`set local session_replication_role = replica`);
    await tx.query(
      `insert into responses (project_id, prompt_id, provider, day, market, model, simulated, body, mentioned, cites_own, citation_count)
       select gen_random_uuid(), gen_random_uuid(), 'openai', $1::date + (i % 28), 'US-en', 'm', true,
              decode(repeat(md5(i::text), 40), 'hex'), i % 3 = 0, false, i % 7
         from generate_series(1, $2::int) as i`,
      [month, ROWS],
    );
  });
  const size = await store.query<{ size: string }>(`select pg_size_pretty(pg_total_relation_size($1::regclass)) as size`, [`responses_p${month.slice(0, 7).replace('-', '')}`]);
  return size.rows[0].size;
}

async function measure(name: string, store: Store): Promise<void> {
  const size = await fillMonth(store, '2020-01-01');
  const ctx = { config: { retentionMonths: 1 } as Config, clock: { now: () => new Date() }, store, log: pino({ level: 'silent' }) };
  const started = performance.now();
  const dropped = await dropPastRetention(ctx);
  const ms = performance.now() - started;
  console.log(`${name}: dropped ${dropped.join(', ')} (${ROWS} answers, ${size}) in ${ms.toFixed(0)} ms`);
}

console.log(describeMachine(machineInfo()));
const embedded = await openPglite({});
try {
  await measure('embedded (PGlite)', embedded);
} finally {
  await embedded.close();
}
const dbName = `bench_partition_drop_${crypto.randomBytes(4).toString('hex')}`;
const admin = new pg.Client({ connectionString: ADMIN_URL });
await admin.connect();
await admin.query(`create database ${dbName}`);
try {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${dbName}`;
  const server = await openPostgres({ url: url.toString(), poolSize: 2 });
  try {
    await measure('PostgreSQL', server);
  } finally {
    await server.close();
  }
} finally {
  await admin.query(`drop database ${dbName}`);
  await admin.end();
}
