import fs from 'node:fs';
import path from 'node:path';
import ipaddr from 'ipaddr.js';
import { BUNDLED_RANGES, PUBLISHED_ONLY, type PublishedRanges } from './ranges-bundled.js';

/**
 * The published address ranges of the agents that publish them, as matchers. The bundled
 * files can be replaced without a release: an operator drops the operators' newer files
 * (their own JSON, `{creationTime, prefixes:[{ipv4Prefix|ipv6Prefix}]}`, named as published:
 * gptbot.json, searchbot.json, chatgpt-user.json, perplexitybot.json, perplexity-user.json)
 * into CRAWLER_RANGES_DIR; a file there is used unless its creationTime is older than the
 * bundled one's (an operator may republish a file under the same creationTime, as
 * Perplexity did with perplexitybot.json), and the folder is read again whenever a file in
 * it changes, so no restart is needed.
 */
type Cidr = [ipaddr.IPv4 | ipaddr.IPv6, number];

export interface RangeSet {
  /** Per agent: where its ranges come from and their date. */
  sources: Record<string, { source: string; published: string; prefixes: number }>;
  /** True when the address lies in the agent's published ranges. */
  verify(agent: string, address: string): boolean;
}

/** The URL each agent's ranges are published at, bundled or not. */
const SOURCE_OF_AGENT: Record<string, string> = {
  ...Object.fromEntries(Object.entries(BUNDLED_RANGES).map(([agent, r]) => [agent, r.source])),
  ...PUBLISHED_ONLY,
};

/** The file name each agent's ranges are published under. */
const FILE_OF_AGENT: Record<string, string> = Object.fromEntries(
  Object.entries(SOURCE_OF_AGENT).map(([agent, source]) => [agent, path.basename(new URL(source).pathname)]),
);

function readPublished(file: string, source: string): PublishedRanges | null {
  try {
    const doc = JSON.parse(fs.readFileSync(file, 'utf8')) as { creationTime?: string; prefixes?: Array<Record<string, string>> };
    const prefixes = (doc.prefixes ?? []).map((p) => p.ipv4Prefix ?? p.ipv6Prefix).filter((p): p is string => typeof p === 'string');
    const published = new Date(`${(doc.creationTime ?? '').slice(0, 19)}Z`);
    if (prefixes.length === 0 || Number.isNaN(published.getTime())) return null;
    return { source, published: published.toISOString().replace('.000', ''), prefixes };
  } catch {
    return null;
  }
}

function toCidrs(prefixes: string[]): Cidr[] {
  const out: Cidr[] = [];
  for (const p of prefixes) {
    try {
      out.push(ipaddr.parseCIDR(p));
    } catch {
      // a prefix that does not parse verifies nothing
    }
  }
  return out;
}

function buildRangeSet(dir: string | undefined): RangeSet {
  const chosen: Record<string, PublishedRanges> = { ...BUNDLED_RANGES };
  if (dir) {
    for (const [agent, file] of Object.entries(FILE_OF_AGENT)) {
      const operators = readPublished(path.join(dir, file), SOURCE_OF_AGENT[agent]);
      const bundled = chosen[agent];
      if (operators && (!bundled || operators.published >= bundled.published)) chosen[agent] = operators;
    }
  }
  const cidrs = new Map(Object.entries(chosen).map(([agent, r]) => [agent, toCidrs(r.prefixes)]));
  // Bot traffic comes from few addresses: the answer per (agent, address) is kept, bounded.
  const seen = new Map<string, boolean>();
  return {
    sources: Object.fromEntries(Object.entries(chosen).map(([a, r]) => [a, { source: r.source, published: r.published, prefixes: r.prefixes.length }])),
    verify(agent, address) {
      const ranges = cidrs.get(agent);
      if (!ranges) return false;
      const key = `${agent} ${address}`;
      const known = seen.get(key);
      if (known !== undefined) return known;
      let ok = false;
      try {
        let ip = ipaddr.parse(address);
        if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address();
        ok = ranges.some(([range, bits]) => range.kind() === ip.kind() && ip.match(range, bits));
      } catch {
        ok = false;
      }
      if (seen.size > 50_000) seen.clear();
      seen.set(key, ok);
      return ok;
    },
  };
}

let cached: { key: string; set: RangeSet } | null = null;

/** The ranges in force: bundled, or the operator's files from `dir`; rebuilt when the folder's files change. */
export function currentRanges(dir?: string): RangeSet {
  let key = dir ?? '';
  if (dir) {
    for (const file of Object.values(FILE_OF_AGENT)) {
      const st = fs.statSync(path.join(dir, file), { throwIfNoEntry: false });
      key += `|${st ? st.mtimeMs : 0}`;
    }
  }
  if (!cached || cached.key !== key) cached = { key, set: buildRangeSet(dir) };
  return cached.set;
}
