import { type ChildProcess, fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { GeneratorMessage, GeneratorResult, LoadJob } from './load-generator.js';
import { sleep } from './servers.js';
import { ROOT } from './suite.js';

/** What to load (the generator's job) and what to read around the measured window. */
export interface LoadOptions extends LoadJob {
  /** The server's process id, to count its CPU time over the measured window (Linux /proc). */
  serverPid?: number;
  /** Other processes whose CPU over the measured window is wanted (asked after the warm-up), by group. */
  cpuOf?: () => Promise<Record<string, number[]>>;
  /** Called right before and right after the measured window (e.g. to profile just that). */
  onMeasureStart?: () => void;
  onMeasureEnd?: () => Promise<unknown> | undefined;
}

/** The generator's figures (requests/s, latency percentiles, status codes) and the CPU of every process involved. */
export interface LoadResult extends Omit<GeneratorResult, 'cpuMs'> {
  /** CPU over the measured window, in % of one core: the server, the load generator (autocannon's process), the whole machine. */
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

const GENERATOR = path.join(ROOT, 'bench', 'lib', 'load-generator.ts');

/**
 * Warms up (figures discarded), then measures, with autocannon in a child process of its own
 * (bench/lib/load-generator.ts): the latencies are the server's and the network's, not the
 * pauses of this process's heap.
 */
export async function runLoad(opts: LoadOptions): Promise<LoadResult> {
  // the readings around the window stay here; the rest is the generator's job
  const { serverPid, cpuOf, onMeasureStart, onMeasureEnd, ...job } = opts;
  if (job.requests && job.perRequest) throw new Error('runLoad: requests and perRequest do not combine');
  const generator = fork(GENERATOR, [], { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const exited = new Promise<number | null>((resolve) => generator.once('exit', resolve));
  const next = (): Promise<GeneratorMessage> =>
    new Promise((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`load generator exited with ${code} before answering`));
      generator.once('exit', onExit);
      generator.once('message', (m: GeneratorMessage) => {
        generator.off('exit', onExit);
        resolve(m);
      });
    });
  try {
    const afterWarmup = next();
    generator.send(job);
    const ready = await afterWarmup;
    if (ready.kind === 'failed') throw new Error(`load generator: ${ready.message}`);
    return await measured(opts, generator, next);
  } finally {
    if (generator.exitCode === null) generator.kill();
    await exited;
  }
}

/** The measured window: the parent's readings around the generator's run. */
async function measured(opts: LoadOptions, generator: ChildProcess, next: () => Promise<GeneratorMessage>): Promise<LoadResult> {
  const groups = (await opts.cpuOf?.()) ?? {};
  const groupCpu = () =>
    Object.fromEntries(
      Object.entries(groups).map(([g, pids]) => [g, pids.reduce((sum, pid) => sum + (processCpuMs(pid) ?? 0), 0)]),
    );
  const groups0 = groupCpu();
  opts.onMeasureStart?.();
  const t0 = process.hrtime.bigint();
  const server0 = opts.serverPid ? processCpuMs(opts.serverPid) : null;
  const machine0 = machineTicks();
  const done = next();
  generator.send({ kind: 'go' });
  const answer = await done;
  if (answer.kind !== 'done') throw new Error(`load generator: ${answer.kind === 'failed' ? answer.message : 'no result'}`);
  const r = answer.result;
  const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
  const server1 = opts.serverPid ? processCpuMs(opts.serverPid) : null;
  const machine1 = machineTicks();
  const groups1 = groupCpu();
  await opts.onMeasureEnd?.();
  const serverMs = server0 !== null && server1 !== null ? server1 - server0 : NaN;
  const cpu =
    machine0 && machine1
      ? {
          server: (serverMs / wallMs) * 100,
          loadGen: (r.cpuMs / wallMs) * 100,
          machine: ((machine1.busy - machine0.busy) / (machine1.total - machine0.total)) * os.cpus().length * 100,
        }
      : null;
  // autocannon drops its sockets when time is up; give the server a moment to finish
  // the requests it already took before anyone stops it.
  await sleep(500);
  const { cpuMs, ...figures } = r;
  return {
    ...figures,
    cpu,
    cpuPerReq: {
      server: (serverMs * 1000) / (r.total || NaN),
      autocannon: (cpuMs * 1000) / (r.total || NaN),
      ...Object.fromEntries(Object.keys(groups).map((g) => [g, ((groups1[g] - groups0[g]) * 1000) / (r.total || NaN)])),
    },
  };
}
