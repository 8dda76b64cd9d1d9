import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  APP_DIR,
  describeMachine,
  envNumber,
  fmt,
  machineInfo,
  processCpuMs,
  revision,
  serviceEntry,
  sleep,
  startServer,
  table,
  updateReadmeSection,
  waitForQuiet,
  type Suite,
} from './lib/index.js';

// What `npm start` costs before a single request: the time to ready, the memory, and the
// CPU the service spends doing nothing (its job workers and maintenance, on the embedded
// store all on the request thread), on a fresh DATA_DIR and on the one that start left behind.

const RUNS = envNumber('BENCH_STARTUP_RUNS', 5);
const IDLE_SECONDS = envNumber('BENCH_STARTUP_IDLE_SECONDS', 20);
/** After /readyz, before RSS is read and the idle CPU is counted: the start's own work settles. */
const SETTLE_MS = 5_000;

interface Variant {
  name: string;
  dir: string;
}

interface Sample {
  readyMs: number;
  rssMb: number;
  idleCpuMsPerS: number;
}

function rssMb(pid: number): number {
  const m = fs.readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+) kB/);
  return m ? Number(m[1]) / 1024 : Number.NaN;
}

async function startOnce(v: Variant, dataDir: string): Promise<Sample> {
  const started = performance.now();
  const server = await startServer({
    name: v.name,
    entry: serviceEntry(v.dir),
    cwd: v.dir,
    env: { DATA_DIR: dataDir, ROLE: 'all', LOG_LEVEL: 'warn', PROVIDERS_MODE: 'simulated' },
    healthPath: '/readyz',
    timeoutMs: 180_000,
  });
  const readyMs = performance.now() - started;
  try {
    await sleep(SETTLE_MS);
    const rss = rssMb(server.pid);
    const before = processCpuMs(server.pid) ?? Number.NaN;
    await sleep(IDLE_SECONDS * 1000);
    const idle = ((processCpuMs(server.pid) ?? Number.NaN) - before) / IDLE_SECONDS;
    return { readyMs, rssMb: rss, idleCpuMsPerS: idle };
  } finally {
    await server.stop();
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const spread = (xs: number[], f: (n: number) => string) => `${f(median(xs))} (${f(Math.min(...xs))}–${f(Math.max(...xs))})`;

export const startupSuite: Suite = {
  name: 'startup',
  description: 'time to ready, idle memory and idle CPU of `npm start` on the embedded store',
  async run() {
    const quiet = await waitForQuiet();
    const machine = machineInfo();
    const variants: Variant[] = [];
    const beforeDir = process.env.BENCH_STARTUP_BEFORE_DIR;
    if (beforeDir) variants.push({ name: `before (${revision(beforeDir)})`, dir: path.resolve(beforeDir) });
    variants.push({ name: `after (${revision(APP_DIR)})`, dir: APP_DIR });
    console.log(`\n== startup: ${RUNS} runs of ${variants.map((v) => v.name).join(', ')}; ${describeMachine(machine)}`);
    const samples = new Map(variants.map((v) => [v.name, { fresh: [] as Sample[], existing: [] as Sample[] }]));
    for (let run = 0; run < RUNS; run++) {
      // the variants take turns, in the other order every other run
      for (const v of run % 2 ? [...variants].reverse() : variants) {
        const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-bench-startup-'));
        try {
          const fresh = await startOnce(v, dataDir);
          const existing = await startOnce(v, dataDir);
          samples.get(v.name)!.fresh.push(fresh);
          samples.get(v.name)!.existing.push(existing);
          const line = (s: Sample) => `ready ${fmt.int(s.readyMs)} ms, RSS ${fmt.int(s.rssMb)} MB, idle CPU ${s.idleCpuMsPerS.toFixed(1)} ms/s`;
          console.log(`   run ${run + 1}, ${v.name}: fresh ${line(fresh)}; existing ${line(existing)}`);
        } finally {
          fs.rmSync(dataDir, { recursive: true, force: true });
        }
      }
    }
    const ms = (n: number) => `${fmt.int(n)} ms`;
    const mb = (n: number) => `${fmt.int(n)} MB`;
    const cpu = (n: number) => `${n.toFixed(1)} ms/s`;
    const text = [
      `Measured ${machine.date} on ${describeMachine(machine)}${quiet ? `; ${quiet}` : ''}.`,
      '',
      `\`npm run bench -- startup\`: the built service (\`node dist/main.js\`, what \`npm start\` runs after its freshness check), \`ROLE=all\` on the embedded store, LOG_LEVEL=warn, simulated providers. Ready: from spawning the process to the first \`200\` of \`GET /readyz\` (polled every 100 ms), on a fresh \`DATA_DIR\` (schema and job queues created) and again on the folder that start left behind. RSS: the process's VmRSS ${SETTLE_MS / 1000} s after ready. Idle CPU: the process's CPU time (all threads) over the next ${IDLE_SECONDS} s without a request, per second (1,000 ms/s is one core): its job workers, the job queue's supervision and the store's maintenance. Median (min–max) of ${RUNS} runs; the variants take turns. \`BENCH_STARTUP_BEFORE_DIR\` adds a checkout of an earlier state (a \`git worktree\` with \`node_modules\` linked) as "before"; \`BENCH_STARTUP_RUNS\` (5), \`BENCH_STARTUP_IDLE_SECONDS\` (20).`,
      '',
      table(
        ['service', 'ready, fresh DATA_DIR', 'ready, existing DATA_DIR', 'RSS (fresh)', 'RSS (existing)', 'idle CPU (fresh)', 'idle CPU (existing)'],
        variants.map((v) => {
          const s = samples.get(v.name)!;
          return [
            v.name,
            spread(s.fresh.map((x) => x.readyMs), ms),
            spread(s.existing.map((x) => x.readyMs), ms),
            spread(s.fresh.map((x) => x.rssMb), mb),
            spread(s.existing.map((x) => x.rssMb), mb),
            spread(s.fresh.map((x) => x.idleCpuMsPerS), cpu),
            spread(s.existing.map((x) => x.idleCpuMsPerS), cpu),
          ];
        }),
      ),
    ].join('\n');
    console.log(`\n${text}\n`);
    if (revision(APP_DIR).includes('uncommitted')) console.log('   (uncommitted changes: bench/README.md left alone)');
    else updateReadmeSection('startup', text);
  },
};
