import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from './suite.js';

// Servers under test run in child processes of their own. Every child is tracked, so the
// run stops all of them at the end, on an error and on Ctrl-C.

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
  /** Relative to `cwd`: a .js file (the build) runs with plain node, a .ts file with `node --import tsx`. */
  entry: string;
  /** The node executable (default: this process's, the project's pinned Node). */
  node?: string;
  /** Where the server runs (default: this repository; see BENCH_APP_DIR). */
  cwd?: string;
  env: Record<string, string>;
  nodeArgs?: string[];
  healthPath?: string;
  /** Polled instead of healthPath (a process without HTTP, e.g. job workers): true once ready. */
  ready?: () => Promise<boolean>;
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

  // The profile hook is TypeScript too, so a profiled build still needs the loader.
  const loader = opts.entry.endsWith('.ts') || opts.profileFile ? ['--import', 'tsx'] : [];
  const child = spawn(opts.node ?? process.execPath, [...loader, ...nodeArgs, opts.entry], {
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
      let i: number;
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
      throw new Error(`${opts.name} did not ${opts.ready ? 'get ready' : `answer ${opts.healthPath ?? '/healthz'}`} in time:\n${tail.join('\n')}`);
    }
    try {
      if (opts.ready) {
        if (await opts.ready()) break;
      } else {
        const res = await fetch(url + (opts.healthPath ?? '/healthz'));
        if (res.ok) break;
      }
    } catch {
      /* not listening (or not ready) yet */
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

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
