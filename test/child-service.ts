import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface ServiceProcess {
  child: ChildProcess;
  port: number;
  base: string;
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGKILL: no cleanup at all, as a crash. */
  kill(): Promise<void>;
  /** SIGTERM and wait for the exit. */
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

let built = false;
/**
 * Builds dist/ when src/ is newer than the last build (scripts/build.mjs, as `npm start` does
 * first), once per test process: the tests run the compiled service, the artefact `npm start`
 * and the Docker image run, not the sources through a loader.
 */
export function ensureBuilt(): void {
  if (built) return;
  execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'build.mjs'), '--if-stale'], { cwd: ROOT, stdio: 'inherit' });
  built = true;
}

/**
 * The first port of the kernel's ephemeral range: the local ports it gives outgoing
 * connections (to PostgreSQL, Redis, the fakes) come from there.
 */
function ephemeralLow(): number {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > 2_048 ? low : 32_768;
  } catch {
    return 32_768;
  }
}
const PORT_FLOOR = 1_024;

function bindsOn(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

/**
 * A port free on 127.0.0.1 for a process started next to listen on. Taken below the
 * ephemeral range at random: a port the kernel hands out (listen(0)) can be given to an
 * outgoing connection of another test between this check and the child's listen, and the
 * child then exits with "already in use" (CI met it); below the range only another test's
 * pick can collide, and startService starts again on another port if one does.
 */
export async function freePort(): Promise<number> {
  const low = ephemeralLow();
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = PORT_FLOOR + Math.floor(Math.random() * (low - PORT_FLOOR));
    if (await bindsOn(port)) return port;
  }
  throw new Error(`no free port below ${low} on 127.0.0.1 after 50 tries`);
}

const PORT_IN_USE = /already in use/;
const START_ATTEMPTS = 3;

/** The error of a child that exited before it came up: PortInUse when its output says its port was taken. */
export function exitedEarly(message: string, output: string): Error {
  return PORT_IN_USE.test(output) ? new PortInUse(message) : new Error(message);
}

/**
 * `start` on a free port (freePort); started again on another port, up to START_ATTEMPTS
 * times, when the child found its port taken (another process took it between freePort's
 * check and the child's listen).
 */
export async function onFreePort<T>(start: (port: number) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start(await freePort());
    } catch (err) {
      if (attempt >= START_ATTEMPTS || !(err instanceof PortInUse)) throw err;
    }
  }
}

/**
 * The real service as an operator runs it (`node dist/main.js`, on this test run's Node), with
 * only the given environment (no TEST_* or DATABASE_URL leaks in from the test run). Resolves
 * once /healthz answers.
 */
export async function startService(env: Record<string, string>, timeoutMs = 60_000): Promise<ServiceProcess> {
  ensureBuilt();
  if (env.PORT) return startOn(Number(env.PORT), env, timeoutMs);
  return onFreePort((port) => startOn(port, env, timeoutMs));
}

class PortInUse extends Error {}

async function startOn(port: number, env: Record<string, string>, timeoutMs: number): Promise<ServiceProcess> {
  const child = spawn(process.execPath, ['dist/main.js'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  let up = false;
  while (!up) {
    if (child.exitCode !== null) {
      throw exitedEarly(`service exited early (${child.exitCode}):\n${out}`, out);
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`service did not come up in ${timeoutMs} ms:\n${out}`);
    }
    up = await fetch(`${base}/healthz`).then((r) => r.ok, () => false);
    if (!up) await new Promise((r) => setTimeout(r, 150));
  }
  return {
    child,
    port,
    base,
    output: () => out,
    exited,
    async kill() {
      child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

/** JSON over HTTP against a running service. */
export async function call(base: string, method: string, url: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${base}/v1${url}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: text ? JSON.parse(text) : null };
}

/**
 * Runs `src/main.ts` with only the given environment until it exits by itself (or is killed
 * after `timeoutMs`): for starts that are expected to fail. stdout and stderr are kept apart.
 */
export async function runToExit(
  env: Record<string, string>,
  timeoutMs = 30_000,
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const { code, signal } = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (c, s) => resolve({ code: c, signal: s })),
  );
  clearTimeout(timer);
  return { code, signal, stdout, stderr };
}
