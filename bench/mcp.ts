import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { http } from './lib/http.js';
import { processCpuMs, runLoad } from './lib/load.js';
import { describeMachine, machineInfo, revision, waitForQuiet } from './lib/machine.js';
import { fmt, table, updateReadmeSection } from './lib/report.js';
import { seedAccount, startSightline } from './lib/sightline.js';
import type { Suite } from './lib/suite.js';

// 50 concurrent MCP sessions calling get_overview over Streamable HTTP for 10 s, beside the
// same figures through REST (GET /v1/projects/{id}/overview), measured on the same server
// in the same run. Each session is the SDK's own client with its own key.

const SESSIONS = 50;
const WARMUP_S = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);
const MEASURE_S = Number(process.env.BENCH_SECONDS ?? 10);
const PROMPTS = 10;

interface Row {
  label: string;
  rps: number;
  p50: number;
  p99: number;
  failures: string;
  serverCpuPerCall: number;
}

const quantile = (sorted: number[], q: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] : Number.NaN);

/** Every session calls the tool in a closed loop; latencies of the measured window only. */
async function mcpLoad(base: string, keys: string[], projectId: string, serverPid: number): Promise<Row> {
  const clients = await Promise.all(
    keys.map(async (key) => {
      const c = new Client({ name: 'sightline-bench', version: '1.0.0' });
      await c.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: { 'x-api-key': key } } }));
      return c;
    }),
  );
  const args = { name: 'get_overview', arguments: { project_id: projectId } };
  const latencies: number[] = [];
  let toolErrors = 0;
  let thrown = 0;
  let firstError = '';
  const start = performance.now() + WARMUP_S * 1000;
  const end = start + MEASURE_S * 1000;
  let cpu0 = 0;
  const cpuMark = setTimeout(() => (cpu0 = processCpuMs(serverPid) ?? 0), WARMUP_S * 1000);
  await Promise.all(
    clients.map(async (c) => {
      while (performance.now() < end) {
        const t0 = performance.now();
        try {
          const r = await c.callTool(args);
          if (r.isError) {
            toolErrors++;
            firstError ||= JSON.stringify(r.content);
          }
        } catch (err) {
          thrown++;
          firstError ||= (err as Error).message;
        }
        if (t0 >= start) latencies.push(performance.now() - t0);
      }
    }),
  );
  clearTimeout(cpuMark);
  const cpuMs = (processCpuMs(serverPid) ?? 0) - cpu0;
  await Promise.all(clients.map((c) => c.close()));
  if (firstError) console.warn(`  MCP errors: ${toolErrors} tool errors, ${thrown} thrown; first: ${firstError.slice(0, 300)}`);
  latencies.sort((a, b) => a - b);
  return {
    label: `MCP: ${SESSIONS} sessions, tools/call get_overview`,
    rps: latencies.length / MEASURE_S,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    failures: `${toolErrors} / ${thrown}`,
    serverCpuPerCall: (cpuMs * 1000) / Math.max(1, latencies.length),
  };
}

async function runStore(store: 'embedded' | 'postgres'): Promise<Row[]> {
  // READ_CACHE_MB=0: REST computes every answer, as a tool call does (MCP does not go
  // through REST's response cache), so the two rows compare the surfaces, not a cache.
  const server = await startSightline({
    name: `mcp-${store}`,
    store,
    redis: store === 'postgres',
    env: { ROLE: 'api', RATE_LIMIT_WINDOW_MS: '100', READ_CACHE_MB: '0' },
  });
  try {
    const { keys, projectId } = await seedAccount(server.url, SESSIONS);
    const admin = { 'x-api-key': keys[0] };
    const topic = await http('POST', `${server.url}/v1/projects/${projectId}/topics`, { headers: admin, body: { name: 'Bench topic' }, expect: 201 });
    const prompts = Array.from({ length: PROMPTS }, (_, i) => `Which tool is best for task ${i + 1}?`);
    await http('POST', `${server.url}/v1/projects/${projectId}/prompts`, { headers: admin, body: { prompts, topicId: topic.body.data.topic_id }, expect: 200 });
    const url = `${server.url}/v1/projects/${projectId}/overview`;
    const rest = await runLoad({
      url,
      connections: SESSIONS,
      warmupSeconds: WARMUP_S,
      seconds: MEASURE_S,
      perConnection: keys.map((k) => ({ 'x-api-key': k })),
      serverPid: server.pid,
    });
    const restRow: Row = {
      label: `REST: ${SESSIONS} connections, GET /v1/projects/{id}/overview`,
      rps: rest.rps,
      p50: rest.p50,
      p99: rest.p99,
      failures: `${rest.non2xx} / ${rest.errors + rest.timeouts}`,
      serverCpuPerCall: rest.cpuPerReq.server ?? Number.NaN,
    };
    const mcp = await mcpLoad(server.url, keys, projectId, server.pid);
    return [restRow, mcp].map((r) => ({ ...r, label: `${store === 'embedded' ? 'embedded (PGlite)' : 'PostgreSQL + Redis'}, ${r.label}` }));
  } catch (err) {
    throw new Error(`mcp ${store}: ${(err as Error).message}\n--- server output:\n${server.tail()}`, { cause: err });
  } finally {
    await server.stop();
  }
}

export const mcpSuite: Suite = {
  name: 'mcp',
  description: `${SESSIONS} concurrent MCP sessions calling get_overview vs the same REST call`,
  async run(opts) {
    const warning = await waitForQuiet(1, Number(process.env.BENCH_QUIET_WAIT_SECONDS ?? 60) * 1000);
    const machine = machineInfo();
    console.log(`mcp: ${describeMachine(machine)}`);
    if (warning) console.warn(`  WARNING: ${warning}`);
    const rows: Row[] = [];
    for (const store of ['embedded', 'postgres'] as const) {
      console.log(`  ${store} …`);
      rows.push(...(await runStore(store)));
    }
    const text = [
      `Measured ${machine.date} on ${describeMachine(machine).replace(/^[^,]+, /, '')}; Sightline at ${revision()}.${warning ? ` **Warning: ${warning}.**` : ''}`,
      '',
      `The per-prompt overview of a project with ${PROMPTS} prompts, through REST (autocannon, a key per connection) and through MCP ` +
        `(${SESSIONS} sessions of the SDK's own client over Streamable HTTP, a key each, each calling the tool in a closed loop), ` +
        `on the same server in the same run: ${WARMUP_S} s warm-up, ${MEASURE_S} s measured. ROLE=api, READ_CACHE_MB=0 (both surfaces compute every answer), ` +
        'RATE_LIMIT_WINDOW_MS=100 (the limiter on, no 429 at these rates). The load generators run in the benchmark\'s process on the same cores.',
      '',
      table(
        ['surface', 'calls/s', 'p50', 'p99', 'non-2xx or tool errors / transport errors', 'server CPU per call'],
        rows.map((r) => [r.label, fmt.int(r.rps), fmt.ms(r.p50), fmt.ms(r.p99), r.failures, fmt.us(r.serverCpuPerCall)]),
      ),
      '',
      `Session handling holds when the MCP rows show no tool error and no transport error over the ${MEASURE_S} s. The ${SESSIONS} SDK clients ` +
        "share the machine's cores with the server (autocannon is far lighter), so MCP calls/s is bounded by the client side too; " +
        'server CPU per call is the fairer comparison of the two surfaces.',
    ].join('\n');
    console.log(`\n${text}\n`);
    if (!opts.profile) updateReadmeSection('mcp', `## MCP sessions under load (\`npm run bench -- mcp\`)\n\n${text}`);
  },
};
