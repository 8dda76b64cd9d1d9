// The load generator of runLoad (bench/lib/load.ts), in a process of its own that holds
// nothing else. Run by plain `node` (its types are stripped; it imports no file of the
// repository), so its heap is autocannon's and the latencies it records alone: timed from
// the bench's own process, which had imported every suite (a heap of about 180 MB), the
// garbage collection of that heap put a 13-18 ms tail on reads whose p99 is 4-7 ms.
//
// Protocol over the IPC channel: the parent sends a LoadJob; this process runs the warm-up,
// sends { kind: 'ready' } and waits for { kind: 'go' } (the parent takes its CPU readings and
// starts a profiler in between), runs the measured window and sends { kind: 'done', result }.
import autocannon from 'autocannon';

export interface LoadJob {
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
}

export interface GeneratorResult {
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
  /** This process's CPU over the measured window, in ms. */
  cpuMs: number;
}

export type GeneratorMessage = { kind: 'ready' } | { kind: 'done'; result: GeneratorResult } | { kind: 'failed'; message: string };

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function optionsOf(job: LoadJob): autocannon.Options {
  let next = 0;
  const mix = job.requests;
  const perConnection = job.perConnection;
  return {
    url: job.url,
    connections: job.connections,
    headers: job.headers,
    timeout: 10,
    ...(job.perRequest ? { requests: job.perRequest.map((h) => ({ headers: { ...job.headers, ...h } })) } : {}),
    ...(mix ? { requests: mix.map((r) => ({ ...r, headers: { ...job.headers } })) } : {}),
    // Connection i sends perConnection[i]'s headers; with a mix, it starts at the i-th path.
    setupClient: perConnection
      ? (client) => {
          const i = next++;
          const headers = { ...job.headers, ...perConnection[i % perConnection.length] };
          if (!mix) return client.setHeaders(headers);
          const start = i % mix.length;
          client.setRequests([...mix.slice(start), ...mix.slice(0, start)].map((r) => ({ ...r, headers: { ...headers } })));
        }
      : undefined,
  };
}

async function run(job: LoadJob): Promise<GeneratorResult> {
  if (job.warmupSeconds > 0) await autocannon({ ...optionsOf(job), duration: job.warmupSeconds });
  const go = new Promise<void>((resolve) => process.once('message', () => resolve()));
  process.send?.({ kind: 'ready' } satisfies GeneratorMessage);
  await go;

  let latencies = new Float64Array(1 << 16);
  let n = 0;
  const cpu0 = process.cpuUsage();
  const instance = autocannon({ ...optionsOf(job), duration: job.seconds });
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
  const cpu = process.cpuUsage(cpu0);
  const sorted = latencies.subarray(0, n).sort();
  return {
    rps: r.requests.average,
    total: r.requests.total,
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p99: percentile(sorted, 99),
    max: n ? sorted[n - 1] : Number.NaN,
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    statusCodes: Object.fromEntries(Object.entries(r.statusCodeStats).map(([k, v]) => [k, v.count])),
    cpuMs: (cpu.user + cpu.system) / 1000,
  };
}

process.once('message', (job: LoadJob) => {
  run(job).then(
    (result) => process.send?.({ kind: 'done', result } satisfies GeneratorMessage, () => process.exit(0)),
    (err: unknown) => process.send?.({ kind: 'failed', message: err instanceof Error ? err.message : String(err) } satisfies GeneratorMessage, () => process.exit(1)),
  );
});
