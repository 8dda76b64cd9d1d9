import fs from 'node:fs';
import os from 'node:os';
import readline from 'node:readline';
import { readLog } from '../src/modules/crawler-logs/read-log.js';
import { currentRanges } from '../src/modules/crawler-logs/ranges.js';
import { hostMatcher, LogTally } from '../src/modules/crawler-logs/tally.js';
import { combinedLine, UA } from '../test/access-logs.js';
import type { Suite } from './lib/index.js';

// Crawler-log ingestion on one core: the route's own reading code (readLog: readline over
// the stream, SHA-256 of the bytes, LogTally: parse, host check, agent, verification,
// referral) over a generated combined-format log of BENCH_CRAWLER_LOG_MB (default 1024 MiB)
// in /tmp, with the process's RSS sampled throughout. Yardstick, same run: readline alone
// over the same file. Goals: 100,000 lines/s or more; RSS flat (the last sample within 64
// MiB of the one after the first tenth of the file).

const GOAL_LINES_PER_S = 100_000;
const FILE = '/tmp/sightline-crawlers-bench.log';

function generate(bytes: number): number {
  const agents = [UA.gptbot, UA.perplexity, UA.claude];
  const addresses = ['20.171.207.10', '1.2.3.4', '18.97.9.97', '5.6.7.8'];
  const fd = fs.openSync(FILE, 'w');
  let written = 0;
  let lines = 0;
  let seed = 7;
  const next = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed;
  };
  while (written < bytes) {
    const batch: string[] = [];
    for (let i = 0; i < 10_000; i++) {
      const r = next();
      const kind = r % 100;
      const minute = String((lines / 1000) % 60 | 0).padStart(2, '0');
      const hour = String(((lines / 60_000) | 0) % 24).padStart(2, '0');
      const day = String(1 + (((lines / 1_440_000) | 0) % 28)).padStart(2, '0');
      const target = `/docs/page-${next() % 2000}${r % 7 === 0 ? '?utm_source=newsletter' : ''}`;
      batch.push(
        combinedLine({
          address: kind < 4 ? addresses[r % 4] : `81.${r % 250}.${(r >> 8) % 250}.${(r >> 16) % 250}`,
          time: `${day}/Nov/2026:${hour}:${minute}:${String(r % 60).padStart(2, '0')} +0000`,
          target,
          referrer: kind >= 4 && kind < 6 ? 'https://chatgpt.com/' : 'https://www.google.com/',
          userAgent: kind < 4 ? agents[r % 3] : UA.browser,
          status: kind === 99 ? 404 : 200,
        }),
      );
      lines++;
    }
    const chunk = `${batch.join('\n')}\n`;
    fs.writeSync(fd, chunk);
    written += Buffer.byteLength(chunk);
  }
  fs.closeSync(fd);
  return lines;
}

async function yardstick(): Promise<number> {
  let n = 0;
  for await (const _line of readline.createInterface({ input: fs.createReadStream(FILE), crlfDelay: Number.POSITIVE_INFINITY })) n++;
  return n;
}

export const crawlersSuite: Suite = {
  name: 'crawlers',
  description: 'crawler-log ingestion: combined-format lines per second on one core, RSS over a 1 GiB log',
  async run() {
    const mb = Number(process.env.BENCH_CRAWLER_LOG_MB ?? 1024);
    console.log(`crawlers: ${os.cpus()[0]?.model ?? 'cpu'} × ${os.cpus().length}, node ${process.version}, load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    let t0 = performance.now();
    const generated = generate(mb * 1048576);
    console.log(`generated ${generated.toLocaleString('en')} lines (${mb} MiB) in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

    t0 = performance.now();
    const counted = await yardstick();
    const yardSeconds = (performance.now() - t0) / 1000;

    const rss: number[] = [];
    const sampler = setInterval(() => rss.push(process.memoryUsage().rss), 250);
    const tally = new LogTally(hostMatcher('acme.com'), currentRanges());
    t0 = performance.now();
    const { bytes } = await readLog(fs.createReadStream(FILE), false, Number.MAX_SAFE_INTEGER, tally);
    const seconds = (performance.now() - t0) / 1000;
    clearInterval(sampler);
    const rate = tally.counts.lines / seconds;
    const mib = (b: number) => Math.round(b / 1048576);
    const early = rss[Math.floor(rss.length / 10)] ?? rss[0];
    const last = rss[rss.length - 1];
    console.log(`yardstick readline only: ${counted.toLocaleString('en')} lines in ${yardSeconds.toFixed(1)} s = ${Math.round(counted / yardSeconds).toLocaleString('en')} lines/s`);
    console.log(
      `ingest (readLog + LogTally): ${tally.counts.lines.toLocaleString('en')} lines, ${mib(bytes)} MiB in ${seconds.toFixed(1)} s = ${Math.round(rate).toLocaleString('en')} lines/s (goal ${GOAL_LINES_PER_S.toLocaleString('en')}: ${rate >= GOAL_LINES_PER_S ? 'met' : 'MISSED'})`,
    );
    console.log(`counts ${JSON.stringify(tally.counts)}; aggregates ${tally.bots.size} bot cells, ${tally.referrals.size} referral cells`);
    console.log(`RSS MiB: min ${mib(Math.min(...rss))}, after 10% ${mib(early)}, max ${mib(Math.max(...rss))}, last ${mib(last)} (${Math.abs(last - early) <= 64 * 1048576 ? 'flat' : 'NOT flat'})`);
    fs.rmSync(FILE, { force: true });
  },
};
