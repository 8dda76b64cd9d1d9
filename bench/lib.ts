import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import autocannon from 'autocannon';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const BENCH_README = path.join(ROOT, 'bench', 'README.md');
/**
 * The Sightline checkout whose servers are measured: this one by default, or another
 * (BENCH_APP_DIR, e.g. a `git worktree` of another commit, with node_modules) to compare.
 */
export const APP_DIR = path.resolve(process.env.BENCH_APP_DIR ?? ROOT);

/** What `npm run bench -- <suite> [--flags]` hands every suite. */
export interface SuiteOptions {
  /** --profile: servers run with --cpu-prof; figures are not written to the README. */
  profile: boolean;
  /** --diagnose: extra variants that explain the main figures. */
  diagnose: boolean;
}

export interface Suite {
  name: string;
  description: string;
  run(opts: SuiteOptions): Promise<void>;
}

// ---------------------------------------------------------------- machine

export interface Machine {
  date: string;
  node: string;
  cpu: string;
  cores: number;
  platform: string;
  memoryGb: number;
  /** 1-minute load average when the suite started: other work on the machine skews every figure. */
  load: number;
}

export function machineInfo(): Machine {
  const cpus = os.cpus();
  return {
    date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    node: process.version,
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    cores: cpus.length,
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
    memoryGb: Math.round(os.totalmem() / 2 ** 30),
    load: os.loadavg()[0],
  };
}

export function describeMachine(m: Machine): string {
  return `${m.date}, Node ${m.node}, ${m.cpu} × ${m.cores} cores (os.cpus()), ${m.memoryGb} GB, ${m.platform}, load average ${m.load.toFixed(2)} at start`;
}

/** The commit of a checkout, and whether its src/ or migrations/ differ from it. */
export function revision(dir = APP_DIR): string {
  try {
    const git = (...args: string[]) => execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8' }).trim();
    const commit = git('rev-parse', '--short', 'HEAD');
    const dirty = git('status', '--porcelain', '--', 'src', 'migrations') !== '';
    return dirty ? `${commit} + uncommitted changes` : commit;
  } catch {
    return 'unknown revision';
  }
}

// ---------------------------------------------------------------- child processes

const children = new Set<ChildProcess>();

/** Last resort: whatever is still running when this process exits is killed. */
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export interface ServerProcess {
  name: string;
  url: string;
  pid: number;
  /** Log lines at warn or above (pino JSON or plain stderr), for the report. */
  warnings(): string[];
  /** The last lines the server printed (for error messages). */
  tail(): string;
  /** With `profileFile`: start the CPU profiler in the server (see profile-hook.ts). */
  startProfile(): void;
  /** Stops the profiler and waits for the profile; null when not profiling. */
  stopProfile(): Promise<string | null>;
  stop(): Promise<void>;
}

export interface StartOptions {
  name: string;
  /** A .ts file relative to `cwd`, run with `node --import tsx`. */
  entry: string;
  /** Where the server runs (default: this repository; see BENCH_APP_DIR). */
  cwd?: string;
  env: Record<string, string>;
  nodeArgs?: string[];
  healthPath?: string;
  timeoutMs?: number;
  /** Preload bench/profile-hook.ts; the profile of the bracketed window goes to this file. */
  profileFile?: string;
}

// The child gets a clean environment: a DATABASE_URL or REDIS_URL in the caller's shell
// must not leak into the run that is meant to be on the embedded store.
const INHERITED_ENV = ['PATH', 'HOME', 'TMPDIR', 'LANG', 'TZ'];

/** Starts a server in its own process on a free port and waits until healthPath answers 200. */
export async function startServer(opts: StartOptions): Promise<ServerProcess> {
  const port = await freePort();
  const env: Record<string, string> = {};
  for (const k of INHERITED_ENV) if (process.env[k]) env[k] = process.env[k]!;
  Object.assign(env, { HOST: '127.0.0.1', PORT: String(port) }, opts.env);
  const nodeArgs = [...(opts.nodeArgs ?? [])];
  if (opts.profileFile) {
    fs.mkdirSync(path.dirname(opts.profileFile), { recursive: true });
    fs.rmSync(opts.profileFile, { force: true });
    env.BENCH_PROFILE_FILE = opts.profileFile;
    nodeArgs.push('--import', pathToFileURL(path.join(ROOT, 'bench', 'profile-hook.ts')).href);
  }

  const child = spawn(process.execPath, ['--import', 'tsx', ...nodeArgs, opts.entry], {
    cwd: opts.cwd ?? ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      children.delete(child);
      resolve(code);
    }),
  );

  const tail: string[] = [];
  const warnings: string[] = [];
  const onLine = (line: string) => {
    if (!line.trim()) return;
    tail.push(line);
    if (tail.length > 40) tail.shift();
    let level = 50;
    try {
      level = JSON.parse(line).level ?? 50;
    } catch {
      /* plain text on stderr counts as a warning */
    }
    if (level >= 40 && warnings.length < 100) warnings.push(line.slice(0, 400));
  };
  for (const stream of [child.stdout!, child.stderr!]) {
    let buf = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      buf += chunk;
      let i;
      while ((i = buf.indexOf('\n')) >= 0) {
        onLine(buf.slice(0, i));
        buf = buf.slice(i + 1);
      }
    });
  }

  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  };

  const deadline = Date.now() + (opts.timeoutMs ?? 60_000);
  let dead = false;
  void exited.then(() => (dead = true));
  for (;;) {
    if (dead) throw new Error(`${opts.name} exited before it was ready:\n${tail.join('\n')}`);
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${opts.name} did not answer ${opts.healthPath ?? '/healthz'} in time:\n${tail.join('\n')}`);
    }
    try {
      const res = await fetch(url + (opts.healthPath ?? '/healthz'));
      if (res.ok) break;
    } catch {
      /* not listening yet */
    }
    await sleep(100);
  }
  const startProfile = () => {
    if (opts.profileFile) child.kill('SIGUSR2');
  };
  const stopProfile = async () => {
    if (!opts.profileFile) return null;
    child.kill('SIGUSR2');
    for (let i = 0; i < 200 && !fs.existsSync(opts.profileFile); i++) await sleep(100);
    return fs.existsSync(opts.profileFile) ? opts.profileFile : null;
  };
  return { name: opts.name, url, pid: child.pid!, warnings: () => [...warnings], tail: () => tail.join('\n'), startProfile, stopProfile, stop };
}

/** Stops every server still running (on error paths). */
export async function stopAll(): Promise<void> {
  await Promise.all(
    [...children].map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
          child.once('exit', () => {
            clearTimeout(timer);
            resolve();
          });
          child.kill('SIGTERM');
        }),
    ),
  );
}

/** Waits (up to maxMs) for the 1-minute load average to fall under `below`; returns it. */
export async function waitForQuiet(below = 1, maxMs = 120_000): Promise<number> {
  const deadline = Date.now() + maxMs;
  let announced = false;
  while (os.loadavg()[0] >= below && Date.now() < deadline) {
    if (!announced) console.log(`  waiting for the machine to quieten (load average ${os.loadavg()[0].toFixed(2)}) …`);
    announced = true;
    await sleep(5_000);
  }
  return os.loadavg()[0];
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------- HTTP

export async function http<T = any>(
  method: string,
  url: string,
  opts: { body?: unknown; headers?: Record<string, string>; expect?: number } = {},
): Promise<{ status: number; body: T; text: string; headers: Headers }> {
  const res = await fetch(url, {
    method,
    headers: { ...(opts.body === undefined ? {} : { 'content-type': 'application/json' }), ...opts.headers },
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  const text = await res.text();
  if (opts.expect !== undefined && res.status !== opts.expect) {
    throw new Error(`${method} ${url}: expected ${opts.expect}, got ${res.status} ${text.slice(0, 300)}`);
  }
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, body, text, headers: res.headers };
}

// ---------------------------------------------------------------- load

export interface LoadOptions {
  url: string;
  connections: number;
  warmupSeconds: number;
  seconds: number;
  headers?: Record<string, string>;
  /** Headers per connection (connection i gets perConnection[i % length]). */
  perConnection?: Record<string, string>[];
  /** Called right before and right after the measured window (e.g. to profile just that). */
  onMeasureStart?: () => void;
  onMeasureEnd?: () => Promise<unknown> | void;
}

export interface LoadResult {
  /** Requests per second, autocannon's average of its per-second samples. */
  rps: number;
  total: number;
  /** Latency percentiles in ms from every answer's own timing (autocannon's histogram rounds to whole ms). */
  p50: number;
  p90: number;
  p99: number;
  max: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** Warms up (figures discarded), then measures, with autocannon in this process. */
export async function runLoad(opts: LoadOptions): Promise<LoadResult> {
  let next = 0;
  const base: autocannon.Options = {
    url: opts.url,
    connections: opts.connections,
    headers: opts.headers,
    timeout: 10,
    setupClient: opts.perConnection
      ? (client) => client.setHeaders({ ...opts.headers, ...opts.perConnection![next++ % opts.perConnection!.length] })
      : undefined,
  };
  if (opts.warmupSeconds > 0) await autocannon({ ...base, duration: opts.warmupSeconds });

  let latencies = new Float64Array(1 << 16);
  let n = 0;
  opts.onMeasureStart?.();
  const instance = autocannon({ ...base, duration: opts.seconds });
  instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
    if (status < 200 || status >= 300) return;
    if (n === latencies.length) {
      const grown = new Float64Array(latencies.length * 2);
      grown.set(latencies);
      latencies = grown;
    }
    latencies[n++] = ms;
  });
  const r = await instance;
  await opts.onMeasureEnd?.();
  // autocannon drops its sockets when time is up; give the server a moment to finish
  // the requests it already took before anyone stops it.
  await sleep(500);
  const sorted = latencies.subarray(0, n).sort();
  return {
    rps: r.requests.average,
    total: r.requests.total,
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p99: percentile(sorted, 99),
    max: n ? sorted[n - 1] : NaN,
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    statusCodes: Object.fromEntries(Object.entries(r.statusCodeStats).map(([k, v]) => [k, v.count])),
  };
}

// ---------------------------------------------------------------- report

export function table(headers: string[], rows: (string | number)[][]): string {
  const align = headers.map((_, i) => (rows.every((r) => typeof r[i] === 'number' || /^[\d.,×%-]+( ms)?$/.test(String(r[i]))) ? '---:' : '---'));
  return [
    `| ${headers.join(' | ')} |`,
    `| ${align.join(' | ')} |`,
    ...rows.map((r) => `| ${r.map(String).join(' | ')} |`),
  ].join('\n');
}

export const fmt = {
  int: (n: number) => Math.round(n).toLocaleString('en-US'),
  ms: (n: number) => (Number.isFinite(n) ? `${n.toFixed(2)} ms` : '–'),
  pct: (n: number) => `${(n * 100).toFixed(1)}%`,
};

/** Replaces the text between `<!-- bench:ID:start -->` and `<!-- bench:ID:end -->` (appends the section when missing). */
export function updateReadmeSection(id: string, content: string, file = BENCH_README): void {
  const start = `<!-- bench:${id}:start -->`;
  const end = `<!-- bench:${id}:end -->`;
  const block = `${start}\n${content.trim()}\n${end}`;
  const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '# Benchmarks\n';
  const i = text.indexOf(start);
  const j = text.indexOf(end);
  const next = i >= 0 && j > i ? text.slice(0, i) + block + text.slice(j + end.length) : `${text.trimEnd()}\n\n${block}\n`;
  fs.writeFileSync(file, next);
}

// ---------------------------------------------------------------- profiles

interface CpuProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

/** Self time of a V8 .cpuprofile grouped by where the code lives (package, node internals, src/). */
export function summarizeCpuProfile(
  file: string,
  top = 12,
): { busyMs: number; byPlace: [string, number][]; byFunction: [string, number][] } {
  const prof = JSON.parse(fs.readFileSync(file, 'utf8')) as {
    nodes: CpuProfileNode[];
    samples: number[];
    timeDeltas: number[];
  };
  const nodes = new Map(prof.nodes.map((n) => [n.id, n]));
  const place = new Map<string, number>();
  const fn = new Map<string, number>();
  let total = 0;
  prof.samples.forEach((id, i) => {
    const dt = prof.timeDeltas[i] ?? 0;
    total += dt;
    const { functionName, url, lineNumber } = nodes.get(id)!.callFrame;
    const where = placeOf(url, functionName);
    place.set(where, (place.get(where) ?? 0) + dt);
    const label = `${functionName || '(anonymous)'} ${url ? `${shortUrl(url)}:${lineNumber + 1}` : ''}`.trim();
    fn.set(label, (fn.get(label) ?? 0) + dt);
  });
  const share = (m: Map<string, number>) =>
    [...m.entries()].sort((a, b) => b[1] - a[1]).slice(0, top).map(([k, v]) => [k, v / total] as [string, number]);
  const busyMs = (total - (place.get('(idle)') ?? 0)) / 1000;
  return { busyMs, byPlace: share(place), byFunction: share(fn) };
}

function shortUrl(url: string): string {
  const m = url.match(/node_modules\/(.*)$/);
  if (m) return m[1];
  return url.replace(`file://${ROOT}/`, '');
}

function placeOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const pkg = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (pkg) return pkg[1];
  if (url.startsWith('node:')) return 'node internals';
  if (url.includes(`${ROOT}/src/`)) return 'src/';
  return shortUrl(url);
}
