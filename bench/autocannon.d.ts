// The part of autocannon 8's programmatic API the benchmarks use (the package ships no
// types, and @types/autocannon is not a dependency).
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  namespace autocannon {
    interface Client {
      setHeaders(headers: Record<string, string>): void;
      /** Replaces the requests this connection cycles through. */
      setRequests(requests: { method?: string; path?: string; headers?: Record<string, string>; body?: string }[]): void;
    }

    interface Options {
      url: string;
      connections?: number;
      duration?: number;
      pipelining?: number;
      timeout?: number;
      method?: string;
      headers?: Record<string, string>;
      body?: string;
      setupClient?: (client: Client) => void;
      /** Requests each connection cycles through. */
      requests?: { method?: string; path?: string; headers?: Record<string, string>; body?: string }[];
    }

    interface Histogram {
      average: number;
      mean: number;
      stddev: number;
      min: number;
      max: number;
      total: number;
      p50: number;
      p90: number;
      p97_5: number;
      p99: number;
    }

    interface Result {
      url: string;
      connections: number;
      duration: number;
      requests: Histogram & { sent: number };
      latency: Histogram;
      throughput: Histogram;
      errors: number;
      timeouts: number;
      non2xx: number;
      resets: number;
      '1xx': number;
      '2xx': number;
      '3xx': number;
      '4xx': number;
      '5xx': number;
      statusCodeStats: Record<string, { count: number }>;
    }

    /** The tracker emits 'response' (client, statusCode, bytes, responseTimeMs) per answer. */
    type Instance = EventEmitter & PromiseLike<Result>;
  }

  function autocannon(opts: autocannon.Options): autocannon.Instance;
  export default autocannon;
}
