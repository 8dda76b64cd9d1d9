import { fmt, table } from './lib/report.js';
import { runBare, runSightline, TARGETS, type Row } from './http-auth.js';
import { ROOT } from './lib/suite.js';

// A/B of the http-auth suite: this checkout against another (BENCH_AB_BASE_DIR, e.g. a copy
// of main with node_modules linked), target by target, alternated over BENCH_AB_ROUNDS
// rounds, so the two sides meet the same load on a shared machine. Prints the CPU time per
// request of each process; leaves bench/README.md alone. `npx tsx bench/http-auth-ab.ts`.

const base = process.env.BENCH_AB_BASE_DIR;
if (!base) throw new Error('BENCH_AB_BASE_DIR: the checkout to compare against');
const rounds = Number(process.env.BENCH_AB_ROUNDS ?? 2);
const ids = (process.env.BENCH_AB_TARGETS ?? 'postgres,embedded').split(',');
const sides = [
  { name: 'before', dir: base },
  { name: 'after', dir: ROOT },
];
const rows: { side: string; round: number; row: Row }[] = [];
for (let round = 1; round <= rounds; round++) {
  for (const id of ids) {
    const target = TARGETS.find((t) => t.id === id)!;
    // Alternate which side goes first, round to round.
    for (const side of round % 2 ? sides : [...sides].reverse()) {
      console.log(`  round ${round}, ${id}, ${side.name} …`);
      const row = await runSightline({ ...target, appDir: side.dir }, { profile: false, diagnose: false });
      rows.push({ side: side.name, round, row });
      if (id === 'postgres' && side === sides[1]) {
        console.log(`  round ${round}, bare …`);
        rows.push({ side: '–', round, row: await runBare(row.body, row.path, { profile: false, diagnose: false }) });
      }
    }
  }
}
const cell = (r: Row, k: string) => (k in r.result.cpuPerReq ? fmt.us(r.result.cpuPerReq[k]) : '–');
console.log(
  table(
    ['target', 'side', 'round', 'req/s', 'p99', 'Node server', 'PostgreSQL', 'Redis', 'autocannon', 'machine CPU', 'limiter'],
    rows.map(({ side, round, row }) => [
      row.target.id, side, String(round), fmt.int(row.result.rps), fmt.ms(row.result.p99),
      cell(row, 'server'), cell(row, 'postgres'), cell(row, 'redis'), cell(row, 'autocannon'), fmt.cpu(row.result.cpu), row.limiter,
    ]),
  ),
);
