import { alertsSuite } from './alerts.js';
import { analysisSuite } from './analysis.js';
import { answerBodiesSuite } from './answer-bodies.js';
import { analyticsSuite } from './analytics.js';
import { crawlersSuite } from './crawlers.js';
import { deliverySuite } from './delivery.js';
import { dashboardSuite, screenshotSuite } from './dashboard.js';
import { heldoutSuite } from './heldout.js';
import { httpAuth } from './http-auth.js';
import { loadSuite } from './load.js';
import { mcpSuite } from './mcp.js';
import { themesSuite } from './themes.js';
import { samplingSuite } from './sampling.js';
import { marketsSuite } from './markets.js';
import { scaleSuite } from './scale.js';
import { startupSuite } from './startup.js';
import { stopAll } from './lib/servers.js';
import type { Suite, SuiteOptions } from './lib/suite.js';

// `npm run bench` runs every suite; `npm run bench -- <name> [<name>…] [--diagnose] [--profile]`
// runs the named ones. A missed goal is reported, never an exit code: only real errors
// (a server that does not start, a failed request while seeding) exit non-zero.
// A new benchmark is a file exporting a Suite, added to this list.
const SUITES: Suite[] = [httpAuth, analysisSuite, heldoutSuite, analyticsSuite, loadSuite, deliverySuite, mcpSuite, dashboardSuite, screenshotSuite, crawlersSuite, alertsSuite, themesSuite, samplingSuite, marketsSuite, scaleSuite, startupSuite, answerBodiesSuite];

function parseArgs(argv: string[]): { names: string[]; opts: SuiteOptions } {
  const flags = new Set(argv.filter((a) => a.startsWith('--')));
  for (const f of flags) if (!['--diagnose', '--profile'].includes(f)) throw new Error(`unknown flag ${f}`);
  return {
    names: argv.filter((a) => !a.startsWith('--')),
    opts: { diagnose: flags.has('--diagnose'), profile: flags.has('--profile') },
  };
}

async function main(): Promise<void> {
  const { names, opts } = parseArgs(process.argv.slice(2));
  const unknown = names.filter((n) => !SUITES.some((s) => s.name === n));
  if (unknown.length) {
    throw new Error(`unknown suite ${unknown.join(', ')}; suites: ${SUITES.map((s) => `${s.name} (${s.description})`).join('; ')}`);
  }
  const selected = names.length ? SUITES.filter((s) => names.includes(s.name)) : SUITES;
  for (const suite of selected) await suite.run(opts);
}

let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (interrupted) return;
    interrupted = true;
    console.error(`\n${signal}: stopping the servers under test`);
    void stopAll().finally(() => process.exit(130));
  });
}

main()
  .then(() => stopAll())
  .catch(async (err) => {
    console.error(err instanceof Error ? (err.stack ?? err.message) : err);
    await stopAll();
    process.exitCode = 1;
  });
