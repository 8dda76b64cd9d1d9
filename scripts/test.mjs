#!/usr/bin/env node
// `npm test`: the whole vitest suite on the embedded store (PGlite), then again on
// PostgreSQL (+ Redis) when TEST_DATABASE_URL is set. Extra arguments go to vitest
// (`npm test -- src/modules/accounts`, `npm test -- -t "api-key"`).
//
// The service processes the tests start (test/child-service.ts, test/server-mode/) run the
// build, `node dist/main.js`: dist/ is brought up to date first (scripts/build.mjs --if-stale).
//
// Each run writes vitest's JSON report to .test-results/<store>.json. The last line
// printed is `N passed, N failed, N skipped` summed over the runs (CI reads it), and the
// exit code is non-zero when a run failed, a report is missing, a suite failed to load
// or a run executed no test.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const resultsDir = path.join(root, '.test-results');
const extraArgs = process.argv.slice(2);

/** vitest's CLI entry, run with this Node (no shell, no npx download). */
function vitestBin() {
  const require = createRequire(path.join(root, 'package.json'));
  const pkgPath = require.resolve('vitest/package.json');
  const pkg = JSON.parse(readFileSync(pkgPath, 'utf8'));
  const bin = typeof pkg.bin === 'string' ? pkg.bin : pkg.bin.vitest;
  return path.join(path.dirname(pkgPath), bin);
}

let current = null;
let interrupted = null;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    interrupted = signal;
    if (current) current.kill(signal);
    else process.exit(130);
  });
}

function runVitest(store, env, vitestArgs = []) {
  const report = path.join(resultsDir, `${store}.json`);
  rmSync(report, { force: true }); // a stale report must never count as this run's
  const args = [
    vitestBin(),
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${report}`,
    ...vitestArgs,
    ...extraArgs,
  ];
  console.log(`\n=== vitest on ${store} (TEST_STORE=${store}) ===\n`);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, ...env, TEST_STORE: store },
    });
    current = child;
    child.on('error', (err) => {
      current = null;
      console.error(`could not start vitest: ${err.message}`);
      resolve({ store, report, exitCode: 1, signal: null });
    });
    child.on('exit', (exitCode, signal) => {
      current = null;
      resolve({ store, report, exitCode, signal });
    });
  });
}

/** Reads one run's JSON report into counts and the reasons it failed, if any. */
function judge(run) {
  const problems = [];
  const failures = [];
  let counts = { passed: 0, failed: 0, skipped: 0 };
  if (!existsSync(run.report)) {
    problems.push(`no JSON report at ${path.relative(root, run.report)}`);
  } else {
    try {
      const r = JSON.parse(readFileSync(run.report, 'utf8'));
      // A file that failed without a failed test (it did not load, or a beforeAll threw)
      // counts as one failure, so the closing line never says 0 failed for a broken run.
      const brokenFiles = (r.testResults ?? []).filter(
        (f) => f.status === 'failed' && !(f.assertionResults ?? []).some((a) => a.status === 'failed'),
      );
      counts = {
        passed: r.numPassedTests ?? 0,
        failed: (r.numFailedTests ?? 0) + brokenFiles.length,
        skipped: (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0),
      };
      if (r.numFailedTests > 0) problems.push(`${r.numFailedTests} test(s) failed`);
      for (const f of r.testResults ?? []) {
        for (const a of f.assertionResults ?? []) {
          if (a.status !== 'failed') continue;
          const why = String((a.failureMessages ?? [])[0] ?? '').split('\n')[0].slice(0, 200);
          failures.push(`${path.relative(root, f.name)} > ${a.fullName ?? a.title}${why ? ` — ${why}` : ''}`);
        }
      }
      for (const f of brokenFiles) {
        problems.push(`${path.relative(root, f.name)} failed outside a test: ${(f.message || 'see the output above').split('\n')[0]}`);
      }
      if ((r.numFailedTestSuites ?? 0) > 0 && brokenFiles.length === 0 && !(r.numFailedTests > 0)) {
        problems.push(`${r.numFailedTestSuites} suite(s) failed (a hook threw?)`);
      }
      if (counts.passed + counts.failed === 0 && !run.mayBeEmpty) problems.push('no test was executed');
      if (r.success === false && problems.length === 0) problems.push('vitest reported the run as unsuccessful');
    } catch (err) {
      problems.push(`unreadable JSON report: ${err.message}`);
    }
  }
  if (run.signal) problems.push(`vitest was killed by ${run.signal}`);
  else if (run.exitCode !== 0) problems.push(`vitest exited with code ${run.exitCode}`);
  return { ...run, counts, problems, failures };
}

const build = spawnSync(process.execPath, [path.join(root, 'scripts', 'build.mjs'), '--if-stale'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) {
  console.error('the build failed (above): the tests run the compiled service, so they cannot run');
  console.log('0 passed, 1 failed, 0 skipped');
  process.exit(1);
}

mkdirSync(resultsDir, { recursive: true });
for (const store of ['pglite', 'postgres']) rmSync(path.join(resultsDir, `${store}.json`), { force: true });
const runs = [];
const notes = [];

runs.push(judge(await runVitest('pglite', {})));

if (interrupted) {
  console.log(`\ninterrupted by ${interrupted}`);
  process.exit(130);
}

const databaseUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;
if (databaseUrl) {
  if (!redisUrl) notes.push('TEST_REDIS_URL is not set: the PostgreSQL run has no Redis (the shared rate-limit window is not exercised).');
  const env = { TEST_DATABASE_URL: databaseUrl, ...(redisUrl ? { TEST_REDIS_URL: redisUrl } : {}) };
  // The PostgreSQL run leaves out the tests that never open a store (vitest.config.ts,
  // STORE_FREE_TESTS): chosen files (`npm test -- src/lib`) may all be such tests.
  const chosen = extraArgs.length > 0;
  const run = await runVitest('postgres', env, chosen ? ['--passWithNoTests'] : []);
  runs.push(judge({ ...run, mayBeEmpty: chosen }));
} else {
  notes.push(
    'PostgreSQL/Redis suite SKIPPED: TEST_DATABASE_URL is not set' +
      (redisUrl ? '' : ' (nor TEST_REDIS_URL)') +
      '. Set TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres and TEST_REDIS_URL=redis://127.0.0.1:6379 to run it.',
  );
}

console.log('\n=== summary ===');
for (const run of runs) {
  const { passed, failed, skipped } = run.counts;
  const verdict = run.problems.length ? `FAILED: ${run.problems.join('; ')}` : 'ok';
  console.log(`${run.store.padEnd(8)} ${passed} passed, ${failed} failed, ${skipped} skipped — ${verdict}`);
  for (const f of run.failures) console.log(`  ✗ [${run.store}] ${f}`);
}
for (const note of notes) console.log(note);

const total = runs.reduce(
  (t, r) => ({ passed: t.passed + r.counts.passed, failed: t.failed + r.counts.failed, skipped: t.skipped + r.counts.skipped }),
  { passed: 0, failed: 0, skipped: 0 },
);
const ok = runs.every((r) => r.problems.length === 0);
// Alone on the last line, for CI.
console.log(`${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
process.exitCode = ok ? 0 : 1;
