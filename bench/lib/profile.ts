import fs from 'node:fs';
import { ROOT } from './suite.js';

interface CpuProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

/** Self time of a V8 .cpuprofile grouped by where the code lives (package, node internals, src/). */
export function summarizeCpuProfile(
  file: string,
  top = 12,
): { busyMs: number; byPlace: [string, number][]; byOwner: [string, number][]; byFunction: [string, number][] } {
  const prof = JSON.parse(fs.readFileSync(file, 'utf8')) as {
    nodes: CpuProfileNode[];
    samples: number[];
    timeDeltas: number[];
  };
  const nodes = new Map(prof.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  // byOwner: each sample goes to the nearest frame on its stack that is a package or src/,
  // so a socket write (native, node internals) counts for pg, ioredis or fastify, whoever asked.
  const ownerOf = (id: number): string => {
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const { url, functionName } = nodes.get(at)!.callFrame;
      const where = placeOf(url, functionName);
      if (where !== 'node internals' && where !== '(native)' && where !== '(program)' && !where.startsWith('wasm:')) return where;
    }
    return 'node internals';
  };
  const owner = new Map<string, number>();
  const place = new Map<string, number>();
  const fn = new Map<string, number>();
  let total = 0;
  // Samples under the profiler's own hook (stopping it takes a moment) are not the server's work.
  const underHook = (id: number): boolean => {
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      if (nodes.get(at)!.callFrame.url.includes('bench/profile-hook')) return true;
    }
    return false;
  };
  prof.samples.forEach((id, i) => {
    if (underHook(id)) return;
    const dt = prof.timeDeltas[i] ?? 0;
    total += dt;
    const { functionName, url, lineNumber } = nodes.get(id)!.callFrame;
    const where = placeOf(url, functionName);
    place.set(where, (place.get(where) ?? 0) + dt);
    const own = where === '(idle)' || where === '(garbage collector)' ? where : ownerOf(id);
    owner.set(own, (owner.get(own) ?? 0) + dt);
    const label = `${functionName || '(anonymous)'} ${url ? `${shortUrl(url)}:${lineNumber + 1}` : ''}`.trim();
    fn.set(label, (fn.get(label) ?? 0) + dt);
  });
  const share = (m: Map<string, number>) =>
    [...m.entries()].sort((a, b) => b[1] - a[1]).slice(0, top).map(([k, v]) => [k, v / total] as [string, number]);
  const busyMs = (total - (place.get('(idle)') ?? 0)) / 1000;
  return { busyMs, byPlace: share(place), byOwner: share(owner), byFunction: share(fn) };
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
  if (/\/src\/[^/]/.test(url) && !url.includes('/bench/')) return `src/${url.split('/src/').pop()}`;
  return shortUrl(url);
}
