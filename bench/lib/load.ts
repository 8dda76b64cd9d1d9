import fs from 'node:fs';
import os from 'node:os';
import autocannon from 'autocannon';
import { sleep } from './servers.js';

export interface LoadOptions {
  url: string;
  connections: number;
  warmupSeconds: number;
  seconds: number;
  headers?: Record<string, string>;
  /** Headers per connection (connection i gets perConnection[i % length]). */
  perConnection?: Record<string, string>[];
  /** Headers per request instead: every connection cycles through them. */
  perRequest?: Record<string, string>[];
  /**
   * A mix of paths every connection cycles through (instead of the url's path). With
   * perConnection, each connection sends its own headers on every one of them, and
   * connection i starts at the i-th path so the mix is spread from the first second.
   */
  requests?: { path: string; method?: string }[];
  /** The server's process id, to count its CPU time over the measured window (Linux /proc). */
  serverPid?: number;
  /** Other processes whose CPU over the measured window is wanted (asked after the warm-up), by group. */
  cpuOf?: () => Promise<Record<string, number[]>>;
  /** Called right before and right after the measured window (e.g. to profile just that). */
  onMeasureStart?: () => void;
  onMeasureEnd?: () => Promise<unknown> | undefined;
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
  /** CPU over the measured window, in % of one core: the server, this process (autocannon), the whole machine. */
  cpu: { server: number; loadGen: number; machine: number } | null;
  /** CPU time per answered request in µs of every process involved: server, autocannon and cpuOf's groups (robust against other work on the machine). */
  cpuPerReq: Record<string, number>;
}

const CLK_TCK = 100; // getconf CLK_TCK on Linux

/** CPU time of a process (all its threads) in ms, from /proc; null where there is no /proc. */
export function processCpuMs(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLK_TCK; // utime, stime
  } catch {
    return null;
  }
}

/** Busy and total jiffies of the whole machine. */
export function machineTicks(): { busy: number; total: number } | null {
  try {
    const cpu = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    const total = cpu.reduce((a, b) => a + b, 0);
    return { busy: total - cpu[3] - (cpu[4] ?? 0), total };
  } catch {
    return null;
  }
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** Warms up (figures discarded), then measures, with autocannon in this process. */
export async function runLoad(opts: LoadOptions): Promise<LoadResult> {
  let next = 0;
  const mix = opts.requests;
  if (mix && opts.perRequest) throw new Error('runLoad: requests and perRequest do not combine');
  const base: autocannon.Options = {
    url: opts.url,
    connections: opts.connections,
    headers: opts.headers,
    timeout: 10,
    ...(opts.perRequest ? { requests: opts.perRequest.map((h) => ({ headers: { ...opts.headers, ...h } })) } : {}),
    ...(mix ? { requests: mix.map((r) => ({ ...r, headers: { ...opts.headers } })) } : {}),
    setupClient: opts.perConnection
      ? (client) => {
          const i = next++;
          const headers = { ...opts.headers, ...opts.perConnection![i % opts.perConnection!.length] };
          if (!mix) return client.setHeaders(headers);
          const start = i % mix.length;
          client.setRequests([...mix.slice(start), ...mix.slice(0, start)].map((r) => ({ ...r, headers: { ...headers } })));
        }
      : undefined,
  };
  if (opts.warmupSeconds > 0) await autocannon({ ...base, duration: opts.warmupSeconds });

  let latencies = new Float64Array(1 << 16);
  let n = 0;
  const groups = (await opts.cpuOf?.()) ?? {};
  const groupCpu = () =>
    Object.fromEntries(
      Object.entries(groups).map(([g, pids]) => [g, pids.reduce((sum, pid) => sum + (processCpuMs(pid) ?? 0), 0)]),
    );
  const groups0 = groupCpu();
  opts.onMeasureStart?.();
  const t0 = process.hrtime.bigint();
  const server0 = opts.serverPid ? processCpuMs(opts.serverPid) : null;
  const self0 = process.cpuUsage();
  const machine0 = machineTicks();
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
  const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
  const server1 = opts.serverPid ? processCpuMs(opts.serverPid) : null;
  const self1 = process.cpuUsage(self0);
  const machine1 = machineTicks();
  const groups1 = groupCpu();
  await opts.onMeasureEnd?.();
  const serverMs = server0 !== null && server1 !== null ? server1 - server0 : NaN;
  const cpu =
    machine0 && machine1
      ? {
          server: (serverMs / wallMs) * 100,
          loadGen: ((self1.user + self1.system) / 1000 / wallMs) * 100,
          machine: ((machine1.busy - machine0.busy) / (machine1.total - machine0.total)) * os.cpus().length * 100,
        }
      : null;
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
    cpu,
    cpuPerReq: {
      server: (serverMs * 1000) / (r.requests.total || NaN),
      autocannon: (self1.user + self1.system) / (r.requests.total || NaN),
      ...Object.fromEntries(Object.keys(groups).map((g) => [g, ((groups1[g] - groups0[g]) * 1000) / (r.requests.total || NaN)])),
    },
  };
}
