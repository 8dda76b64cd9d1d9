// Reading vitest's JSON report for scripts/test.mjs: counts from the tests themselves, the
// files a dead worker left unfinished, and the one crash of V8 a run may be repeated for.

/**
 * V8's CHECK in ThreadIsolation::UnregisterWasmAllocation (Node 24's V8): it kills a worker
 * process now and then while WebAssembly code is freed, with PGlite's instances created and
 * collected by the hundred in a run. No test of ours is at fault; the files that worker was
 * running are run again, once (docs/testing.md, "A worker killed by V8").
 */
export const V8_WASM_CRASH = /Check failed: jit_page_->allocations_\.erase\(addr\) == 1/;

/** Tests counted by what each one ended as: `skipped` takes skip and todo. */
export function countTests(files) {
  const counts = { passed: 0, failed: 0, skipped: 0 };
  for (const f of files) {
    for (const a of f.assertionResults ?? []) {
      if (a.status === 'passed') counts.passed++;
      else if (a.status === 'failed') counts.failed++;
      else if (a.status === 'skipped' || a.status === 'todo') counts.skipped++;
    }
  }
  return counts;
}

/**
 * Files with a test that never ended: vitest reports the tests a dead worker had not
 * finished as `pending` (a skipped test is `skipped`, a todo `todo`).
 */
export function unfinishedFiles(report) {
  return (report.testResults ?? [])
    .filter((f) => (f.assertionResults ?? []).some((a) => a.status === 'pending'))
    .map((f) => f.name);
}

/**
 * The report with the given files' results replaced by a second run's (`rerun`, the
 * report of a run of exactly those files).
 */
export function replaceFiles(report, files, rerun) {
  const again = new Set(files);
  return {
    ...report,
    testResults: [...(report.testResults ?? []).filter((f) => !again.has(f.name)), ...(rerun.testResults ?? [])],
  };
}
