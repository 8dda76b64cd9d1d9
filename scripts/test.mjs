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
// or a run executed no test. A worker killed by V8's known WebAssembly CHECK
// (scripts/test-report.mjs, V8_WASM_CRASH) has the files it left unfinished run once more,
// and the summary says so; any other dead worker fails the run.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { countTests, replaceFiles, unfinishedFiles, V8_WASM_CRASH } from './test-report.mjs';

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

/**
 * One vitest run. Its standard error is passed through and watched for V8_WASM_CRASH
 * (`v8WasmCrash`); `files` and `reportName` are for running a dead worker's files again.
 */
function runVitest(store, env, vitestArgs = [], { files, reportName = store } = {}) {
  const report = path.join(resultsDir, `${reportName}.json`);
  rmSync(report, { force: true }); // a stale report must never count as this run's
  const args = [
    vitestBin(),
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${report}`,
    ...vitestArgs,
    ...(files ?? extraArgs),
  ];
  console.log(`\n=== vitest on ${store} (TEST_STORE=${store})${files ? `, again: ${files.length} file(s)` : ''} ===\n`);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, {
      cwd: root,
      stdio: ['inherit', 'inherit', 'pipe'],
      env: { ...process.env, ...env, TEST_STORE: store },
    });
    current = child;
    let v8WasmCrash = false;
    let tail = '';
    child.stderr.on('data', (chunk) => {
      process.stderr.write(chunk);
      const text = tail + chunk.toString('utf8');
      if (V8_WASM_CRASH.test(text)) v8WasmCrash = true;
      tail = text.slice(-200); // the message may arrive cut in two
    });
    const stderrDone = new Promise((done) => child.stderr.on('close', done));
    child.on('error', (err) => {
      current = null;
      console.error(`could not start vitest: ${err.message}`);
      resolve({ store, report, exitCode: 1, signal: null, v8WasmCrash });
    });
    child.on('exit', async (exitCode, signal) => {
      current = null;
      // A process a test left behind may hold the pipe open: wait for it a little, not forever.
      await Promise.race([stderrDone, new Promise((done) => setTimeout(done, 2_000))]);
      resolve({ store, report, exitCode, signal, v8WasmCrash });
    });
  });
}

function readReport(file) {
  if (!existsSync(file)) return { error: `no JSON report at ${path.relative(root, file)}` };
  try {
    return { report: JSON.parse(readFileSync(file, 'utf8')) };
  } catch (err) {
    return { error: `unreadable JSON report: ${err.message}` };
  }
}

/**
 * Runs the files a worker left unfinished once more when V8_WASM_CRASH killed it and no
 * test failed; the run is then judged on its report with those files' results replaced.
 */
async function settle(run, env, vitestArgs) {
  const read = readReport(run.report);
  const { report } = read;
  if (!report || !run.v8WasmCrash || run.exitCode === 0) return judge(run, read);
  const unfinished = unfinishedFiles(report);
  const anyFailed = countTests(report.testResults ?? []).failed > 0;
  if (unfinished.length === 0 || anyFailed) return judge(run, read);
  const names = unfinished.map((f) => path.relative(root, f));
  console.log(`\n${run.store}: a vitest worker was killed by V8 (UnregisterWasmAllocation) in ${names.join(', ')}`);
  const again = await runVitest(run.store, env, vitestArgs, { files: names, reportName: `${run.store}-again` });
  const second = readReport(again.report);
  if (!second.report) return judge(again, second);
  const merged = replaceFiles(report, unfinished, second.report);
  const rerun = `a vitest worker was killed by V8's WebAssembly CHECK; ${names.join(', ')} ran again`;
  return judge({ ...again, report: run.report, rerun }, { report: merged }, { merged: true });
}

/**
 * One run's JSON report, as readReport gives it, into counts and the reasons the run failed,
 * if any. `merged`: the report is the run's with a dead worker's files run again (its totals
 * are the first run's, so only its files count).
 */
function judge(run, read, { merged = false } = {}) {
  const problems = [];
  const failures = [];
  let counts = { passed: 0, failed: 0, skipped: 0 };
  if (!read.report) {
    problems.push(read.error);
  } else {
    const r = read.report;
    const files = r.testResults ?? [];
    const tests = countTests(files);
    // A file that failed without a failed test (it did not load, or a beforeAll threw), and
    // a file a dead worker left unfinished, count as one failure each, so the closing line
    // never says 0 failed for a broken run.
    const brokenFiles = files.filter(
      (f) => f.status === 'failed' && !(f.assertionResults ?? []).some((a) => a.status === 'failed'),
    );
    const unfinished = unfinishedFiles(r);
    counts = { ...tests, failed: tests.failed + brokenFiles.length + unfinished.length };
    if (tests.failed > 0) problems.push(`${tests.failed} test(s) failed`);
    for (const f of files) {
      for (const a of f.assertionResults ?? []) {
        if (a.status !== 'failed') continue;
        const why = String((a.failureMessages ?? [])[0] ?? '').split('\n')[0].slice(0, 200);
        failures.push(`${path.relative(root, f.name)} > ${a.fullName ?? a.title}${why ? ` — ${why}` : ''}`);
      }
    }
    for (const f of brokenFiles) {
      problems.push(`${path.relative(root, f.name)} failed outside a test: ${(f.message || 'see the output above').split('\n')[0]}`);
    }
    for (const f of unfinished) {
      problems.push(`${path.relative(root, f)} did not finish: the worker running it died (see the output above)`);
    }
    if (!merged && (r.numFailedTestSuites ?? 0) > 0 && brokenFiles.length === 0 && tests.failed === 0) {
      problems.push(`${r.numFailedTestSuites} suite(s) failed (a hook threw?)`);
    }
    if (counts.passed + counts.failed === 0 && !run.mayBeEmpty) problems.push('no test was executed');
    if (!merged && r.success === false && problems.length === 0) problems.push('vitest reported the run as unsuccessful');
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

runs.push(await settle(await runVitest('pglite', {}), {}, []));

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
  const vitestArgs = chosen ? ['--passWithNoTests'] : [];
  const run = await runVitest('postgres', env, vitestArgs);
  runs.push(await settle({ ...run, mayBeEmpty: chosen }, env, vitestArgs));
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
  if (run.rerun) console.log(`  note [${run.store}]: ${run.rerun}`);
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
