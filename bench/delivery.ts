import crypto from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { loadConfig } from '../src/config.js';
import { emitEvent } from '../src/modules/webhooks/events.js';
import { createRuntime } from '../src/runtime.js';
import { selfSignedCert } from '../test/fixtures/tls.js';
import { ADMIN_URL, describeMachine, fmt, machineInfo, revision, table, updateReadmeSection, waitForQuiet, withAdmin, type Suite } from './lib/index.js';

// Issue 5: 10,000 webhook events queued at once (the outbox: a delivery row and its job,
// written in the transaction that makes the event), delivered signed over HTTPS to a local
// receiver. Events/s from the first event to the last delivery, and the lag from an
// event's transaction to its arrival (p50/p99), on both stores.

const EVENTS = Number(process.env.BENCH_EVENTS ?? 10_000);
const DB = 'sightline_bench_delivery';

const admin = (sql: string) => withAdmin((c) => c.query(sql));

interface Outcome {
  store: string;
  seconds: number;
  perSecond: number;
  p50: number;
  p99: number;
  max: number;
  delivered: number;
  duplicates: number;
}

async function runStore(store: 'embedded' | 'postgres', cert: { key: Buffer; cert: Buffer }): Promise<Outcome> {
  const arrivals = new Map<number, number>();
  let duplicates = 0;
  let last = 0;
  const server = https.createServer({ key: cert.key, cert: cert.cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const now = Date.now();
      const seq = JSON.parse(Buffer.concat(chunks).toString()).data.seq as number;
      if (arrivals.has(seq)) duplicates++;
      else arrivals.set(seq, now);
      last = now;
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;

  let dataDir: string | null = null;
  const overrides: Record<string, unknown> = { allowPrivateUrls: true, outboundCa: cert.cert, role: 'all' };
  if (store === 'embedded') {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-bench-delivery-'));
    Object.assign(overrides, { dataDir, memoryStore: false });
  } else {
    await admin(`drop database if exists ${DB} with (force)`);
    await admin(`create database ${DB}`);
    const u = new URL(ADMIN_URL);
    u.pathname = `/${DB}`;
    Object.assign(overrides, { databaseUrl: u.toString(), secretKey: 'bench-secret-key-0123456789abcdef' });
  }
  const runtime = await createRuntime(loadConfig({}, overrides as any), pino({ level: 'warn' }));
  const ctx = runtime.ctx;
  try {
    const team = await ctx.store.query<{ id: string }>(`insert into teams (plan) values ('enterprise') returning id`);
    const teamId = team.rows[0].id;
    await ctx.store.query(`insert into webhooks (id, team_id, url, events, secret_encrypted) values ($1, $2, $3, $4::jsonb, $5)`, [
      `wh_bench${crypto.randomBytes(6).toString('hex')}`,
      teamId,
      url,
      JSON.stringify(['action.completed']),
      ctx.box.seal(`whsec_${crypto.randomBytes(24).toString('base64')}`),
    ]);
    const emitted = new Map<number, number>();
    const started = Date.now();
    const BATCH = 500;
    for (let i = 0; i < EVENTS; i += BATCH) {
      await ctx.store.tx(async (tx) => {
        for (let seq = i; seq < Math.min(EVENTS, i + BATCH); seq++) {
          await emitEvent(ctx, tx, teamId, 'action.completed', { seq, action_id: crypto.randomUUID(), workflow_id: crypto.randomUUID(), result: { title: 't', content: 'c' } });
        }
      });
      const committed = Date.now();
      for (let seq = i; seq < Math.min(EVENTS, i + BATCH); seq++) emitted.set(seq, committed);
    }
    const deadline = Date.now() + 15 * 60_000;
    while (arrivals.size < EVENTS && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    const lags = [...arrivals].map(([seq, at]) => at - emitted.get(seq)!).sort((a, b) => a - b);
    const q = (p: number) => lags[Math.min(lags.length - 1, Math.ceil((p / 100) * lags.length) - 1)];
    const seconds = (last - started) / 1000;
    return {
      store: store === 'embedded' ? 'embedded (PGlite)' : 'PostgreSQL',
      seconds,
      perSecond: arrivals.size / seconds,
      p50: q(50),
      p99: q(99),
      max: lags[lags.length - 1],
      delivered: arrivals.size,
      duplicates,
    };
  } finally {
    await runtime.stop();
    server.closeAllConnections();
    server.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    else await admin(`drop database if exists ${DB} with (force)`);
  }
}

export const deliverySuite: Suite = {
  name: 'delivery',
  description: `${EVENTS} webhook events through the outbox to a local HTTPS receiver`,
  async run() {
    const quiet = await waitForQuiet();
    const machine = machineInfo();
    const started = new Date().toISOString();
    console.log(`\n== delivery: ${EVENTS} events, ${describeMachine(machine)}`);
    const cert = selfSignedCert();
    const rows: Outcome[] = [];
    for (const store of ['embedded', 'postgres'] as const) {
      const r = await runStore(store, cert);
      console.log(`   ${r.store}: ${fmt.int(r.perSecond)} events/s, lag p50 ${r.p50} ms p99 ${r.p99} ms`);
      rows.push(r);
    }
    const text = [
      `Measured ${started} on ${describeMachine(machine)}${quiet ? `; ${quiet}` : ''}; Sightline at ${revision()}.`,
      '',
      `${fmt.int(EVENTS)} \`action.completed\` events emitted through the outbox (a delivery row and its job per event, 500 events per transaction) to one registered webhook, delivered signed (HMAC) over HTTPS to a local receiver answering 204, by the service's own delivery workers in the same process (\`ROLE=all\`: 8 concurrent deliveries). Rate: events delivered per second from the first emit to the last arrival. Lag: from the commit of an event's transaction to its arrival at the receiver.`,
      '',
      table(
        ['store', 'events delivered', 'duplicates', 'time', 'events/s', 'lag p50', 'lag p99', 'lag max'],
        rows.map((r) => [r.store, fmt.int(r.delivered), r.duplicates, `${r.seconds.toFixed(1)} s`, fmt.int(r.perSecond), `${r.p50} ms`, `${r.p99} ms`, `${r.max} ms`]),
      ),
    ].join('\n');
    console.log(`\n${text}\n`);
    updateReadmeSection('delivery', text);
  },
};
