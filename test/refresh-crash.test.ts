import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dailyTickJob } from '../src/jobs/catalog.js';
import { PROVIDERS } from '../src/ports/providers/types.js';
import { startFakeProvider, type FakeProvider } from './fakes/index.js';
import { startReceiver, type Receiver } from './fakes/receiver.js';
import { call, startService, type ServiceProcess } from './child-service.js';
import { STORE, uniqueEmail, until } from './helpers.js';

// A collection run killed with SIGKILL mid-run and started again loses nothing and counts
// nothing twice: every (prompt, provider, day, sample) is stored once, rollups match, and the
// credits spent equal the answers stored. Embedded store, the compiled service
// (`node dist/main.js`): the cut-off job still counts as active after the restart, until
// pg-boss sees its heartbeat is older than JOB_HEARTBEAT_SECONDS (10 s here) and retries it
// after its retry delay (30 to 60 s). Server mode's version is in test/server-mode/faults.test.ts.
//
// The workers' hourly daily-refresh tick (dailyTickJob's cron, src/jobs/catalog.ts) gives a
// project without today's daily run one, which would collect the bootstrap's prompts again
// with two samples (170 answers, not 135): the test starts clear of it. It needs a few
// minutes; within DAILY_TICK_MARGIN_MS of the next tick it waits until the tick has passed
// (pg-boss fires a cron within its minute, and the job then runs).
const DAILY_TICK_MARGIN_MS = 6 * 60_000;
const DAILY_TICK_PASSED_MS = 90_000;
/** The minute of each hour the tick fires at ('5 * * * *'); another schedule needs another wait. */
const hourly = /^(\d{1,2}) \* \* \* \*$/.exec(dailyTickJob.cron ?? '');
if (!hourly) throw new Error(`the daily tick is no longer hourly (${dailyTickJob.cron}): clearOfDailyTick cannot tell when it fires`);
const DAILY_TICK_MINUTE = Number(hourly[1]);

async function clearOfDailyTick(): Promise<void> {
  const now = new Date();
  const tick = new Date(now);
  tick.setUTCMinutes(DAILY_TICK_MINUTE, 0, 0);
  if (tick.getTime() <= now.getTime() - DAILY_TICK_PASSED_MS) tick.setUTCHours(tick.getUTCHours() + 1);
  const wait = tick.getTime() + DAILY_TICK_PASSED_MS - now.getTime();
  if (tick.getTime() - now.getTime() < DAILY_TICK_MARGIN_MS) await new Promise((done) => setTimeout(done, wait));
}

describe.skipIf(STORE !== 'pglite')('refresh killed mid-run', () => {
  const ADMIN = 'operator-token-for-tests-0123';
  let fakes: FakeProvider[] = [];
  let receiver: Receiver;
  const procs: ServiceProcess[] = [];
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-crash-'));

  afterAll(async () => {
    for (const p of procs) if (p.child.exitCode === null) await p.kill();
    await Promise.all(fakes.map((f) => f.close()));
    await receiver?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('resumes after kill -9 without losing or double-counting answers or credits', async () => {
    await clearOfDailyTick();
    fakes = await Promise.all(PROVIDERS.map((k) => startFakeProvider(k, { delayMs: 700 })));
    receiver = await startReceiver();
    const env = {
      DATA_DIR: dataDir,
      ADMIN_TOKEN: ADMIN,
      ALLOW_PRIVATE_URLS: 'true',
      PROVIDERS_MODE: 'live',
      JOB_HEARTBEAT_SECONDS: '10',
      JOB_SUPERVISE_SECONDS: '1',
      ...Object.assign({}, ...fakes.map((f) => f.env)),
    };
    const a = await startService(env);
    procs.push(a);
    const email = uniqueEmail('crash');
    const acct = (await call(a.base, 'POST', '/account/create', { email })).json.data;
    const key = (await call(a.base, 'POST', '/account/api-key', { email, password: acct.password })).json.data.api_key;
    const auth = { 'x-api-key': key };
    expect((await call(a.base, 'PATCH', `/admin/teams/${acct.team_id}`, { plan: 'pro' }, { authorization: `Bearer ${ADMIN}` })).status).toBe(200);
    const projectId = (
      await call(a.base, 'POST', '/account/projects', { brand_name: 'Acme CRM', brand_url: 'http://127.0.0.1:1/', webhook_url: receiver.url }, auth)
    ).json.data.project_id;
    await receiver.waitFor(1, 60_000);
    // Two samples per prompt and provider (pro allows 3): each is an answer of its own.
    expect((await call(a.base, 'PATCH', `/projects/${projectId}`, { samples_per_run: 2 }, auth)).status).toBe(200);

    const topic = (await call(a.base, 'POST', `/projects/${projectId}/topics`, { name: 'Crash test' }, auth)).json.data.topic_id;
    const texts = Array.from({ length: 12 }, (_, i) => `which crm is best for team size ${i + 2}`);
    expect((await call(a.base, 'POST', `/projects/${projectId}/prompts`, { prompts: texts, topicId: topic }, auth)).status).toBe(200);
    const volumes = async (base: string) => {
      const list = (await call(base, 'GET', `/projects/${projectId}/prompts`, undefined, auth)).json.data.prompts as any[];
      return list.filter((p) => texts.includes(p.content)).map((p) => p.volume as number);
    };
    // Kill once some, not all, of the 120 new answers (12 prompts × 5 providers × 2 samples) are stored.
    await until(async () => {
      const v = await volumes(a.base);
      const sum = v.reduce((s, x) => s + x, 0);
      return sum >= 4 && sum < 120;
    }, 60_000, 50);
    await a.kill();

    const b = await startService(env);
    procs.push(b);
    const final = await until(async () => {
      const v = await volumes(b.base);
      return v.length === 12 && v.every((x) => x >= 10) && v;
      // Every 2 s: a minute of polling stays under the key's 70 requests a minute.
    }, 150_000, 2_000);
    expect(final).toEqual(new Array(12).fill(10));
    const all = (await call(b.base, 'GET', `/projects/${projectId}/prompts`, undefined, auth)).json.data;
    expect(all.total).toBe(17);
    const stored = all.prompts.reduce((s: number, p: any) => s + p.volume, 0);
    // The bootstrap asked one sample (its budget is fixed); the new prompts two each.
    expect(stored).toBe(5 * 3 + 12 * 5 * 2);
    // Credits spent equal answers stored (pro: 500 a month).
    const res = await call(b.base, 'GET', '/projects', undefined, auth);
    expect(res.headers.get('x-credit-available')).toBe(String(500 - stored));
    // The overview (another rollup) agrees.
    const overview = (await call(b.base, 'GET', `/projects/${projectId}/overview`, undefined, auth)).json.data.items as any[];
    expect(overview).toHaveLength(17);
    await b.stop();
  }, 300_000 + DAILY_TICK_MARGIN_MS + DAILY_TICK_PASSED_MS);
});
