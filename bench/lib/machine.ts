import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { APP_DIR } from './suite.js';
import { sleep } from './servers.js';

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
  return (
    `${m.date}, Node ${m.node}, ${m.cpu} × ${m.cores} cores (os.cpus()), ${m.memoryGb} GB, ${m.platform}, ` +
    `load average ${m.load.toFixed(2)} at start`
  );
}

/** The commit of a checkout, and whether its src/ or migrations/ differ from it. */
export function revision(dir = APP_DIR): string {
  try {
    const git = (...args: string[]) =>
      execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const commit = git('rev-parse', '--short', 'HEAD');
    const dirty = git('status', '--porcelain', '--', 'src', 'migrations') !== '';
    return dirty ? `${commit} + uncommitted changes` : commit;
  } catch {
    return 'unknown revision';
  }
}

/**
 * Waits (up to maxMs) for the 1-minute load average to fall under `below` and returns a
 * warning when it did not: tests or builds running beside a benchmark skew every figure.
 */
export async function waitForQuiet(below = 1, maxMs = 60_000): Promise<string | null> {
  const deadline = Date.now() + maxMs;
  let announced = false;
  while (os.loadavg()[0] >= below && Date.now() < deadline) {
    if (!announced) console.log(`  waiting up to ${maxMs / 1000} s for the machine to quieten (load average ${os.loadavg()[0].toFixed(2)}) …`);
    announced = true;
    await sleep(5_000);
  }
  const load = os.loadavg()[0];
  return load >= below ? `the load average stayed at ${below} or more for ${Math.round(maxMs / 1000)} s of waiting: other work on this machine skews the figures` : null;
}
